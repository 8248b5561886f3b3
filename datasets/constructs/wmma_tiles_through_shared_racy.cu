// expect: racy
// Tensor-core tiles staged through shared memory: each of the block's four
// warps multiplies one 16x16 tile and stores its accumulator into its own
// part of `stage`, and with no barrier after the stores a thread copies out
// cells another warp may still be storing.
#include <mma.h>
using namespace nvcuda;

__global__ void tile_products(const half *a, const half *b, float *out) {
  __shared__ float stage[4 * 16 * 16];
  int warp = threadIdx.x / 32;
  int tile = blockIdx.x * 4 + warp;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a + tile * 256, 16);
  wmma::load_matrix_sync(fb, b + tile * 256, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(stage + warp * 256, acc, 16, wmma::mem_row_major);
  for (int k = 0; k < 8; ++k)
    out[blockIdx.x * 1024 + k * 128 + threadIdx.x] = stage[k * 128 + threadIdx.x];
}

int main() {
  half *a, *b;
  float *out;
  tile_products<<<64, 128>>>(a, b, out);
  return 0;
}
