// expect: drf
// Motion-estimation style output: one sum per 4x4 sub-block of each
// macroblock, in the plane of one search position. The plane's offset is a
// product of runtime sizes (pos * mb_width * mb_height * 16) that both
// threads share, so it cancels out of the question whether two threads
// write one cell; what is left is the macroblock and sub-block digits.
__global__ void plane_sums(int *sums, int mb_width, int mb_height, int pos) {
  int blk = threadIdx.x >> 4;
  int sub = threadIdx.x & 15;
  int mb = blockIdx.x * 4 + blk;
  if (blk < 4 && mb < mb_width * mb_height) {
    sums[pos * mb_width * mb_height * 16 + mb * 16 + sub] = threadIdx.x;
  }
}
