// expect: drf
// A radix-2 FFT in shared memory, as benchmark suites written for older
// compilers have it: the complex operators on `float2` carry no
// `__device__`, and clang refuses them in device code as host-only. The
// operators are analysed as `__host__ __device__`; `main` stays host code,
// so its launch (256 threads for 512 points) is read, and it is what keeps
// the second half's cells apart from the first's.
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
  fft_in_shared<<<64, N / R>>>(data);
  cudaFree(data);
  return 0;
}
