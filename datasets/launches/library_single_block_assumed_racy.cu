// expect: racy
// A library kernel written for one block: it indexes its output by the
// thread's place in the block alone. Launched with two blocks or more,
// thread t of every block writes out[t]. It is launched nowhere here, so
// the race is possible, with the suggested `__requires(gridDim.x == 1)`.
__global__ void layer_bias(float *out, const float *bias, const float *in) {
  out[threadIdx.x] = in[threadIdx.x] + bias[threadIdx.x];
}
