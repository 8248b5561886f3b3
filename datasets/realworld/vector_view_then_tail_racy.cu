// expect: racy
// Pairs written through a float2 view, then a scalar tail that starts at
// n floats instead of 2n: the tail overlaps the second half of the pairs.
// Through the cast, index t counts float2 elements, two floats each.
__global__ void pairs_then_tail(float *a, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    ((float2 *)a)[t] = make_float2(0.0f, 0.0f);
  if (t < n)
    a[n + t] = 1.0f;
}
