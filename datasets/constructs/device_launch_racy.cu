// expect: racy
// As `device_launch_drf.cu`, but every thread of a block writes its own
// index into the block's one cell of `counts`. The launched kernel is
// defined elsewhere.
__global__ void scale_slice(float *data, float factor);

__global__ void scale_per_block(float *data, int *counts, int slice) {
  if (threadIdx.x == 0)
    scale_slice<<<slice / 256, 256>>>(data + blockIdx.x * slice, 2.0f);
  cudaDeviceSynchronize();
  counts[blockIdx.x] = threadIdx.x;
}
