// expect: drf
// The kernel's element type comes from the host template that launches it
// (`run<T>` launching `count_visits<T>`), instantiated by `main`: each
// instantiation is analysed with its type. With 32-bit elements the
// counter cell `g[2]` and the cell `g[3]` thread 0 writes do not overlap.
template <class T>
__global__ void count_visits(T *g, T seed) {
  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0)
    g[3] = seed;
  // A 32-bit counter over the cell g[2] (and whatever follows it when T
  // is narrower).
  atomicInc((unsigned int *)&g[2], 1u << 30);
}

template <class T>
void run(T *g, int n) {
  count_visits<T><<<(n + 255) / 256, 256>>>(g, (T)n);
}

int main() {
  int *a;
  unsigned int *b;
  cudaMalloc(&a, 4 * sizeof(int));
  cudaMalloc(&b, 4 * sizeof(unsigned int));
  run<int>(a, 1 << 20);
  run<unsigned int>(b, 1 << 20);
  return 0;
}
