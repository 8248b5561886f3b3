// expect: drf
// Sums of search results, one frame of rows per kind of block shape, each
// frame as long as the grid has blocks (`w * h`, the launch's grid) and
// the frames one after the other. Block `by * w + bx` reads its 4 rows of
// the finest kind and writes 2 rows and 1 row of the coarser ones. The
// frames are apart because a block's row-major number is below the grid's
// count of blocks, a bound on a product of two sizes the host picks.
#include <cstdlib>

#define ROW 1096

__global__ void merge_rows(unsigned short *sums, int w, int h) {
  int frame = w * h * ROW;
  int block = (blockIdx.y * w + blockIdx.x) * ROW;
  unsigned short *fine = sums + ((frame + block) << 2) + frame;
  unsigned short *half = sums + ((frame + block) << 1) + frame;
  unsigned short *whole = sums + block;
  for (int p = threadIdx.x; p < (ROW - 6) / 2; p += 32) {
    unsigned a = ((unsigned *)fine)[p];
    unsigned b = ((unsigned *)fine)[p + ROW / 2];
    unsigned c = ((unsigned *)fine)[p + 2 * ROW / 2];
    unsigned d = ((unsigned *)fine)[p + 3 * ROW / 2];
    ((unsigned *)half)[p] = a + c;
    ((unsigned *)half)[p + ROW / 2] = b + d;
    ((unsigned *)whole)[p] = a + b + c + d;
  }
}

int main(int argc, char **argv) {
  int w = atoi(argv[1]), h = atoi(argv[2]);
  unsigned short *d;
  cudaMalloc(&d, 8 * w * h * ROW * sizeof(unsigned short));
  merge_rows<<<dim3(w, h), dim3(32, 1)>>>(d, w, h);
  cudaDeviceSynchronize();
  return 0;
}
