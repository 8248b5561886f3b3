// expect: drf
// A library kernel (never launched in the scanned code) that stages one
// value per thread in a shared buffer sized for the largest block a GPU
// runs, 1024 threads, and keeps each warp's partial sum in the 32 cells
// after it. A block of more than 1024 threads would write its last
// threads' values over the warp sums, but no GPU launches one: drf.
__global__ void scale_by_warp_sums(float *x, int n) {
  __shared__ float buf[1024 + 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  buf[threadIdx.x] = v;
  float s = v;
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffff, s, o);
  if (threadIdx.x % 32 == 0)
    buf[1024 + threadIdx.x / 32] = s;
  __syncthreads();
  if (i < n)
    x[i] = buf[threadIdx.x] / buf[1024 + threadIdx.x / 32];
}
