// expect: racy
// options: --block-dim 256
// The last-block reduction of last_block_flag_beside_partial_sums_drf.cu
// with the counter in the last cell of the weight sums: other blocks'
// additions of sums move it too, two blocks may both see themselves last,
// and their writes of the totals race.
__global__ void column_sums(float *dbias, float *dweight, float *scratch,
                            const float *dout, const float *norm, int N,
                            int C) {
  extern __shared__ float shared[];
  float *bias_part = shared;
  float *weight_part = shared + C;
  unsigned int *flag = (unsigned int *)(shared + 2 * C);
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    bias_part[i] = 0.0f;
    weight_part[i] = 0.0f;
  }
  __syncthreads();
  for (int row = blockIdx.x; row < N; row += gridDim.x)
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
      bias_part[i] += dout[row * C + i];
      weight_part[i] += dout[row * C + i] * norm[row * C + i];
    }
  __syncthreads();
  float *bias_sums = scratch;
  float *weight_sums = scratch + C;
  unsigned int *count = (unsigned int *)(scratch + 2 * C - 1);
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    atomicAdd(&bias_sums[i], bias_part[i]);
    atomicAdd(&weight_sums[i], weight_part[i]);
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    *flag = atomicAdd(count, 1);
  __syncthreads();
  if (*flag == gridDim.x - 1) {
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
      dbias[i] += bias_sums[i];
      dweight[i] += weight_sums[i];
    }
  }
}
