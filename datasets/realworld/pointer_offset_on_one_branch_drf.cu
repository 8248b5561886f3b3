// expect: drf
// The data pointer is the whole input on one side of a condition and a
// block's slice of it on the other (the pair-counting kernels of
// correlation functions); every write goes to the block's own row.
__global__ void pair_rows(float *hist, float *points, int sets, int n) {
  float *data;
  if (blockIdx.x > sets)
    data = points;
  else
    data = points + n * blockIdx.x;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    hist[blockIdx.x * n + i] = data[i] * data[0];
}
