// expect: racy
// index_split_and_rebuilt_drf.cu with the column left out of the rebuilt
// address: every element of a row is stored to the row's first cell.
#include <stdlib.h>

__global__ void sequence_mask(int N, int M, int B, const float *in,
                              const int *lengths, float fill, float *out) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < B * N * M;
       index += blockDim.x * gridDim.x) {
    int k = index % M;
    int j = (index - k) / M % N;
    int i = (index - M * j - k) / (N * M);
    int at = N * M * i + M * j;
    out[at] = k >= lengths[j] ? fill : in[index];
  }
}

int main(int argc, char **argv) {
  int B = atoi(argv[1]), N = atoi(argv[2]), M = atoi(argv[3]);
  float *in, *out;
  int *lengths;
  cudaMalloc(&in, B * N * M * sizeof(float));
  cudaMalloc(&out, B * N * M * sizeof(float));
  cudaMalloc(&lengths, N * sizeof(int));
  sequence_mask<<<64, 256>>>(N, M, B, in, lengths, -1.0f, out);
  cudaDeviceSynchronize();
  return 0;
}
