// expect: divergent
// block_sizes_from_memory_drf.cu where thread 0 also records the slices
// it did in the sizes array: the kernel writes it, so the sizes another
// thread reads need not be the ones thread 0 read, and the loop with its
// barriers may run a different number of times.
#define THREADS 256
__global__ void batch_smooth(float **mats, int *rows, const int *cols) {
  __shared__ float slice[THREADS];
  float *mat = mats[blockIdx.x];
  int m = rows[blockIdx.x];
  int n = cols[blockIdx.x];
  int slices = (m * n + THREADS - 1) / THREADS;
  if (threadIdx.x == 0)
    rows[blockIdx.x] = slices;
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

void smooth(float **mats, int *rows, const int *cols, int count) {
  batch_smooth<<<count, THREADS>>>(mats, rows, cols);
}
