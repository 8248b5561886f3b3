// expect: drf
// Unified-memory variables (`__managed__`) are device variables the host
// also reads and writes: kernels read the host's setting and count with an
// atomic.
__managed__ int stride = 1;
__managed__ unsigned int visited = 0;

__global__ void gather(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i * stride];
    atomicAdd(&visited, 1u);
  }
}

void run(float *out, const float *in, int n) {
  stride = 2;
  gather<<<(n + 127) / 128, 128>>>(out, in, n);
}
