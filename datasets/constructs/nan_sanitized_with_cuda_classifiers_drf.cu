// expect: drf
// Scores sanitised with CUDA's own classification functions (`__isnanf`,
// `__isinff`, `__finitef`, `__isnan`), which the toolkit declares for
// device code and the host's <math.h> declares for host code, before each
// thread writes its own cell.
#include <math.h>
#include <cfloat>
__global__ void sanitize_scores(float *scores, const double *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = scores[i];
  if (__isnanf(v) || __isnan(bias[i]))
    v = -FLT_MAX;
  else if (__isinff(v) || !__finitef(v))
    v = v > 0.0f ? FLT_MAX : -FLT_MAX;
  scores[i] = v;
}
