// expect: racy
// options: --block-dim 16,16 --grid-dim 8,8 --param w=128 --param h=128
// Mutant of stencil_2d_drf.cu without the barrier between staging the tile
// and reading the neighbours.

#define B 16

__global__ void stencil_2d_nosync(const float *in, float *out, int w, int h) {
  __shared__ float s[B + 2][B + 2];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int gx = blockIdx.x * B + tx;
  int gy = blockIdx.y * B + ty;
  int x = min(gx, w - 1);
  int y = min(gy, h - 1);
  int xl = max(x - 1, 0);
  int xr = min(x + 1, w - 1);
  int yu = max(y - 1, 0);
  int yd = min(y + 1, h - 1);

  s[ty + 1][tx + 1] = in[y * w + x];
  if (tx == 0)
    s[ty + 1][0] = in[y * w + xl];
  if (tx == B - 1)
    s[ty + 1][B + 1] = in[y * w + xr];
  if (ty == 0)
    s[0][tx + 1] = in[yu * w + x];
  if (ty == B - 1)
    s[B + 1][tx + 1] = in[yd * w + x];

  if (gx < w && gy < h)
    out[gy * w + gx] = s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx] +
                       s[ty + 1][tx + 2] - 4.0f * s[ty + 1][tx + 1];
}
