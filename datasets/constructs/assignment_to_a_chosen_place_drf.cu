// expect: drf
// A store whose place is a choice (`(c ? lo[x] : hi[x - half]) = v`, and a
// compound one): the assignment writes the place the condition picks. The
// first half of the threads fill `lo`, the rest `hi`, each its own cell.
__global__ void split_halves(float *lo, float *hi, const float *in, int half) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= 2 * half) return;
  (x < half ? lo[x] : hi[x - half]) = in[x];
  (x < half ? lo[x] : hi[x - half]) *= 2.0f;
}
