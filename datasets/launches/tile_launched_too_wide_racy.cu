// expect: racy
// The same tile kernel, launched with 32 x 16 threads by mistake: threads
// x and x + 16 of one row write the same cell of the tile.
#define TILE 16

__global__ void tile_sum(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y % TILE][threadIdx.x % TILE] = in[y * n + x];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < TILE; k++)
    s += tile[threadIdx.y][k];
  out[(blockIdx.y * gridDim.x + blockIdx.x) * TILE * TILE + threadIdx.y * TILE + threadIdx.x] = s;
}

void run(const float *in, float *out, int n) {
  dim3 block(2 * TILE, TILE);
  dim3 grid(n / TILE, n / TILE);
  tile_sum<<<grid, block>>>(in, out, n);
}
