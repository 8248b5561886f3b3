// expect: racy
// As `constant_argument_drf.cu`, but the program passes half a block as the
// stride: thread 128 of block 0 and thread 0 of block 1 write one cell.
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
  stage<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, partial, n, THREADS / 2);
  return 0;
}
