// expect: divergent
// sweeps_until_a_published_stop_or_a_limit_drf.cu with each thread
// deciding from its own cell's change: threads whose cell settled leave
// the loop while the others wait at its barriers.
#define ROW 256
__global__ void sweep_rows(float *grid, float tolerance, int max_sweeps) {
  __shared__ float cells[ROW];
  __shared__ float change[ROW];
  int t = threadIdx.x;
  float *row = grid + blockIdx.x * ROW;
  cells[t] = row[t];
  change[t] = tolerance;
  __syncthreads();
  for (int sweep = 0; sweep < max_sweeps; sweep++) {
    bool done = change[t] < tolerance;
    __syncthreads();
    if (done)
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
