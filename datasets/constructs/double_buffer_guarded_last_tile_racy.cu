// expect: racy
// The same loop reading its neighbour's cell of the stage it fills in
// this trip, before the barrier: between two barriers one thread writes
// the cell another reads.
__global__ void gemm_stages_same_stage(const float *A, float *C, int K) {
  __shared__ float As[2][64];
  int tx = threadIdx.x;
  As[0][tx] = A[tx];
  __syncthreads();
  float acc = 0.0f;
  int write_stage = 1;
  int tile = 0;
  do {
    tile += 8;
    float next = 0.0f;
    if (tile < K) next = A[tile * 64 + tx];
    int load_stage = write_stage ^ 1;
    acc += As[write_stage][(tx + 3) % 64];
    if (tile < K) {
      As[write_stage][tx] = next;
      __syncthreads();
      write_stage ^= 1;
    }
    acc += As[load_stage ^ 1][(tx + 5) % 64];
  } while (tile < K);
  C[blockIdx.x * 64 + tx] = acc;
}

int main() {
  float *a, *c;
  cudaMalloc(&a, 1024 * 64 * sizeof(float));
  cudaMalloc(&c, 64 * sizeof(float));
  gemm_stages_same_stage<<<1, 64>>>(a, c, 1024);
  return 0;
}
