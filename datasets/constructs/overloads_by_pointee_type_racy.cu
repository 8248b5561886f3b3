// expect: racy
// overloads_by_pointee_type_drf.cu with the chunks placed two bytes
// apart: each thread's four bytes overlap its neighbour's.
template <int Bits> __device__ void pack(unsigned char *out, const float *in) {
#pragma unroll
  for (int i = 0; i < 4; i++)
    out[i] = (unsigned char)(in[i] * (1 << Bits));
}

template <int Bits> __device__ void pack(unsigned char *out, const float2 *in) {
  pack<Bits>(out, reinterpret_cast<const float *>(in));
}

template <int Bits> __global__ void quantize(unsigned char *out, const float *in, int chunks) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < chunks)
    pack<Bits>(out + 2 * c, in + 4 * c);
}

template __global__ void quantize<8>(unsigned char *, const float *, int);
