// expect: drf
// A block reduction behind the usual `if (idx >= n) return;`. The host
// launches whole blocks over a size that is a multiple of the block, so
// every thread of a block returns or none does: the barriers after the
// check do not diverge.
__global__ void block_sums(const float *in, float *out, int n) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  int idx = blockIdx.x * blockDim.x + tid;
  if (idx >= n)
    return;
  s[tid] = in[idx];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  const int n = 1 << 20;
  const int threads = 256;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n / threads * sizeof(float));
  block_sums<<<n / threads, threads>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
