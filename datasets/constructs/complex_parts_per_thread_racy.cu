// expect: racy
// As `complex_parts_per_thread_drf.cu`, but each thread reads the float
// after its own, which the next thread writes: the read of the imaginary
// part by thread 2k races with its write by thread 2k+1.
__global__ void shift_parts(float2 *z, int n) {
  float *parts = (float *)z;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < 2 * n)
    parts[i] = parts[i + 1];
}

void shift(float2 *z, int n) {
  shift_parts<<<(2 * n + 255) / 256, 256>>>(z, n);
}
