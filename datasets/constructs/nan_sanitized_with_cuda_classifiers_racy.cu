// expect: racy
// nan_sanitized_with_cuda_classifiers_drf.cu writing each sanitised score
// one cell to the right: a thread's write meets its neighbour's read.
#include <math.h>
#include <cfloat>
__global__ void sanitize_scores(float *scores, const double *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 >= n)
    return;
  float v = scores[i];
  if (__isnanf(v) || __isnan(bias[i]))
    v = -FLT_MAX;
  else if (__isinff(v) || !__finitef(v))
    v = v > 0.0f ? FLT_MAX : -FLT_MAX;
  scores[i + 1] = v;
}
