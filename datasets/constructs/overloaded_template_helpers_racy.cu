// expect: racy
// `overloaded_template_helpers_drf.cu` with a stride of 8: thread `t`'s
// row `i + 1` is thread `t + 8`'s row `i`.
template <int n, class T> __device__ void scatter(T *s, const T *v, int stride) {
  for (int i = 0; i < n; i++)
    s[i * stride] = v[i];
}

template <int n, class T> __device__ void scatter(T *s, const T *v, const int *index) {
  for (int i = 0; i < n; i++)
    s[index[i]] = v[i];
}

template <class T> __global__ void transpose8(T *work) {
  __shared__ T tile[8 * 65];
  T v[8];
  int tid = threadIdx.x;
  for (int i = 0; i < 8; i++)
    v[i] = work[blockIdx.x * 512 + i * 64 + tid];
  scatter<8, T>(&tile[tid], v, 8);
  __syncthreads();
  for (int i = 0; i < 8; i++)
    work[blockIdx.x * 512 + i * 64 + tid] = tile[(tid % 8) * 65 + tid / 8 + i * 8];
}

void run(float *work, int blocks) {
  transpose8<float><<<blocks, 64>>>(work);
}
