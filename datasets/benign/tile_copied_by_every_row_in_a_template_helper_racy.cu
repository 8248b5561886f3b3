// expect: racy
// As its drf twin, but each row loads from its own offset: the rows store
// different input cells in one tile cell.
template <int parts, int stride, typename E>
__device__ void load_tile(E (&tile)[parts * stride], const E *__restrict__ src, int lane, int base) {
  for (int p = 0; p < parts; p++)
    tile[lane + p * stride] = src[base + p * stride];
}

template <typename T>
__global__ void pair_terms(const T *__restrict__ xs, T *out, int n) {
  __shared__ T tile[4 * 32];
  int base = blockIdx.x * 128 + threadIdx.y;
  load_tile<4, 32>(tile, xs, threadIdx.x, base + threadIdx.x);
  __syncthreads();
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n)
    out[(row * gridDim.x + blockIdx.x) * 32 + threadIdx.x] = tile[threadIdx.x] * tile[threadIdx.y];
}

void run(const float *xs, float *out, int n) {
  pair_terms<float><<<dim3(8, n / 8), dim3(32, 8)>>>(xs, out, n);
}
