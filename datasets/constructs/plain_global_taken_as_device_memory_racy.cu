// expect: racy
// options: --block-dim 128 --grid-dim 16
// tally of its drf twin counting by the thread's place in its block:
// thread t of every block adds into cell t of the plain global array.
unsigned counts[2048];

__global__ void tally(const int *keys, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    counts[threadIdx.x] += keys[i] > 0;
  }
}
