// expect: racy
// block_bitfields_chunks_drf.cu with three bits kept for the sub-block
// column (`bx & 7`) where the layout has room for two: a sub-block's chunk
// lands among the next macroblock's (with mb_width 3, blocks (7, 7) and
// (11, 4) both write chunk 83).
#define CHUNK 1096
#define USED 1089
#define PER_THREAD 18
__global__ void chunk_sums(unsigned short *out, int mb_width, int mb_height) {
  int mb_x = blockIdx.x >> 2, mb_y = blockIdx.y >> 2;
  int block_x = blockIdx.x & 7, block_y = blockIdx.y & 3;
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
