// expect: drf
// options: --block-dim 256
// A last-block reduction whose flag and counter share arrays with the
// partial sums, as a layer-norm backward pass keeps them: each block sums
// its part in `extern __shared__` memory (the flag after its 2 * C sums),
// adds it into global `scratch` (the counter after its 2 * C sums), takes a
// ticket, and the last block to finish writes the totals. No write of the
// sums reaches the flag's or the counter's cell.
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
  unsigned int *count = (unsigned int *)(scratch + 2 * C);
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
