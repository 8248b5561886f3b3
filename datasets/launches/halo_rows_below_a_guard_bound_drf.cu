// expect: drf
// halo_rows_below_a_guard_bound_racy.cu with the condition its report
// suggests written as a `__requires`: every computed column is within its
// row.

__global__ void jacobi_halo(const float *old_grid, float *new_grid, int last, int stride)
{
  __requires(last <= stride);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int at = (y + 1) * (stride + 2) + x + 1;
  if (x > last)
    return;
  new_grid[at] = 0.25f * (old_grid[at - 1] + old_grid[at + 1] +
                          old_grid[at - stride - 2] + old_grid[at + stride + 2]);
}

#include <cstdlib>

int main(int argc, char **argv)
{
  float *a, *b;
  int n = argc > 1 ? atoi(argv[1]) : 512;
  cudaMalloc(&a, sizeof(float) * (n + 2) * (n + 2));
  cudaMalloc(&b, sizeof(float) * (n + 2) * (n + 2));
  dim3 block(16, 16);
  dim3 grid(n / 16, n / 16);
  jacobi_halo<<<grid, block>>>(a, b, n - 1, atoi(argv[2]));
  cudaDeviceSynchronize();
  return 0;
}
