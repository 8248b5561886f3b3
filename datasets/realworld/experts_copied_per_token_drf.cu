// expect: drf
// Mixture-of-experts scatter: each block is one token; every thread copies
// the token's expert choices into its own array, and a block whose token
// chose no expert leaves before the barrier. Every thread fills the array
// alike from memory no thread writes, so the early return is the block's.
namespace routing {
constexpr int unassigned = -1;
}

template <int TOP_K>
__global__ void scatter_tokens(float *out, int *slots, const int *choices,
                               const int *counts, int n_experts) {
  __shared__ int offsets[256];
  int chosen[TOP_K];
  for (int k = 0; k < TOP_K; k++)
    chosen[k] = choices[blockIdx.x * TOP_K + k];

  bool none = true;
  for (int k = 0; k < TOP_K; k++) {
    if (chosen[k] != routing::unassigned)
      none = false;
    else
      slots[blockIdx.x * TOP_K + k] = routing::unassigned;
  }
  if (none)
    return;

  offsets[threadIdx.x] = threadIdx.x < n_experts ? counts[threadIdx.x] : 0;
  __syncthreads();
  int sum = 0;
  for (int e = 0; e < TOP_K; e++)
    sum += chosen[e] > 0 ? offsets[chosen[e] - 1] : 0;
  out[blockIdx.x * 256 + threadIdx.x] = sum;
}

void route(float *out, int *slots, const int *choices, const int *counts,
           int n_tokens, int n_experts) {
  scatter_tokens<2><<<n_tokens, 256>>>(out, slots, choices, counts, n_experts);
}
