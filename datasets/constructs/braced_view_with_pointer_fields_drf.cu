// expect: drf
// A small view made with a braced list (`Counts c{counts + i, n}`) whose
// fields are a pointer and a stride; its `operator[]` returns a reference
// to the cell. Thread i owns column i of the counters.
struct Counts {
  int *base;
  int stride;
  __device__ int &operator[](int b) { return base[b * stride]; }
};

__global__ void tally(int *counts, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Counts c{counts + i, n};
  c[0] += 1;
  c[1] = keys[i];
}
