// expect: drf
// options: --block-dim 128
// Thread 0 finds the block's bin and keeps a pointer to it in shared
// memory; after the barrier every thread reads its own element of the bin
// through that pointer.
__global__ void bin_means(const float *bins, const int *bin_start, float *out) {
  __shared__ const float *bin;
  if (threadIdx.x == 0)
    bin = &bins[bin_start[blockIdx.x]];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = bin[threadIdx.x] * 0.5f;
}
