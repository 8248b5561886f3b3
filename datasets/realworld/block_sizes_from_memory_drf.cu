// expect: drf
// Each block works on one matrix of a batch, whose sizes sit in device
// arrays the kernel only reads (cell tracking, batched solvers). Every
// thread of a block reads the same sizes, so the loop over the matrix in
// slices of the block, with barriers in it, runs the same number of times
// in every thread of the block.
#define THREADS 256
__global__ void batch_smooth(float **mats, const int *rows, const int *cols) {
  __shared__ float slice[THREADS];
  float *mat = mats[blockIdx.x];
  int m = rows[blockIdx.x];
  int n = cols[blockIdx.x];
  int slices = (m * n + THREADS - 1) / THREADS;
  for (int s = 0; s < slices; s++) {
    int i = s * THREADS + threadIdx.x;
    slice[threadIdx.x] = i < m * n ? mat[i] : 0.0f;
    __syncthreads();
    float left = slice[(threadIdx.x + THREADS - 1) % THREADS];
    __syncthreads();
    if (i < m * n)
      mat[i] = 0.5f * (mat[i] + left);
  }
}

void smooth(float **mats, const int *rows, const int *cols, int count) {
  batch_smooth<<<count, THREADS>>>(mats, rows, cols);
}
