// expect: racy
// options: --block-dim 64
// typed_parameter_domains_drf.cu with an int where the enum was: any int
// may be passed, and above 1 every thread writes tile[0] with its own id.
__global__ void store_tile(float *out, int layout, bool transpose, unsigned char pad) {
  __shared__ int tile[64 + 256];
  int t = threadIdx.x;
  tile[t + pad] = t;
  if (layout > 1)
    tile[0] = t;
  if (transpose > 1)
    tile[1] = t;
  if (pad > 255)
    tile[2] = t;
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[(layout == 0 ? t : 63 - t) + pad];
}
