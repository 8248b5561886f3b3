// expect: drf
// Jagged input: each block works on one cell's buffer, whose address and
// length sit in device arrays (a batch of images of different sizes). A
// pointer read from memory points to a buffer of its own; threads of one
// block share it and split its elements.
struct Batch {
  float *scale;
  int count;
};

__global__ void scale_cells(float **cells, const int *lengths, Batch *batch) {
  float *cell = cells[blockIdx.x];
  int n = lengths[blockIdx.x];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    cell[i] = cell[i] * 0.5f;
  if (threadIdx.x == 0)
    batch->scale[blockIdx.x] = 0.5f;
}
