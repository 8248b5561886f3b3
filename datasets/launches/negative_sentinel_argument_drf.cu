// expect: drf
// A launch passing `-1` as a "no rotary part" sentinel, as inference
// kernels do: protocols count parameters as natural numbers, so that
// argument leaves the parameter open instead of fixing it. Each thread
// rotates its own element of the row's leading part.
__global__ void rotate(float *x, int rotary_dim, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < rotary_dim)
    x[i] = -x[i];
}

void run(float *x, int n, bool rotary) {
  if (rotary)
    rotate<<<(n + 255) / 256, 256>>>(x, 64, n);
  else
    rotate<<<(n + 255) / 256, 256>>>(x, -1, n);
}
