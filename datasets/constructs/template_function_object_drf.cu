// expect: drf
// A kernel template parameterised by a function object type, launched only
// from a host template: analysed uninstantiated, `read(j)` is a call of a
// dependent type that drfscan cannot see into, not a call through a
// function pointer.
struct FromTexture {
  __device__ float operator()(int i) const;
};

template <typename Reader>
__global__ void gather(float *out, const int *index, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Reader read;
  if (i < n)
    out[i] = read(index[i]);
}

template <typename Reader>
void run(float *out, const int *index, int n) {
  gather<Reader><<<(n + 127) / 128, 128>>>(out, index, n);
}
