// expect: drf
// Older code's `register` variables (an error in C++17 that nvcc accepts)
// and a warp broadcast of a 64-bit value (`uint64_t` is `unsigned long`).
typedef unsigned long my_u64;
__global__ void broadcast_page(my_u64 *pages, float *out, int n) {
  register int i = blockIdx.x * blockDim.x + threadIdx.x;
  my_u64 page = pages[blockIdx.x];
  page = __shfl_sync(0xffffffff, page, 0);
  if (i < n)
    out[i] = (float)page;
}
