// expect: racy
// sdk_cutil_bank_checker_drf.cu without the barrier: a thread reads its
// neighbour's word through `CUT_BANK_CHECKER` while the neighbour may
// still be writing it.
#include <cutil.h>

#define BSIZE 256
#define STAGE(i) CUT_BANK_CHECKER(stage, i)

__global__ void rotate_words(unsigned *out, const unsigned *in) {
  __shared__ unsigned stage[BSIZE];
  unsigned tx = threadIdx.x;
  STAGE(tx) = in[blockIdx.x * BSIZE + tx];
  out[blockIdx.x * BSIZE + tx] = STAGE((tx + 1) % BSIZE);
}

void run(unsigned *out, const unsigned *in, int blocks) {
  rotate_words<<<blocks, BSIZE>>>(out, in);
  CUT_CHECK_ERROR("rotate_words failed");
}
