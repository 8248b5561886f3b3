// expect: racy
// packed_lane_index_drf.cu launched with 48 threads per block: lane 32 of
// block 0 sets bit 5, which is block 1's, so both write cell 32.
__global__ void scatter_lanes(float *out, const float *in, int blocks) {
  if (blockIdx.x >= blocks) {
    return;
  }
  const unsigned cell = (blockIdx.x << 5) | threadIdx.x;
  out[cell] = in[cell] * 2.0f;
}

void scatter(float *out, const float *in, int blocks) {
  scatter_lanes<<<blocks, 48>>>(out, in, blocks);
}
