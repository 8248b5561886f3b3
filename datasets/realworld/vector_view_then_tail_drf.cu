// expect: drf
// vector_view_then_tail_racy.cu with the tail after the 2n floats the
// pairs cover.
__global__ void pairs_then_tail(float *a, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    ((float2 *)a)[t] = make_float2(0.0f, 0.0f);
  if (t < n)
    a[2 * n + t] = 1.0f;
}
