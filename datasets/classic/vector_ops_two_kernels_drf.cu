// expect: drf
// options: --block-dim 128 --grid-dim 16
// Two element-wise kernels in one file, both race-free (the label applies to
// each): a scaled copy and an in-place clamp.

__global__ void scaled_copy(float *dst, const float *src, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = s * src[i];
}

__global__ void clamp_in_place(float *v, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = fminf(fmaxf(v[i], lo), hi);
}
