// expect: drf
// options: --block-dim 256
// A table-driven hash round, as cryptocurrency miners write them: the
// block copies a 1 KiB substitution table into shared memory, waits, and
// then every thread mixes a state derived from its id through
// byte-indexed lookups. After the barrier the table is only read, so no
// two accesses conflict, however the indexes are computed.
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
  ROUND(a, b) ROUND(b, a) ROUND(a, b) ROUND(b, a)
  ROUND(a, b) ROUND(b, a) ROUND(a, b) ROUND(b, a)
  state[2 * id] = a ^ acc;
  state[2 * id + 1] = b;
}
