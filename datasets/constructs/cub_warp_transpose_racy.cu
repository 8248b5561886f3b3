// expect: racy
// cub::BlockLoad and cub::BlockStore with warp transposes, as a state-space
// scan loads its per-thread state: each warp reads 32 x N consecutive
// floats, warp-striped. The blocks' outputs are placed half a tile apart:
// neighbouring blocks store to the same cells.
#include <cub/cub.cuh>

template <int THREADS, int N>
__global__ void decay_states(const float *s0, float *s, float a) {
  using Load = cub::BlockLoad<float, THREADS, N, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<float, THREADS, N, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } temp;
  float regs[N];
  const float *block_in = s0 + blockIdx.x * THREADS * N;
  float *block_out = s + blockIdx.x * THREADS * N / 2;
  Load(temp.load).Load(block_in, regs);
  for (int i = 0; i < N; i++)
    regs[i] *= a;
  __syncthreads();
  Store(temp.store).Store(block_out, regs);
}

void run(const float *s0, float *s, float a, int blocks) {
  decay_states<128, 16><<<blocks, 128>>>(s0, s, a);
}
