// expect: racy
// constant_buffer_pointer_drf.cu with the item index halved: threads 2k
// and 2k + 1 write the same item through the `__constant__` pointer.
struct item { unsigned int words[4]; };

__constant__ item *d_table;
__constant__ unsigned int d_table_size;

__global__ void fill_items(unsigned int start) {
  unsigned int i = start + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= d_table_size) return;
  for (int w = 0; w < 4; w++) d_table[i / 2].words[w] = i * 4 + w;
}
