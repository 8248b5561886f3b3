// expect: racy
// A block stages `float4` rows in shared memory, then reuses the same
// buffer as plain floats for its per-thread results, as matching and
// sorting kernels do to save shared memory. The second barrier is
// missing: a thread's float overwrites part of a `float4` row another
// thread may still be reading.
#define W 16

__global__ void best_scores(const float4 *points, float *score, int *index) {
  __shared__ float4 rows[W * W];
  rows[threadIdx.y * W + threadIdx.x] = points[blockIdx.x * W * W + threadIdx.y * W + threadIdx.x];
  __syncthreads();
  float4 v = rows[threadIdx.x * W + threadIdx.y];
  float best = v.x + v.y + v.z + v.w;
  float *scores = (float *)rows;
  int *indices = (int *)&scores[W * W];
  scores[threadIdx.y * W + threadIdx.x] = best;
  indices[threadIdx.y * W + threadIdx.x] = threadIdx.y;
  __syncthreads();
  if (threadIdx.y == 0) {
    float m = scores[threadIdx.x];
    int at = indices[threadIdx.x];
    for (int y = 1; y < W; y++)
      if (scores[y * W + threadIdx.x] > m) {
        m = scores[y * W + threadIdx.x];
        at = indices[y * W + threadIdx.x];
      }
    score[blockIdx.x * W + threadIdx.x] = m;
    index[blockIdx.x * W + threadIdx.x] = at;
  }
}

int main() {
  float4 *points;
  float *score;
  int *index;
  best_scores<<<64, dim3(W, W)>>>(points, score, index);
  return 0;
}
