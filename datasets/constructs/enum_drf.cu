// expect: drf
// options: --block-dim 32 --grid-dim 8
// Sizes given by enumerators: 32 threads stage a 64-element tile, two
// elements each, and write it back mirrored.

enum { TILE = 64, HALF = TILE / 2 };
enum Mode { COPY = 0, MIRROR = 1 };

__global__ void mirror_tile(float *data, int mode) {
  __shared__ float s[TILE];
  int t = threadIdx.x;
  float *seg = data + blockIdx.x * TILE;

  s[t] = seg[t];
  s[t + HALF] = seg[t + HALF];
  __syncthreads();

  if (mode == MIRROR) {
    seg[t] = s[TILE - 1 - t];
    seg[t + HALF] = s[HALF - 1 - t];
  }
}
