// expect: racy
// Each block folds its rows' column sums into its own slice of `scratch`,
// fences, waits for the block, and takes a ticket with `atomicInc(flag,
// 64)`, which wraps after 64 blocks of the 132 launched: two blocks draw 63
// and both add the slices into `dbias`.
#define WARP 32

__global__ void bias_sums(float *dbias, float *scratch, unsigned int *flag,
                          const float *dout, int n, int c)
{
  extern __shared__ float part[];
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  int warps = blockDim.x / WARP;
  for (int i = threadIdx.x; i < c; i += blockDim.x)
    part[i] = 0.0f;
  __syncthreads();
  for (int row = blockIdx.x * warps + warp; row < n; row += gridDim.x * warps)
    for (int i = lane; i < c; i += WARP)
      atomicAdd(&part[i], dout[row * c + i]);
  __syncthreads();
  for (int i = threadIdx.x; i < c; i += blockDim.x)
    scratch[blockIdx.x * c + i] = part[i];
  __threadfence();
  __syncthreads();
  __shared__ unsigned int ticket;
  if (threadIdx.x == 0)
    ticket = atomicInc(flag, 64);
  __syncthreads();
  if (ticket == 63) {
    for (int i = threadIdx.x; i < c; i += blockDim.x) {
      float sum = 0.0f;
      for (int b = 0; b < gridDim.x; b++)
        sum += scratch[b * c + i];
      dbias[i] += sum;
    }
    if (threadIdx.x == 0)
      *flag = 0;
  }
}

int main()
{
  float *dbias, *scratch, *dout;
  unsigned int *flag;
  int n = 8192, c = 768;
  bias_sums<<<132, 512, c * sizeof(float)>>>(dbias, scratch, flag, dout, n, c);
  return 0;
}
