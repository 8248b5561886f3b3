// expect: drf
// options: --block-dim 128 --grid-dim 8
// constexpr sizes and a constexpr helper: each thread handles kItems
// elements spaced kBlock apart (coalesced).

constexpr int kBlock = 128;
constexpr int kItems = 4;
__host__ __device__ constexpr int tile_size() { return kBlock * kItems; }

__global__ void add_one_tiled(float *data) {
  __shared__ float s[tile_size()];
  int base = blockIdx.x * tile_size();
  for (int k = 0; k < kItems; k++)
    s[k * kBlock + threadIdx.x] = data[base + k * kBlock + threadIdx.x];
  __syncthreads();
  for (int k = 0; k < kItems; k++)
    data[base + k * kBlock + threadIdx.x] = s[k * kBlock + threadIdx.x] + 1.0f;
}
