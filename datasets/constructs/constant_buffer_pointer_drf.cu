// expect: drf
// A buffer the host hands over through a `__constant__` pointer
// (`cudaMemcpyToSymbol(d_table, &buf, sizeof buf)`), as DAG-based hashing
// kernels do: no thread can change the pointer, so it is one buffer for
// the launch; each thread writes its own item of it.
struct item { unsigned int words[4]; };

__constant__ item *d_table;
__constant__ unsigned int d_table_size;

__global__ void fill_items(unsigned int start) {
  unsigned int i = start + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= d_table_size) return;
  for (int w = 0; w < 4; w++) d_table[i].words[w] = i * 4 + w;
}
