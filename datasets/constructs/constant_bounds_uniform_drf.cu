// expect: drf
// Loop bounds from `__constant__` values the host sets, a float cutoff
// among them (gridding, cutoff potentials): every thread computes the same
// bounds, so the barriers in the loop are reached by all threads of a block.
__constant__ float cutoff;
__constant__ int grid_size[3];

__global__ void slab_sums(const float *in, float *out) {
  __shared__ float tile[64];
  int z0 = 4 * blockIdx.y;
  int zl = z0 - ceilf(cutoff);
  int lo = zl < 0 ? 0 : zl;
  int zh = z0 + 4 + (int)cutoff;
  int hi = zh >= grid_size[2] ? grid_size[2] - 1 : zh;
  float acc = 0.0f;
  for (int z = lo; z <= hi; z++) {
    __syncthreads();
    if (threadIdx.x < 64)
      tile[threadIdx.x] = in[z * 64 + threadIdx.x];
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % 64];
  }
  out[(blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x] = acc;
}

void run(const float *in, float *out) {
  slab_sums<<<dim3(8, 8), 64>>>(in, out);
}
