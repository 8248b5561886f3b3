// expect: drf
// Each block stages its values in its own row of `partial`, `stride` cells
// apart. That is safe only when the row holds a whole block: the program
// launches 256 threads and passes 256, a constant, as the stride.
#define THREADS 256

__global__ void stage(const float *in, float *partial, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] * 2.0f : 0.0f;
  partial[blockIdx.x * stride + threadIdx.x] = v;
}

int main() {
  const int n = 1 << 20;
  const float *in = nullptr;
  float *partial = nullptr;
  stage<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, partial, n, THREADS);
  return 0;
}
