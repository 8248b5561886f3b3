// expect: racy
// The width-specialized helpers of explicit_specializations_by_width_drf.cu,
// but the chunks are placed two floats apart whatever the width: launched
// with 16-byte chunks, each overlaps its neighbour's.
namespace mem {
template <int Bytes> __device__ void load(void *dst, const void *src);
template <int Bytes> __device__ void store(void *dst, const void *src);

template <> __device__ void load<16>(void *dst, const void *src) {
  *reinterpret_cast<float4 *>(dst) = *reinterpret_cast<const float4 *>(src);
}
template <> __device__ void load<8>(void *dst, const void *src) {
  *reinterpret_cast<float2 *>(dst) = *reinterpret_cast<const float2 *>(src);
}
template <> __device__ void store<16>(void *dst, const void *src) {
  *reinterpret_cast<float4 *>(dst) = *reinterpret_cast<const float4 *>(src);
}
template <> __device__ void store<8>(void *dst, const void *src) {
  *reinterpret_cast<float2 *>(dst) = *reinterpret_cast<const float2 *>(src);
}
} // namespace mem

template <int Width>
__global__ void scale_chunks(float *data, int chunks, float factor) {
  constexpr int per_thread = Width / sizeof(float);
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= chunks)
    return;
  float regs[per_thread];
  mem::load<Width>(regs, data + c * 2);
  for (int i = 0; i < per_thread; i++)
    regs[i] *= factor;
  mem::store<Width>(data + c * 2, regs);
}

void launch(float *data, int chunks, float factor) {
  scale_chunks<16><<<(chunks + 127) / 128, 128>>>(data, chunks, factor);
}
