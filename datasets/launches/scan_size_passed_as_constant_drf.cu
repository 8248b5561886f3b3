// expect: drf
// A shared-memory scan in the SDK's style: each thread places its value at
// `2 * tid - (tid & (size - 1)) + size` and adds its neighbour `offset`
// below in each step, between two barriers. The host passes the block
// size as `size`, a constant: the mask is then one the solver reads as a
// remainder.
#define THREADBLOCK_SIZE 256

inline __device__ unsigned int scan1Inclusive(unsigned int idata, volatile unsigned int *s_Data,
                                              unsigned int size) {
  unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s_Data[pos] = 0;
  pos += size;
  s_Data[pos] = idata;
  for (unsigned int offset = 1; offset < size; offset <<= 1) {
    __syncthreads();
    unsigned int t = s_Data[pos] + s_Data[pos - offset];
    __syncthreads();
    s_Data[pos] = t;
  }
  return s_Data[pos];
}

__global__ void scanExclusiveShared(unsigned int *d_Dst, unsigned int *d_Src, unsigned int size) {
  __shared__ unsigned int s_Data[2 * THREADBLOCK_SIZE];
  unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int idata = d_Src[pos];
  unsigned int odata = scan1Inclusive(idata, s_Data, size) - idata;
  d_Dst[pos] = odata;
}

void scanExclusiveShort(unsigned int *d_Dst, unsigned int *d_Src, unsigned int batchSize,
                        unsigned int arrayLength) {
  scanExclusiveShared<<<(batchSize * arrayLength) / THREADBLOCK_SIZE, THREADBLOCK_SIZE>>>(
      d_Dst, d_Src, THREADBLOCK_SIZE);
}
