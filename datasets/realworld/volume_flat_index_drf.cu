// expect: drf
// A volume stored flat, z-major: each thread of a 3-D grid updates the
// voxel at z * height * width + y * width + x, guarded by the volume's
// sizes. Across blocks the index is a number in mixed radix (width, then
// height); for the solver that takes two divisions of the flat index,
// found only when the width itself is tried as a modulus.
__device__ float logistic(float v) { return 1.0f / (1.0f + expf(-v)); }

__global__ void squash_volume(float *voxels, int width, int height, int depth) {
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (z < depth && y < height && x < width) {
    float v = voxels[z * height * width + y * width + x];
    voxels[z * height * width + y * width + x] = logistic(v);
  }
}
