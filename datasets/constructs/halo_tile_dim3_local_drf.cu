// expect: drf
// A row smoothing through a shared tile with a one-cell halo. The
// tile coordinates are a local `dim3` built by its constructor
// (`dim3 idx(threadIdx.x + 1, threadIdx.y + 1)`), as stencil codes write.
#define B 8

__global__ void smooth_rows(const float *in, float *out, int n) {
  __shared__ float tile[B][B + 2];
  dim3 idx(threadIdx.x + 1, threadIdx.y);
  int gx = blockIdx.x * B + threadIdx.x;
  int gy = blockIdx.y * B + threadIdx.y;
  tile[idx.y][idx.x] = in[gy * n + gx];
  if (threadIdx.x == 0)
    tile[idx.y][0] = gx > 0 ? in[gy * n + gx - 1] : 0.0f;
  if (threadIdx.x == B - 1)
    tile[idx.y][B + 1] = gx + 1 < n ? in[gy * n + gx + 1] : 0.0f;
  __syncthreads();
  out[gy * n + gx] =
      (tile[idx.y][idx.x - 1] + tile[idx.y][idx.x] + tile[idx.y][idx.x + 1]) / 3;
}

void run(const float *in, float *out, int n) {
  smooth_rows<<<dim3(n / B, n / B), dim3(B, B)>>>(in, out, n);
}
