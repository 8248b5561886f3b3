// expect: drf
// No launch configuration is given. The kernel never mentions the y or z
// axes, so drfscan analyses it for one-dimensional blocks (blockDim.y =
// blockDim.z = 1, see README "Analysis options"); along x every block size is
// considered, and each thread writes its own cell.

__global__ void stage_ids(void) {
  __shared__ int ids[1024];
  ids[threadIdx.x] = threadIdx.x;
}
