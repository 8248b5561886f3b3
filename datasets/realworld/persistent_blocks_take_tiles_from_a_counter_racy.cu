// expect: racy
// persistent_blocks_take_tiles_from_a_counter_drf.cu without the barrier
// at the end of a trip: thread 0 takes the next tile and overwrites the
// published column and row while the block's other threads may still read
// them.
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
  }
}

void shade(float *image, const float *depth, int width, int height) {
  int tiles_x = (width + 15) / 16;
  int tiles = tiles_x * ((height + 15) / 16);
  shade_tiles<<<64, dim3(16, 16)>>>(image, depth, width, height, tiles_x,
                                    tiles);
}
