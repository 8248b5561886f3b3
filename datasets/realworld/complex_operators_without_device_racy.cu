// expect: racy
// complex_operators_without_device_drf.cu launched with 32 threads more
// than half the points: thread 256 loads the point thread 0 loads as its
// second, and both store it back.
#define N 512
#define R 2

inline float2 operator*(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
inline float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
inline float2 operator-(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }

__device__ void butterfly(float2 &a, float2 &b) {
  float2 t = a;
  a = t + b;
  b = t - b;
}

__global__ void fft_in_shared(float2 *data) {
  __shared__ float2 s[N];
  float2 *d = data + blockIdx.x * N;
  int t = threadIdx.x;
  float2 v0 = d[t], v1 = d[t + N / 2];
  for (int Ns = 1; Ns < N; Ns *= R) {
    float angle = -2.0f * 3.14159265f * (t % Ns) / (Ns * R);
    v1 = v1 * make_float2(cosf(angle), sinf(angle));
    butterfly(v0, v1);
    int at = (t / Ns) * Ns * R + (t % Ns);
    __syncthreads();
    s[at] = v0;
    s[at + Ns] = v1;
    __syncthreads();
    v0 = s[t];
    v1 = s[t + N / 2];
  }
  d[t] = v0;
  d[t + N / 2] = v1;
}

int main() {
  float2 *data = 0;
  cudaMalloc((void **)&data, 64 * N * sizeof(float2));
  fft_in_shared<<<64, N / R + 32>>>(data);
  cudaFree(data);
  return 0;
}
