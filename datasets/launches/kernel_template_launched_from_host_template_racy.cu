// expect: racy
// kernel_template_launched_from_host_template_drf.cu run with 16-bit
// elements: the 32-bit counter at `g[2]` then covers `g[3]`, which thread
// 0 writes while other threads count.
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
  short *b;
  cudaMalloc(&b, 4 * sizeof(short));
  run<short>(b, 1 << 10);
  return 0;
}
