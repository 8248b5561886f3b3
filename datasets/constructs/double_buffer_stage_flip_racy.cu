// expect: racy
// The same loop reading its neighbour's cell of the stage it is filling
// in this trip: between two barriers one thread writes the cell another
// reads.
__global__ void stream_tiles_same_stage(const float *in, float *out, int tiles) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  buf[0][t] = in[t];
  __syncthreads();
  float acc = 0.0f;
  int stage = 1;
  for (int tile = 1; tile < tiles; ++tile) {
    acc += buf[stage][(t + 1) % 128];
    buf[stage][t] = in[tile * 128 + t];
    __syncthreads();
    stage ^= 1;
  }
  out[blockIdx.x * 128 + t] = acc;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  stream_tiles_same_stage<<<1, 128>>>(in, out, 64);
  return 0;
}
