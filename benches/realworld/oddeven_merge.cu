// expect: drf
// Batcher's odd-even merge sort of 1024 keys per block by 512 threads: in
// each step a thread owns the pair (pos, pos + stride) with
// pos = 2 * tid - (tid & (stride - 1)).
#define SORT_N 1024
__device__ void compare_swap(int *s, unsigned a, unsigned b) {
  int x = s[a], y = s[b];
  if (x > y) {
    s[a] = y;
    s[b] = x;
  }
}

__global__ void oddeven_merge_sort(int *data) {
  __shared__ int s[SORT_N];
  unsigned tid = threadIdx.x;
  int *d = data + blockIdx.x * SORT_N;
  s[tid] = d[tid];
  s[tid + SORT_N / 2] = d[tid + SORT_N / 2];
  for (unsigned size = 2; size <= SORT_N; size <<= 1) {
    unsigned stride = size / 2;
    unsigned offset = tid & (stride - 1);
    {
      __syncthreads();
      unsigned pos = 2 * tid - (tid & (stride - 1));
      compare_swap(s, pos, pos + stride);
      stride >>= 1;
    }
    for (; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * tid - (tid & (stride - 1));
      if (offset >= stride)
        compare_swap(s, pos - stride, pos);
    }
  }
  __syncthreads();
  d[tid] = s[tid];
  d[tid + SORT_N / 2] = s[tid + SORT_N / 2];
}

void sort_blocks(int *data, int blocks) {
  oddeven_merge_sort<<<blocks, SORT_N / 2>>>(data);
}
