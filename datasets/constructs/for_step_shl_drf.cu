// expect: drf
// options: --block-dim 128 --grid-dim 8
// A for loop stepping by <<= 1: each of the 1024 threads scatters the low 8
// bits of its key into bit planes, plane m at flags[m * 1024 ...].

#define THREADS 1024

__global__ void expand_bits(const int *keys, int *flags) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[g];
  for (int m = 1; m < 256; m <<= 1)
    flags[m * THREADS + g] = (key & m) != 0;
}
