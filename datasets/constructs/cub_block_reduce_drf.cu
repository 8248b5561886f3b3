// expect: drf
// A softmax denominator in the style of inference code: two block-wide
// reductions with CUB share one temporary storage, with a barrier between
// them as CUB asks, and thread 0 hands each result to the block through
// a shared variable. The barrier inside each reduction orders the block's
// reads of the first result before thread 0 stores the second.
#include <cub/cub.cuh>

__global__ void softmax_rows(float *x, int n) {
  using BlockReduce = cub::BlockReduce<float, 256>;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float shared_val;
  float *row = x + blockIdx.x * n;
  float top = -1e30f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    top = fmaxf(top, row[i]);
  top = BlockReduce(temp).Reduce(top, cub::Max());
  if (threadIdx.x == 0)
    shared_val = top;
  __syncthreads();
  top = shared_val;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    row[i] = expf(row[i] - top);
    sum += row[i];
  }
  sum = BlockReduce(temp).Sum(sum);
  if (threadIdx.x == 0)
    shared_val = sum;
  __syncthreads();
  sum = shared_val;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    row[i] /= sum;
}

// The same with the block size a template parameter: clang leaves the
// collective's class open in the template, and the model still applies.
template <int THREADS> __global__ void norm_rows(float *x, int n) {
  typedef cub::BlockReduce<float, THREADS> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float shared_val;
  float *row = x + blockIdx.x * n;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += THREADS)
    sum += row[i] * row[i];
  sum = BlockReduce(temp).Sum(sum);
  if (threadIdx.x == 0)
    shared_val = rsqrtf(sum);
  __syncthreads();
  float scale = shared_val;
  float peak = 0.0f;
  for (int i = threadIdx.x; i < n; i += THREADS)
    peak = fmaxf(peak, fabsf(row[i] * scale));
  peak = BlockReduce(temp).Reduce(peak, cub::Max());
  if (threadIdx.x == 0)
    shared_val = peak;
}

__global__ void prefix_offsets(const int *counts, int *offsets, int *total) {
  using BlockScan = cub::BlockScan<int, 128>;
  __shared__ typename BlockScan::TempStorage scan;
  int mine = counts[blockIdx.x * 128 + threadIdx.x];
  int before, all;
  BlockScan(scan).ExclusiveSum(mine, before, all);
  offsets[blockIdx.x * 128 + threadIdx.x] = before;
  if (threadIdx.x == 0)
    total[blockIdx.x] = all;
}

int main() {
  float *x;
  int *c, *o, *t;
  softmax_rows<<<64, 256>>>(x, 1000);
  prefix_offsets<<<16, 128>>>(c, o, t);
  norm_rows<128><<<64, 128>>>(x, 1000);
  return 0;
}
