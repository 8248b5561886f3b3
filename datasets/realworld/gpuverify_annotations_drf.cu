// expect: drf
// GPUVerify's annotation language: a precondition with __implies and
// __is_pow2, loop invariants in the loop condition, access predicates.
__global__ void scale(float *a, int n) {
  __requires(n > 0 && __is_pow2(n));
  __requires(__implies(n > 1, n % 2 == 0));
  __requires(blockDim.x == 64 && gridDim.x == 1);
  for (int i = 0; __invariant(__write_implies(a, __write_offset_bytes(a) / sizeof(float) % 64 == threadIdx.x)), __invariant(i >= 0), i < n; i++) {
    a[i * 64 + threadIdx.x] *= 2;
  }
}
