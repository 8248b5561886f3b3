// expect: drf
// A long `switch` of variations inside an unrolled loop with `continue`, as
// fractal and particle codes write them: the conditions under which control
// falls through or leaves grow with every case, so past a size they are
// unknowns rather than formulas copied from case to case.
#define VARIATIONS 4
__global__ void variations(const int *kind, const float *weight, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = 0.0f;
  for (int k = 0; k < VARIATIONS; k++) {
    if (weight[k] < 0.01f)
      continue;
    switch (kind[k]) {
      case 0:
        v = v * 2.0f + 0.0f;
        break;
      case 1:
        v = v * 3.0f + 1.0f;
        break;
      case 2:
        v = v * 4.0f + 2.0f;
        break;
      case 3:
        v = v * 5.0f + 3.0f;
        break;
      case 4:
        v = v * 6.0f + 4.0f;
        break;
      case 5:
        v = v * 7.0f + 5.0f;
        break;
      case 6:
        v = v * 8.0f + 6.0f;
        break;
      case 7:
        v = v * 9.0f + 7.0f;
        break;
      case 8:
        v = v * 10.0f + 8.0f;
        break;
      case 9:
        v = v * 11.0f + 9.0f;
        break;
      case 10:
        v = v * 12.0f + 10.0f;
        break;
      case 11:
        v = v * 13.0f + 11.0f;
        break;
      case 12:
        v = v * 14.0f + 12.0f;
        break;
      case 13:
        v = v * 15.0f + 13.0f;
        break;
      case 14:
        v = v * 16.0f + 14.0f;
        break;
      case 15:
        v = v * 17.0f + 15.0f;
        break;
      case 16:
        v = v * 18.0f + 16.0f;
        break;
      case 17:
        v = v * 19.0f + 17.0f;
        break;
      case 18:
        v = v * 20.0f + 18.0f;
        break;
      case 19:
        v = v * 21.0f + 19.0f;
        break;
      case 20:
        v = v * 22.0f + 20.0f;
        break;
      case 21:
        v = v * 23.0f + 21.0f;
        break;
      case 22:
        v = v * 24.0f + 22.0f;
        break;
      case 23:
        v = v * 25.0f + 23.0f;
        break;
      case 24:
        v = v * 26.0f + 24.0f;
        break;
      case 25:
        v = v * 27.0f + 25.0f;
        break;
      case 26:
        v = v * 28.0f + 26.0f;
        break;
      case 27:
        v = v * 29.0f + 27.0f;
        break;
      case 28:
        v = v * 30.0f + 28.0f;
        break;
      case 29:
        v = v * 31.0f + 29.0f;
        break;
      case 30:
        v = v * 32.0f + 30.0f;
        break;
      case 31:
        v = v * 33.0f + 31.0f;
        break;
      case 32:
        v = v * 34.0f + 32.0f;
        break;
      case 33:
        v = v * 35.0f + 33.0f;
        break;
      case 34:
        v = v * 36.0f + 34.0f;
        break;
      case 35:
        v = v * 37.0f + 35.0f;
        break;
      case 36:
        v = v * 38.0f + 36.0f;
        break;
      case 37:
        v = v * 39.0f + 37.0f;
        break;
      case 38:
        v = v * 40.0f + 38.0f;
        break;
      case 39:
        v = v * 41.0f + 39.0f;
        break;
      default:
        v = 0.0f;
    }
  }
  out[i] = v;
}
