// expect: drf
// Dynamic shared memory handed out by explicit specializations of a class
// template whose primary template is only declared (`SharedMemory<float>`,
// `SharedMemory<double>`), as normalisation kernels write it to give each
// element type its own `extern __shared__` name. In the kernel template
// the element type is open, so the call names no specialization; each of
// them returns the block's one dynamic shared memory. The partial sums are
// combined across rows of the block, a barrier between each write and read,
// with conversions to the open type (`U(n)`) on the way.
template <typename T> struct SharedMemory;
template <> struct SharedMemory<float> {
  __device__ float *getPointer() {
    extern __shared__ float s_float[];
    return s_float;
  }
};
template <> struct SharedMemory<double> {
  __device__ double *getPointer() {
    extern __shared__ double s_double[];
    return s_double;
  }
};

template <typename U>
__global__ void row_mean(const U *in, U *out, int n) {
  SharedMemory<U> shared;
  U *buf = shared.getPointer();
  U sum = U(0);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    sum += in[blockIdx.x * n + i];
  buf[threadIdx.x] = sum;
  __syncthreads();
  for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
    if (threadIdx.x < offset)
      buf[threadIdx.x] += buf[threadIdx.x + offset];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0] / U(n);
}

template <typename U> void run(const U *in, U *out, int rows, int n) {
  row_mean<U><<<rows, 128, 128 * sizeof(U)>>>(in, out, n);
}
