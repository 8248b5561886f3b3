// expect: racy
// The block shape is a `dim3` of file scope that nothing in the file
// changes, as in older SDK-style samples (`dim3 blockSize(16, 8);` above
// the host code): the kernel is analysed in 16 x 8 blocks, which its tile
// is written for. Here the blocks are twice as wide as the tile: a
// thread past its row writes the next row's cell.
#define TILE_W 16
#define TILE_H 8

__global__ void mirror_tiles(float *img, int width) {
  __shared__ float tile[TILE_H][TILE_W];
  int x = blockIdx.x * TILE_W + threadIdx.x;
  int y = blockIdx.y * TILE_H + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = img[y * width + x];
  __syncthreads();
  img[y * width + x] = tile[threadIdx.y][TILE_W - 1 - threadIdx.x];
}

dim3 threads(2 * TILE_W, TILE_H);

void mirror(float *img, int width, int height) {
  dim3 blocks(width / TILE_W, height / TILE_H);
  mirror_tiles<<<blocks, threads>>>(img, width);
}
