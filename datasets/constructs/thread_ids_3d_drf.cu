// expect: drf
// options: --block-dim 8,4,2 --grid-dim 16
// Three-dimensional thread ids indexing a 3D shared array: each thread writes
// its own cell, a barrier, then reads the point-mirrored cell.

__global__ void mirror_cube(float *out) {
  __shared__ float cube[2][4][8];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tz = threadIdx.z;

  cube[tz][ty][tx] = (float)(tx + 10 * ty + 100 * tz);
  __syncthreads();

  int flat = (tz * blockDim.y + ty) * blockDim.x + tx;
  out[blockIdx.x * 64 + flat] = cube[1 - tz][3 - ty][7 - tx];
}
