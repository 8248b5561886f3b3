// expect: racy
// lambda_in_template_kernel_drf.cu whose lambda stores the pair's second
// value two cells on: it lands on the next thread's first cell.
template <typename D>
__global__ void rotate_pairs(const float *x, D *dst, int n, float c, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int idst = 2 * i;
  const auto &store_pair = [&](float a, float b) {
    dst[idst] = (D)a;
    dst[idst + 2] = (D)b;
  };
  float x0 = x[2 * i], x1 = x[2 * i + 1];
  store_pair(x0 * c - x1 * s, x0 * s + x1 * c);
}

template __global__ void rotate_pairs<float>(const float *, float *, int, float, float);
