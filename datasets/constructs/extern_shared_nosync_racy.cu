// expect: racy
// options: --block-dim 128 --grid-dim 8
// extern_shared_drf.cu without the barrier: thread t reads buf[127 - t]
// while thread 127 - t may still be writing it.

__global__ void reverse_segments_nosync(float *data) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;

  buf[t] = data[g];
  data[g] = buf[blockDim.x - 1 - t];
}
