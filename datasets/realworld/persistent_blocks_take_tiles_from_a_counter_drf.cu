// expect: drf
// Persistent blocks as fractal renderers and work queues write them: a
// grid smaller than the image loops; at the top of each trip thread 0
// takes the next tile from a global counter and publishes its column and
// row in shared memory; after a barrier the block reads them, leaves once
// the tiles run out, and shades the tile. Every ticket of the counter is
// handed out once, so no two blocks ever shade the same tile, and the
// barrier at the end of a trip keeps the next publication from the reads.
__device__ unsigned int next_tile;

__global__ void shade_tiles(float *image, const float *depth, int width,
                            int height, int tiles_x, int tiles) {
  __shared__ unsigned int tile, tile_x, tile_y;
  while (1) {
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      tile = atomicAdd(&next_tile, 1);
      tile_x = tile % tiles_x;
      tile_y = tile / tiles_x;
    }
    __syncthreads();
    if (tile >= tiles)
      break;
    int x = blockDim.x * tile_x + threadIdx.x;
    int y = blockDim.y * tile_y + threadIdx.y;
    if (x < width && y < height)
      image[y * width + x] = sqrtf(depth[y * width + x]) * 0.5f;
    __syncthreads();
  }
}

void shade(float *image, const float *depth, int width, int height) {
  int tiles_x = (width + 15) / 16;
  int tiles = tiles_x * ((height + 15) / 16);
  shade_tiles<<<64, dim3(16, 16)>>>(image, depth, width, height, tiles_x,
                                    tiles);
}
