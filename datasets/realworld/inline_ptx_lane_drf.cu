// expect: drf
// Inline PTX that only reads registers: each thread stores the lane it
// reads from %laneid into its own cell of the grid-wide sequence, and a
// conversion written in assembly feeds a second store to the same cell.
__device__ unsigned lane_of_thread() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ unsigned short to_half_bits(float x) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  return h;
}

__global__ void lane_sequence(int *seq, unsigned short *halves, int length) {
  int elem = blockIdx.x * blockDim.x + threadIdx.x;
  if (elem < length) {
    seq[elem] = lane_of_thread();
    halves[elem] = to_half_bits((float)seq[elem]);
  }
}

int main() {
  int *seq;
  unsigned short *halves;
  const int n = 1 << 16;
  cudaMalloc(&seq, n * sizeof(int));
  cudaMalloc(&halves, n * sizeof(unsigned short));
  lane_sequence<<<n / 256, 256>>>(seq, halves, n);
  cudaDeviceSynchronize();
  return 0;
}
