// expect: drf
// Work-efficient exclusive scan of 1024 elements by 512 threads (up-sweep,
// clear, down-sweep), indexes offset * (2 * tid + 1) - 1 with a doubling
// offset.
#define SCAN_N 1024
__global__ void prescan(float *out, const float *in) {
  __shared__ float temp[SCAN_N];
  int tid = threadIdx.x;
  int offset = 1;
  temp[2 * tid] = in[2 * tid];
  temp[2 * tid + 1] = in[2 * tid + 1];
  for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0)
    temp[SCAN_N - 1] = 0;
  for (int d = 1; d < SCAN_N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  out[2 * tid] = temp[2 * tid];
  out[2 * tid + 1] = temp[2 * tid + 1];
}

void scan_block(float *out, const float *in) {
  prescan<<<1, SCAN_N / 2>>>(out, in);
}
