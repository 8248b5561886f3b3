// expect: racy
// As overloaded_helpers_of_a_template_drf.cu, but the overload for
// integers writes a cell per block, which all the block's threads share.
__device__ void store_scaled(float *out, float v, int at) { out[at] = v / 255.0f - 0.5f; }
__device__ void store_scaled(int *out, int v, int at) { out[at / 256] = v - 128; }

template <typename T>
__global__ void unpack(T *out, const unsigned char *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = (T)in[i];
  if (i < n)
    store_scaled(out, v, i);
}

template <typename T> void run(T *out, const unsigned char *in, int n) {
  unpack<<<(n + 255) / 256, 256>>>(out, in, n);
}
template void run<float>(float *, const unsigned char *, int);
template void run<int>(int *, const unsigned char *, int);
