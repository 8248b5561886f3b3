// expect: drf
// Latency benchmarks start their clocks at a barrier written in PTX,
// `bar.sync 0`, which is `__syncthreads()`: the block's writes to the
// tile before it are ordered before the neighbour's reads after it.
__global__ void shift_through_tile(const float *in, float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  unsigned start;
  asm volatile("bar.sync 0;\n"
               "mov.u32 %0, %%clock;\n"
               : "=r"(start)
               :
               : "memory");
  out[blockIdx.x * 256 + threadIdx.x] = tile[(threadIdx.x + 1) % 256] + start;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * 256 * sizeof(float));
  cudaMalloc(&out, 1024 * 256 * sizeof(float));
  shift_through_tile<<<1024, 256>>>(in, out);
  return 0;
}
