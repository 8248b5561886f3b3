// expect: racy
// options: --block-dim 256
// hash_rounds_over_a_shared_table_drf.cu with thread 0 folding its state
// back into the table before its rounds: the other threads' lookups after
// the barrier may read that cell as it is written.
__constant__ unsigned int sbox_src[1024];

#define ROUND(a, b)                                                        \
  acc ^= T[a >> 24] ^ T[256 + ((b >> 16) & 255)] ^ T[512 + ((a >> 8) & 255)] \
         ^ T[768 + (b & 255)];                                               \
  a = (a << 7 | a >> 25) ^ b;                                                \
  b = b * 2654435769u + a;

__global__ void hash_rounds(unsigned int *state, unsigned int seed, int n) {
  __shared__ unsigned int T[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) T[i] = sbox_src[i];
  __syncthreads();
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  unsigned int a = id * 2654435769u + seed, b = a ^ (seed >> 3), acc = 0;
  if (threadIdx.x == 0) T[0] ^= a;
  ROUND(a, b) ROUND(b, a) ROUND(a, b) ROUND(b, a)
  ROUND(a, b) ROUND(b, a) ROUND(a, b) ROUND(b, a)
  state[2 * id] = a ^ acc;
  state[2 * id + 1] = b;
}
