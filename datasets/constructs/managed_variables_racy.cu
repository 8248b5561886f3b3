// expect: racy
// As its drf twin, but every thread counts with a plain increment.
__managed__ int stride = 1;
__managed__ unsigned int visited = 0;

__global__ void gather(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i * stride];
    visited += 1;
  }
}

void run(float *out, const float *in, int n) {
  stride = 2;
  gather<<<(n + 127) / 128, 128>>>(out, in, n);
}
