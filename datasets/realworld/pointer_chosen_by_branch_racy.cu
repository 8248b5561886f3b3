// expect: racy
// pointer_chosen_by_branch_drf.cu folding the second part onto four cells
// (`hi + (i - n1) % 4`): threads n1 and n1 + 4 update the same cell of `hi`.
__global__ void scale_either(float *lo, float *hi, int n1, int n2, float s) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n1 + n2) return;
  float *p = i < n1 ? lo + i : hi + (i - n1) % 4;
  *p = *p * s;
}
