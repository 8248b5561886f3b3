// expect: drf
// A batch descriptor passed by value, as inference engines hand ragged
// batches to their kernels: a nested descriptor of a paged key-value cache
// is copied into a local, and its table of block pointers is read to find
// the block a token's row lives in. Each block writes its own token's row
// of the output, one element per thread.
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
    out[token * row_width + i] = pool[row * row_width + i];
}
