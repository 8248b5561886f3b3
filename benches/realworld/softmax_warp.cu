// expect: drf
// Row softmax, one block per row: each thread strides over the row, warps
// reduce with shuffles, warp leaders publish to shared memory, thread 0
// combines, everyone reads the result after a barrier.
#define WARP 32
__global__ void softmax_rows(float *out, const float *inp, int N, int C) {
  extern __shared__ float shared[];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  int warp = tid / WARP;
  int lane = tid % WARP;
  int warps = blockDim.x / WARP;
  float *maxvals = shared;
  float *sumvals = &shared[warps];
  const float *x = inp + row * C;

  float maxval = -3.0e38f;
  for (int i = tid; i < C; i += blockDim.x)
    maxval = fmaxf(maxval, x[i]);
  for (int off = 16; off > 0; off /= 2)
    maxval = fmaxf(maxval, __shfl_down_sync(0xffffffff, maxval, off));
  if (lane == 0)
    maxvals[warp] = maxval;
  __syncthreads();
  if (tid == 0) {
    float v = maxvals[0];
    for (int i = 1; i < warps; i++)
      v = fmaxf(v, maxvals[i]);
    maxvals[0] = v;
  }
  __syncthreads();
  float offset = maxvals[0];
  for (int i = tid; i < C; i += blockDim.x)
    out[row * C + i] = expf(x[i] - offset);

  float sum = 0.0f;
  for (int i = tid; i < C; i += blockDim.x)
    sum += out[row * C + i];
  for (int off = 16; off > 0; off /= 2)
    sum += __shfl_down_sync(0xffffffff, sum, off);
  if (lane == 0)
    sumvals[warp] = sum;
  __syncthreads();
  if (tid == 0) {
    float s = sumvals[0];
    for (int i = 1; i < warps; i++)
      s += sumvals[i];
    sumvals[0] = s;
  }
  __syncthreads();
  float total = sumvals[0];
  for (int i = tid; i < C; i += blockDim.x)
    out[row * C + i] = out[row * C + i] / total;
}

void launch_softmax(float *out, const float *inp, int N, int C) {
  softmax_rows<<<N, 256, 2 * (256 / WARP) * sizeof(float)>>>(out, inp, N, C);
}
