// expect: racy
// Host code in the style of ports from OpenCL, which keeps the work-group
// size in a local array set one element at a time and builds the block
// from its elements. The block is twice as wide as the tile's BX columns,
// so thread BX + 1 of one row writes the left halo cell of the next row,
// which the row's first thread writes too.
#define BX 16
#define BY 4

__global__ void smooth_rows(const int *in, int *out, int w, int h) {
  __shared__ int tile[BY][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  bool inside = x < w && y < h;
  tile[threadIdx.y][threadIdx.x + 1] = inside ? in[y * w + x] : 0;
  if (threadIdx.x == 0)
    tile[threadIdx.y][0] = (inside && x > 0) ? in[y * w + x - 1] : 0;
  if (threadIdx.x == BX - 1)
    tile[threadIdx.y][BX + 1] = (x + 1 < w && y < h) ? in[y * w + x + 1] : 0;
  __syncthreads();
  if (inside)
    out[y * w + x] = tile[threadIdx.y][threadIdx.x] + tile[threadIdx.y][threadIdx.x + 1] +
                     tile[threadIdx.y][threadIdx.x + 2];
}

void run(const int *in, int *out, int w, int h) {
  size_t local[2];
  size_t global[2];
  local[0] = 2 * BX;
  local[1] = BY;
  global[0] = (w + BX - 1) / BX * BX;
  global[1] = (h + BY - 1) / BY * BY;
  dim3 block(local[0], local[1]);
  dim3 grid(global[0] / local[0], global[1] / local[1]);
  smooth_rows<<<grid, block>>>(in, out, w, h);
}
