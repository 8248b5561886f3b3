// expect: racy
// frame_plane_offset_drf.cu with the sub-block digit cut to 3 bits: sub
// and sub + 8 of one macroblock write one cell, different values.
__global__ void plane_sums(int *sums, int mb_width, int mb_height, int pos) {
  int blk = threadIdx.x >> 4;
  int sub = threadIdx.x & 15;
  int mb = blockIdx.x * 4 + blk;
  if (blk < 4 && mb < mb_width * mb_height) {
    sums[pos * mb_width * mb_height * 16 + mb * 16 + (sub & 7)] = threadIdx.x;
  }
}
