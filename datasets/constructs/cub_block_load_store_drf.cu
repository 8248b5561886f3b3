// expect: drf
// A block loads a tile of 128 x 4 floats with cub::BlockLoad (striped
// reads, transposed through shared memory), scales it and stores it with
// cub::BlockStore. The two share their temporary storage, so a barrier
// separates them, as CUB's contract asks.
#include <cub/cub.cuh>

constexpr int THREADS = 128;
constexpr int ITEMS = 4;

__global__ void scale_tiles(const float *in, float *out, float s, int n) {
  using Load = cub::BlockLoad<float, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
  using Store = cub::BlockStore<float, THREADS, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } temp;
  int tile = blockIdx.x * THREADS * ITEMS;
  float items[ITEMS];
  Load(temp.load).Load(in + tile, items, n - tile);
  for (int i = 0; i < ITEMS; i++)
    items[i] *= s;
  __syncthreads();
  Store(temp.store).Store(out + tile, items, n - tile);
}

void run(const float *in, float *out, float s, int n) {
  scale_tiles<<<(n + THREADS * ITEMS - 1) / (THREADS * ITEMS), THREADS>>>(in, out, s, n);
}
