// expect: drf
// options: --block-dim 64
// A parameter's type bounds it: an enum takes one of its enumerators, a bool
// is 0 or 1, an unsigned char at most 255. The branches writing one cell
// with each thread's id are dead code for every value a caller can pass.
enum Layout { ROW_MAJOR = 0, COL_MAJOR = 1 };

__global__ void store_tile(float *out, Layout layout, bool transpose, unsigned char pad) {
  __shared__ int tile[64 + 256];
  int t = threadIdx.x;
  tile[t + pad] = t;
  if (layout > COL_MAJOR)
    tile[0] = t;
  if (transpose > 1)
    tile[1] = t;
  if (pad > 255)
    tile[2] = t;
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[(layout == ROW_MAJOR ? t : 63 - t) + pad];
}
