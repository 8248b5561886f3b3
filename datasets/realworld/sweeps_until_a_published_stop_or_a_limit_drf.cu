// expect: drf
// sweeps_until_a_published_stop_drf.cu with a limit on the sweeps: a
// counted loop the block leaves early once thread 0 publishes that the
// changes are small. Its last trip is not the one a block breaks at, so it
// is analysed as a loop of unknown trip count whose test holds at every
// trip: a thread that breaks out meets none of its later barriers, and the
// decision is read in an interval of its own.
#define ROW 256
__global__ void sweep_rows(float *grid, float tolerance, int max_sweeps) {
  __shared__ float cells[ROW];
  __shared__ float change[ROW];
  __shared__ int stop;
  int t = threadIdx.x;
  float *row = grid + blockIdx.x * ROW;
  cells[t] = row[t];
  change[t] = tolerance;
  __syncthreads();
  for (int sweep = 0; sweep < max_sweeps; sweep++) {
    if (t == 0) {
      float worst = 0.0f;
      for (int i = 0; i < ROW; i++)
        worst = fmaxf(worst, change[i]);
      stop = worst < tolerance;
    }
    __syncthreads();
    if (stop)
      break;
    float left = t > 0 ? cells[t - 1] : cells[t];
    float right = t < ROW - 1 ? cells[t + 1] : cells[t];
    float next = 0.5f * (left + right);
    __syncthreads();
    change[t] = fabsf(next - cells[t]);
    cells[t] = next;
    __syncthreads();
  }
  row[t] = cells[t];
}

void sweep(float *grid, int rows, float tolerance) {
  sweep_rows<<<rows, ROW>>>(grid, tolerance, 1000);
}
