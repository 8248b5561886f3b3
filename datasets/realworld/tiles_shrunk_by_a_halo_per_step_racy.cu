// expect: racy
// tiles_shrunk_by_a_halo_per_step_drf.cu writing one cell more on each
// side: a tile's last written column is its right neighbour's first.
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
  if (inside && tx >= steps - 1 && tx <= TILE - steps && ty >= steps &&
      ty < TILE - steps)
    out[cell] = cur[ty][tx];
}

void relax(const float *in, float *out, int rows, int cols, int steps,
           dim3 grid) {
  relax_tiles<<<grid, dim3(TILE, TILE)>>>(in, out, rows, cols, steps);
}
