// expect: racy
// The PTX barrier comes before the tile is written, so nothing orders a
// thread's write with its neighbour's read.
__global__ void shift_through_tile_early_clock(const float *in, float *out) {
  __shared__ float tile[256];
  unsigned start;
  asm volatile("bar.sync 0;\n"
               "mov.u32 %0, %%clock;\n"
               : "=r"(start)
               :
               : "memory");
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = tile[(threadIdx.x + 1) % 256] + start;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * 256 * sizeof(float));
  cudaMalloc(&out, 1024 * 256 * sizeof(float));
  shift_through_tile_early_clock<<<1024, 256>>>(in, out);
  return 0;
}
