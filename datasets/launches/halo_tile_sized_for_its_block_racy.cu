// expect: racy
// A smoothing kernel that keeps each thread's cell in a register across
// steps and stages it in a shared tile sized for blocks of 32 threads, with
// a halo of four cells on each side, never launched in the scanned code (a
// library kernel). In a block wider than 32, the threads past the tile's
// width store their smoothed cell where the first threads store the right
// halo's input: the race is possible, with `__requires(blockDim.x <= 32)`,
// the width the tile was sized for.
#define BDIM 32
#define HALO 4
__global__ void smooth_row(const float *u, float *out, int steps) {
  __shared__ float tile[BDIM + 2 * HALO];
  int i = blockIdx.x * blockDim.x + threadIdx.x + HALO;
  int s = threadIdx.x + HALO;
  float c = u[i];
  for (int k = 0; k < steps; k++) {
    if (threadIdx.x < HALO) {
      tile[threadIdx.x] = u[i - HALO];
      tile[s + BDIM] = u[i + BDIM];
    }
    tile[s] = c;
    __syncthreads();
    c = 0.25f * tile[s - 1] + 0.5f * tile[s] + 0.25f * tile[s + 1];
    __syncthreads();
  }
  out[i] = c;
}
