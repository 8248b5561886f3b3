// expect: drf
// A double-buffered tile loop: each trip reads the stage loaded by the
// trip before, fills the other stage for the next trip, waits at one
// barrier and flips the stage with `stage ^= 1`. The stage is the same
// for the whole block in each trip and alternates, so the stage read and
// the stage written between two barriers are never the same buffer.
__global__ void stream_tiles(const float *in, float *out, int tiles) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  buf[0][t] = in[t];
  __syncthreads();
  float acc = 0.0f;
  int stage = 1;
  for (int tile = 1; tile < tiles; ++tile) {
    acc += buf[stage ^ 1][(t + 1) % 128];
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
  stream_tiles<<<1, 128>>>(in, out, 64);
  return 0;
}
