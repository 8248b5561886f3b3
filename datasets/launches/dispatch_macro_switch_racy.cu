// expect: racy
// The dispatch macro of dispatch_macro_switch_drf.cu, but the case for 64
// launches the instance for 32: its blocks of 64 threads overlap the next
// block's row.
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
    LAUNCH_SCALE_ROWS(32)                                                      \
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
