// expect: racy
// gathered_rows_by_pointer_table_drf.cu scattering instead: each token
// adds into the experts' rows through its array of pointers. Two tokens
// routed to the same expert slot write the same elements.
template <int TopK>
__global__ void scatter_rows(float *expert_in, const float *in, const int *slots, int n) {
  float *bases[TopK];
#pragma unroll
  for (int k = 0; k < TopK; k++)
    bases[k] = expert_in + slots[blockIdx.x * TopK + k] * n;
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
#pragma unroll
    for (int k = 0; k < TopK; k++)
      bases[k][c] = in[blockIdx.x * n + c];
  }
}

void run(float *expert_in, const float *in, const int *slots, int tokens, int n) {
  scatter_rows<2><<<tokens, 256>>>(expert_in, in, slots, n);
}
