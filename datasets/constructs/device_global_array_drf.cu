// expect: drf
// options: --block-dim 256 --grid-dim 16
// A __device__ global array written once per grid thread.

__device__ float g_stage[4096];

__global__ void stage_global(const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  g_stage[i] = 2.0f * in[i];
}
