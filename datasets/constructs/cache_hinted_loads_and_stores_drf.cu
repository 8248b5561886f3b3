// expect: drf
// Streaming loads and stores with cache hints (`__ldcs`, `__stcs`, from
// `sm_32_intrinsics.h`): each thread reads and writes its own element.
__global__ void scale_streaming(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcs(out + i, 2.0f * __ldcs(in + i));
}
