// expect: drf
// Host code that picks the instantiation by a runtime block size
// (`if (block == 16) tiled<16><<<…>>> else tiled<32><<<…>>>`) while `main`
// always passes 32: `tiled<16>` is compiled but its launch is on a path
// `main` never takes. Had it been taken, `block` would be 16, so the
// instantiation runs 16 x 16 or not at all, and is analysed so.
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
    tiled<16><<<grid, threads>>>(c, a, b, wa, wb);
  else
    tiled<32><<<grid, threads>>>(c, a, b, wa, wb);
}

int main() {
  int block = 32;
  product(block, 10 * block, 20 * block, 10 * block, 0, 0, 0);
  return 0;
}
