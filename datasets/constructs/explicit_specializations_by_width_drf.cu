// expect: drf
// Memory helpers declared as a function template over the access width
// and defined only by explicit specializations (`template <> void
// load<16>(…)`), as inference libraries write them. The kernel template's
// call names the width through its own parameter, so the call stays
// unresolved in the template; the specialization whose width the
// instance fixes is the one inlined. Each thread moves its own chunk.
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
  mem::load<Width>(regs, data + c * per_thread);
  for (int i = 0; i < per_thread; i++)
    regs[i] *= factor;
  mem::store<Width>(data + c * per_thread, regs);
}

void launch(float *data, int chunks, float factor, bool wide) {
  if (wide)
    scale_chunks<16><<<(chunks + 127) / 128, 128>>>(data, chunks, factor);
  else
    scale_chunks<8><<<(chunks + 127) / 128, 128>>>(data, chunks, factor);
}
