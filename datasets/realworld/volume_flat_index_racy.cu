// expect: racy
// As `volume_flat_index_drf.cu` with the row guard off by one (`y <=
// height`): the thread one row past the last one of plane z touches the
// first voxel of plane z + 1, which its owner also updates.
__device__ float logistic(float v) { return 1.0f / (1.0f + expf(-v)); }

__global__ void squash_volume(float *voxels, int width, int height, int depth) {
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (z < depth && y <= height && x < width) {
    float v = voxels[z * height * width + y * width + x];
    voxels[z * height * width + y * width + x] = logistic(v);
  }
}
