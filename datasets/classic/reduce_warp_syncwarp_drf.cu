// expect: drf
// options: --block-dim 256 --grid-dim 64
// The warp-level tail of reduce_warp_volatile_racy.cu done right: each lane
// reads into a register, __syncwarp, writes, __syncwarp. The branch
// tid < 32 is uniform per warp (whole warp 0), so __syncwarp with the full
// mask is legal there.

#define THREADS 256

__global__ void reduce_warp_syncwarp(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }

  if (tid < 32) {
    float v = sdata[tid];
    for (unsigned int off = 32; off > 0; off >>= 1) {
      v += sdata[tid + off];
      __syncwarp();
      sdata[tid] = v;
      __syncwarp();
    }
  }

  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
