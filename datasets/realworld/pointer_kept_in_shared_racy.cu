// expect: racy
// options: --block-dim 128
// pointer_kept_in_shared_drf.cu writing through the kept pointer: where a
// block's bin lies is not known, so two blocks may write one element.
__global__ void bin_scale(float *bins, const int *bin_start) {
  __shared__ float *bin;
  if (threadIdx.x == 0)
    bin = &bins[bin_start[blockIdx.x]];
  __syncthreads();
  bin[threadIdx.x] = bin[threadIdx.x] * 0.5f;
}
