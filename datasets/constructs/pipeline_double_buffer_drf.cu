// expect: drf
// options: --block-dim 128
// A two-stage pipeline of per-thread asynchronous copies (libcu++'s
// cuda::pipeline): while a block sums one tile of its row in shared memory,
// each thread's copy of its cell of the next tile is in flight into the
// other buffer. The wait covers only the thread's own copy, so a barrier
// hands the tile to the block, and a second one keeps the next copy into
// that buffer after everyone read it.
#include <cuda/pipeline>
#define TILE 128

__global__ void tile_sums(const float *in, float *out, int tiles) {
  __shared__ float buf[2][TILE];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const float *row = in + blockIdx.x * tiles * TILE;
  float acc = 0.0f;
  pipe.producer_acquire();
  cuda::memcpy_async(&buf[0][threadIdx.x], &row[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  for (int t = 0; t < tiles; ++t) {
    pipe.producer_acquire();
    if (t + 1 < tiles) {
      cuda::memcpy_async(&buf[(t + 1) % 2][threadIdx.x],
                         &row[(t + 1) * TILE + threadIdx.x], sizeof(float), pipe);
    }
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<1>(pipe);
    __syncthreads();
    acc += buf[t % 2][TILE - 1 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * TILE + threadIdx.x] = acc;
}
