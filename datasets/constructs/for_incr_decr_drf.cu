// expect: drf
// options: --block-dim 64
// for loops with ++ and -- steps (post and pre forms), each thread in its
// own 8-cell row; the third loop copies the row of thread t + 8 (mod 64).

__global__ void fill_rows(void) {
  __shared__ int s[64 * 8];
  __shared__ int r[64 * 8];
  int row = threadIdx.x * 8;
  for (int j = 0; j < 4; j++)
    s[row + j] = j;
  for (int j = 7; j >= 4; j--)
    s[row + j] = j;
  __syncthreads();
  for (int j = 0; j < 8; ++j)
    r[row + j] = s[(row + 8 * 8) % (64 * 8) + j];
  __syncthreads();
  for (int j = 7; j >= 0; --j)
    s[row + j] = r[row + j];
}
