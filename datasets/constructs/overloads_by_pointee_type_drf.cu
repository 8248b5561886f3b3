// expect: drf
// Two overloads of a helper that differ only in the element type their
// pointer takes, one forwarding to the other through a cast, as
// quantization libraries write them; the kernel template calls the
// helper by a name its template leaves unresolved. A `const float *`
// argument cannot bind to the `const float2 *` overload, so only the
// scalar one is a candidate (taking both made the forwarding one look
// recursive, unsupported). Each thread packs its own chunk.
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
    pack<Bits>(out + 4 * c, in + 4 * c);
}

template __global__ void quantize<8>(unsigned char *, const float *, int);
