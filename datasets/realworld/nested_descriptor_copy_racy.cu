// expect: racy
// The batch descriptor of nested_descriptor_copy_drf.cu, but every block
// writes the row of the sequence its token belongs to: tokens of one
// sequence, in different blocks, write the same elements.
struct CacheDescriptor {
  int **block_lists;
  int block_size;
};

struct BatchDescriptor {
  const int *tokens_to_seq;
  const CacheDescriptor cache;
};

__global__ void gather_rows(float *out, const float *pool, const BatchDescriptor batch,
                            int row_width) {
  const CacheDescriptor cache = batch.cache;
  const int token = blockIdx.x;
  const int seq = batch.tokens_to_seq[token];
  const int block = cache.block_lists[seq][token / cache.block_size];
  const int row = block * cache.block_size + token % cache.block_size;
  for (int i = threadIdx.x; i < row_width; i += blockDim.x)
    out[seq * row_width + i] = pool[row * row_width + i];
}
