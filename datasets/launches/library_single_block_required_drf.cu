// expect: drf
// `library_single_block_assumed_racy.cu` with the one-block grid it is
// written for required.
__global__ void layer_bias(float *out, const float *bias, const float *in) {
  __requires(gridDim.x == 1);
  out[threadIdx.x] = in[threadIdx.x] + bias[threadIdx.x];
}
