// expect: racy
// assignment_through_a_returned_reference_drf.cu with two threads per bin:
// threads 2k and 2k + 1 both assign `slot(bins, k)`, through the
// reference the function returns.
__device__ float &slot(float *bins, int b) { return bins[b]; }

__global__ void spread(float *bins, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    slot(bins, i / 2) = 2.0f * in[i];
  }
}
