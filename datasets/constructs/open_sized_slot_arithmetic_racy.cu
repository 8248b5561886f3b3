// expect: racy
// open_sized_slot_arithmetic_drf.cu writing through the routed row
// instead: two tokens routed to one slot write the same elements.
struct half_pair {
  unsigned short a, b;
};
__device__ half_pair operator+(half_pair x, half_pair y) { return x; }

template <typename T, int K>
__global__ void first_routed_row(T *out, const T *in, const int *slots, int n) {
  int slot[K];
  for (int k = 0; k < K; k++)
    slot[k] = slots[blockIdx.x * K + k];
  T *row = out + slot[0] * n + threadIdx.x;
  if (threadIdx.x < n)
    row[0] = in[blockIdx.x * n + threadIdx.x];
}

template <typename T> void run(T *out, const T *in, const int *slots, int tokens, int n) {
  first_routed_row<T, 2><<<tokens, 256>>>(out, in, slots, n);
}
