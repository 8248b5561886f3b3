// expect: drf
// A kernel template called with a function object that holds only a
// value (a scale): its call can reach no memory but what it is given, so
// the kernel's own accesses decide, and each thread updates its element.
template <typename F> __global__ void map(float *a, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = f(a[i]);
}

struct Scale {
  float s;
  __device__ float operator()(float x) const { return s * x; }
};

void run(float *a, int n) { map<<<(n + 63) / 64, 64>>>(a, n, Scale{2.0f}); }
