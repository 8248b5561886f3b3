// expect: drf
// An iterative block solver that sweeps until its largest change is below
// a tolerance: at the top of each trip thread 0 decides from the last
// sweep's changes whether to stop and publishes the decision in shared
// memory; after a barrier every thread reads it and the block leaves its
// `while (1)` loop together. A block that breaks out meets none of the
// loop's later barriers, so the decision is read in an interval of its
// own: one value for the block, and the barriers after it are reached by
// all of its threads or by none.
#define ROW 256
__global__ void sweep_rows(float *grid, float tolerance) {
  __shared__ float cells[ROW];
  __shared__ float change[ROW];
  __shared__ int stop;
  int t = threadIdx.x;
  float *row = grid + blockIdx.x * ROW;
  cells[t] = row[t];
  change[t] = tolerance;
  __syncthreads();
  while (1) {
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
  sweep_rows<<<rows, ROW>>>(grid, tolerance);
}
