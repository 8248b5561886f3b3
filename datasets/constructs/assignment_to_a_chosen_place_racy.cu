// expect: racy
// assignment_to_a_chosen_place_drf.cu with the second half of the threads
// all storing into `hi[0]`, through the chosen place.
__global__ void split_halves(float *lo, float *hi, const float *in, int half) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= 2 * half) return;
  (x < half ? lo[x] : hi[0]) = in[x];
}
