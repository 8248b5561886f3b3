// expect: drf
// A mixture-of-experts gather: each token's block first fills a small
// array of pointers of its own, one per expert the token was routed to
// (`bases[k] = expert_out + slot[k] * n + lane`), then reads through
// them to sum the experts' rows into the token's row. Reads through a
// thread's own array of pointers go into the array its stores point
// into (they were accesses through a pointer of unknown origin).
template <int TopK>
__global__ void gather_rows(float *out, const float *expert_out, const int *slots,
                            const float *scores, int n) {
  const float *bases[TopK];
#pragma unroll
  for (int k = 0; k < TopK; k++)
    bases[k] = expert_out + slots[blockIdx.x * TopK + k] * n;
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
    float sum = 0.f;
#pragma unroll
    for (int k = 0; k < TopK; k++)
      sum += scores[blockIdx.x * TopK + k] * bases[k][c];
    out[blockIdx.x * n + c] = sum;
  }
}

void run(float *out, const float *expert_out, const int *slots, const float *scores, int tokens,
         int n) {
  gather_rows<2><<<tokens, 256>>>(out, expert_out, slots, scores, n);
}
