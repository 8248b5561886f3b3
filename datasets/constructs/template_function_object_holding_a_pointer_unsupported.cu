// expect: unsupported
// A kernel template called with a function object that holds a pointer
// and writes through it: every thread's call stores its id in the same
// cell. drfscan does not look into the call of an object of the template's
// type parameter, so one that may hold memory makes the kernel
// unsupported rather than race-free (it was reported drf, missing the race).
template <typename F> __global__ void for_each(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

struct Record {
  int *last;
  __device__ void operator()(int i) const { last[0] = i; }
};

void run(int *last, int n) { for_each<<<(n + 127) / 128, 128>>>(n, Record{last}); }
