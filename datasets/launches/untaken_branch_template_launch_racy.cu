// expect: racy
// `untaken_branch_template_launch_drf.cu` with both branches launching
// twice as many columns as the tile has (`dim3(2 * block, block)`): the
// second half of one block's columns are the first half of the next
// block's. The 16-wide branch is not taken by `main`, but its
// instantiation exists only to be launched that way, 32 x 16.
template <int TILE>
__global__ void tiled(float *c, const float *a, const float *b, int wa, int wb) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int i = wa * TILE * blockIdx.y, j = TILE * blockIdx.x;
       i < wa * TILE * blockIdx.y + wa; i += TILE, j += TILE * wb) {
    as[ty][tx] = a[i + wa * ty + tx];
    bs[ty][tx] = b[j + wb * ty + tx];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[wb * TILE * blockIdx.y + TILE * blockIdx.x + wb * ty + tx] = sum;
}

static void product(int block, int wa, int wb, int ha, float *c, const float *a, const float *b) {
  dim3 threads(block, block);
  dim3 grid(wb / block, ha / block);
  if (block == 16)
    tiled<16><<<grid, dim3(2 * block, block)>>>(c, a, b, wa, wb);
  else
    tiled<32><<<grid, dim3(2 * block, block)>>>(c, a, b, wa, wb);
}

int main() {
  int block = 32;
  product(block, 10 * block, 20 * block, 10 * block, 0, 0, 0);
  return 0;
}
