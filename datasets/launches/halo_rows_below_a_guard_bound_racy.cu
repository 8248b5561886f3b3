// expect: racy
// One Jacobi sweep over the interior of a grid stored with a halo: rows of
// `stride + 2` cells, the computed column at `x + 1`. Threads past `last`
// return, so rows hold their columns only when `last <= stride`; the host
// reads the row length from its command line, so nothing states it: the
// race is possible, and the report suggests `__requires(last <= stride)`.

__global__ void jacobi_halo(const float *old_grid, float *new_grid, int last, int stride)
{
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
