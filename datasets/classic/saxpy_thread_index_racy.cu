// expect: racy
// options: --block-dim 256 --grid-dim 64
// Mutant of saxpy_drf.cu indexing with threadIdx.x alone: thread t of every
// block updates y[t], so threads of different blocks race on global memory
// (barriers would not help: they order one block only).

__global__ void saxpy_thread_index(int n, float a, const float *x, float *y) {
  int i = threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
