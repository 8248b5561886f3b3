// expect: divergent
// early_return_whole_blocks_drf.cu over 1000 elements: the last block has
// threads past the end, which return before the barriers the others wait
// at. The report names two such threads of the launch.
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
  const int n = 1000;
  const int threads = 256;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n + threads - 1) / threads * sizeof(float));
  block_sums<<<(n + threads - 1) / threads, threads>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
