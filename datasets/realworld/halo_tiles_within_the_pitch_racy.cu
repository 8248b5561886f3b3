// expect: racy
// halo_tiles_within_the_pitch_drf.cu without the requirement: a width
// beyond the pitch puts the last columns of one row where the next row
// begins, which another thread stores. A race only for such sizes,
// reported as possible with the precondition `width <= pitch`.
#define TILE_X 32
#define TILE_Y 8

__global__ void gradient_halo(const float *img, float *grad, int pitch, int height, int width) {
  __shared__ float tile[TILE_Y][TILE_X];
  int row = blockIdx.y * (TILE_Y - 1) + threadIdx.y - 1;
  int col = blockIdx.x * (TILE_X - 2) + threadIdx.x - 1;
  bool inside = row >= 0 && row < height && col >= 0 && col < width;
  tile[threadIdx.y][threadIdx.x] = inside ? img[row * pitch + col] : 0.0f;
  __syncthreads();
  if (inside && threadIdx.y != 0 && threadIdx.x != 0 && threadIdx.x != TILE_X - 1) {
    float dx = tile[threadIdx.y][threadIdx.x + 1] - tile[threadIdx.y][threadIdx.x - 1];
    float dy = tile[threadIdx.y][threadIdx.x] - tile[threadIdx.y - 1][threadIdx.x];
    grad[row * pitch + col] = dx * dx + dy * dy;
  }
}

void gradient(const float *img, float *grad, int pitch, int height, int width) {
  dim3 block(TILE_X, TILE_Y);
  dim3 grid((width - 1) / (TILE_X - 2) + 1, (height - 1) / (TILE_Y - 1) + 1);
  gradient_halo<<<grid, block>>>(img, grad, pitch, height, width);
}
