// expect: drf
// A kernel in the style of the CUDA SDK 2.x samples: it includes the old
// SDK's `cutil.h`, which no toolkit ships any more (drfscan's fallback
// stands in for it), and reaches shared memory through
// `CUT_BANK_CHECKER`, `a[i]` in a release build. Each thread stages its
// own word, and reads its neighbour's after the barrier.
#include <cutil.h>

#define BSIZE 256
#define STAGE(i) CUT_BANK_CHECKER(stage, i)

__global__ void rotate_words(unsigned *out, const unsigned *in) {
  __shared__ unsigned stage[BSIZE];
  unsigned tx = threadIdx.x;
  STAGE(tx) = in[blockIdx.x * BSIZE + tx];
  __syncthreads();
  out[blockIdx.x * BSIZE + tx] = STAGE((tx + 1) % BSIZE);
}

void run(unsigned *out, const unsigned *in, int blocks) {
  rotate_words<<<blocks, BSIZE>>>(out, in);
  CUT_CHECK_ERROR("rotate_words failed");
}
