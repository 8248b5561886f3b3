// expect: drf
// Every thread of a block stores the same pointer, its block's part of the
// output, in a `__shared__` variable and writes through what it reads back,
// as older lattice codes keep a region's base. Blocks own 64 cells each.
__global__ void fill_regions(float *out, const float *in, float scale) {
  __shared__ float *region;
  region = out + blockIdx.x * 64;
  __syncthreads();
  float v = in[blockIdx.x * 64 + threadIdx.x] * scale;
  region[threadIdx.x] = v;
}

__global__ void fill_regions_lead(float *out, const float *in, float scale) {
  __shared__ float *region;
  if (threadIdx.x == 0)
    region = out + blockIdx.x * 64;
  __syncthreads();
  region[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x] * scale;
}

void run(float *out, const float *in, int blocks) {
  fill_regions<<<blocks, 64>>>(out, in, 2.0f);
  fill_regions_lead<<<blocks, 64>>>(out, in, 2.0f);
}
