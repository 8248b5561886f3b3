// expect: racy
// The same frames, with the coarsest laid out as if each block had four
// rows of it, as the finest kind has: it runs into the next frame, and a
// block's single row meets another block's rows of the middle kind once
// the grid has enough blocks.
#include <cstdlib>

#define ROW 1096

__global__ void merge_rows(unsigned short *sums, int w, int h) {
  int frame = w * h * ROW;
  int block = (blockIdx.y * w + blockIdx.x) * ROW;
  unsigned short *fine = sums + ((frame + block) << 2) + frame;
  unsigned short *half = sums + ((frame + block) << 1) + frame;
  unsigned short *whole = sums + (block << 2);
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
