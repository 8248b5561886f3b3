// expect: drf
// Concatenation: each thread copies from whichever input its position falls
// in, through one pointer chosen by a branch (`src = in1 + i` or `src = in2 +
// (i - n1)`). The read is one read per input, each under its condition.
__global__ void concat(const float *in1, const float *in2, float *out, int n1, int n2) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n1 + n2) return;
  const float *src;
  if (i < n1)
    src = in1 + i;
  else
    src = in2 + (i - n1);
  out[i] = *src;
}

// The same choice made with `?:`, writing back in place.
__global__ void scale_either(float *lo, float *hi, int n1, int n2, float s) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n1 + n2) return;
  float *p = i < n1 ? lo + i : hi + (i - n1);
  *p = *p * s;
}
