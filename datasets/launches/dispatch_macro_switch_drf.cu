// expect: drf
// A launch written in a macro that dispatches on the row length: the block
// is `dim3 block(H)` and each `case` launches the instance whose template
// argument is that case's value. A statement of one macro expansion has no
// place of its own in the file, so the case a launch belongs to is found
// by the tree. Every instance's blocks hold NT threads: rows never overlap.
template <int NT>
__global__ void scale_rows(const float *x, float *y, int n) {
  int i = blockIdx.x * NT + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

#define LAUNCH_SCALE_ROWS(H) scale_rows<(H)><<<grid, block>>>(x, y, n);

#define DISPATCH_SCALE_ROWS(S, H)                                              \
  dim3 block((H));                                                             \
  dim3 grid((S));                                                              \
  switch ((H)) {                                                               \
  case 32:                                                                     \
    LAUNCH_SCALE_ROWS(32)                                                      \
    break;                                                                     \
  case 64:                                                                     \
    LAUNCH_SCALE_ROWS(64)                                                      \
    break;                                                                     \
  case 128:                                                                    \
    LAUNCH_SCALE_ROWS(128)                                                     \
    break;                                                                     \
  default:                                                                     \
    break;                                                                     \
  }

int row_length(int tensor);

void scale(const float *x, float *y, int rows, int tensor) {
  const int S = rows;
  const int H = row_length(tensor);
  const int n = S * H;
  DISPATCH_SCALE_ROWS(S, H)
}
