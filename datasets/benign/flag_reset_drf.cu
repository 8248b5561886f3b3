// expect: drf
// Every thread clears the same flag and the same counter: writes of one
// value to one cell, a benign race (drfscan --strict reports it).
__global__ void reset(int *flag, int *count, float *out, int n) {
  flag[0] = 0;
  count[0] = n;
  out[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}
