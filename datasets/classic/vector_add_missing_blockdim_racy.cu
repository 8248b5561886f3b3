// expect: racy
// options: --block-dim 128 --grid-dim 16
// Mutant of vector_add_drf.cu forgetting to scale the block index: thread 1
// of block 0 and thread 0 of block 1 both write c[1].

__global__ void vector_add_missing_blockdim(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
