// expect: drf
// The host wrapper takes the tile width as a parameter but sets it before
// launching, as benchmark drivers do when a size is not tunable yet: the
// launch's 16 x 16 block is the assignment that reaches it, and each
// thread writes its own 8 x 8 patch of the block's 128 x 128 tile.
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__global__ void fill_tiles(float *out, int ld)
{
  out += 128 * blockIdx.x * ld + 128 * blockIdx.y;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      out[(8 * threadIdx.x + i) * ld + 8 * threadIdx.y + j] = (float)threadIdx.x;
}

void fill(float *out, int rows, int cols, int side)
{
  side = 16;
  dim3 grid(CEIL_DIV(rows, 8 * side), CEIL_DIV(cols, 8 * side));
  dim3 block(side, side);
  fill_tiles<<<grid, block>>>(out, cols);
}

int main()
{
  float *out;
  fill(out, 4096, 4096, 32);
  return 0;
}
