// expect: drf
// A ghost-zone stencil as Rodinia's hotspot writes it: each block loads a
// 16x16 tile that overlaps its neighbours by `steps` cells on each side,
// runs `steps` relaxation steps in shared memory and writes only the
// inner cells, whose neighbourhood stayed inside the tile. Tiles start
// `16 - 2 * steps` cells apart, a stride computed from a parameter; the
// tile's part inside the grid is clipped by conditional expressions, and
// the written cells of a row are `cols` apart. Disjoint once products are
// taken as whole terms and whole strides separate the tiles and the rows.
#define TILE 16
__global__ void relax_tiles(const float *in, float *out, int rows, int cols,
                            int steps) {
  __shared__ float cur[TILE][TILE];
  __shared__ float nxt[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int inner = TILE - 2 * steps;
  int x0 = inner * blockIdx.x - steps, y0 = inner * blockIdx.y - steps;
  // The tile's rows and columns inside the grid.
  int first_col = x0 < 0 ? -x0 : 0;
  int last_col = x0 + TILE - 1 > cols - 1 ? cols - 1 - x0 : TILE - 1;
  int first_row = y0 < 0 ? -y0 : 0;
  int last_row = y0 + TILE - 1 > rows - 1 ? rows - 1 - y0 : TILE - 1;
  bool inside = tx >= first_col && tx <= last_col && ty >= first_row &&
                ty <= last_row;
  int cell = cols * (y0 + ty) + x0 + tx;
  cur[ty][tx] = inside ? in[cell] : 0.0f;
  __syncthreads();
  for (int s = 0; s < steps; s++) {
    bool interior = tx > 0 && tx < TILE - 1 && ty > 0 && ty < TILE - 1;
    if (interior)
      nxt[ty][tx] = 0.25f * (cur[ty - 1][tx] + cur[ty + 1][tx] +
                             cur[ty][tx - 1] + cur[ty][tx + 1]);
    __syncthreads();
    if (interior)
      cur[ty][tx] = nxt[ty][tx];
    __syncthreads();
  }
  if (inside && tx >= steps && tx < TILE - steps && ty >= steps &&
      ty < TILE - steps)
    out[cell] = cur[ty][tx];
}

void relax(const float *in, float *out, int rows, int cols, int steps,
           dim3 grid) {
  relax_tiles<<<grid, dim3(TILE, TILE)>>>(in, out, rows, cols, steps);
}
