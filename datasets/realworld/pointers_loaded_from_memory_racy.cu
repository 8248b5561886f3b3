// expect: racy
// pointers_loaded_from_memory_drf.cu with every block on the first cell's
// buffer: blocks 0 and 1 both scale its elements.
struct Batch {
  float *scale;
  int count;
};

__global__ void scale_cells(float **cells, const int *lengths, Batch *batch) {
  float *cell = cells[0];
  int n = lengths[blockIdx.x];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    cell[i] = cell[i] * 0.5f;
  if (threadIdx.x == 0)
    batch->scale[blockIdx.x] = 0.5f;
}
