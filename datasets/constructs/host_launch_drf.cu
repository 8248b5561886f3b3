// expect: drf
// options: --block-dim 256 --grid-dim 4
#include <stdio.h>
#include <cuda_runtime.h>
// A complete program: host code allocates, launches with <<<...>>> and
// copies back. Only the kernel is analysed; the host code must parse.

#define N 1024

__global__ void iota(int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    a[i] = i;
}

int main(void) {
  int *d = 0;
  int h[N];
  cudaMalloc((void **)&d, N * sizeof(int));
  iota<<<N / 256, 256>>>(d);
  cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  printf("a[%d] = %d\n", N - 1, h[N - 1]);
  return 0;
}
