// expect: drf
// Block ids taken apart with shifts and masks: a macroblock (bx >> 2,
// by >> 2) and its 4x4 sub-block (bx & 3, by & 3) own one chunk of
// CHUNK cells after a header that depends on runtime sizes only. Each
// thread of the block fills positions base..min(base + PER_THREAD, USED)
// of the chunk, then the first warp copies the chunk in steps of 32.
#define CHUNK 1096
#define USED 1089
#define PER_THREAD 18
__global__ void chunk_sums(unsigned short *out, int mb_width, int mb_height) {
  int mb_x = blockIdx.x >> 2, mb_y = blockIdx.y >> 2;
  int block_x = blockIdx.x & 3, block_y = blockIdx.y & 3;
  if (mb_x < mb_width && mb_y < mb_height && threadIdx.x < 61) {
    unsigned short *chunk = out + (mb_width * mb_height * 25 +
                                   (mb_y * mb_width + mb_x) * 16 +
                                   4 * block_y + block_x) * CHUNK;
    int base = threadIdx.x * PER_THREAD;
    int end = base + PER_THREAD;
    if (end > USED)
      end = USED;
    for (int p = base; p < end; p++)
      chunk[p] = blockIdx.x;
  }
}
