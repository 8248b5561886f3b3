// expect: drf
// Dynamic parallelism: thread 0 of each block launches a kernel on the
// block's slice and waits for it. clang does not compile launches in
// device code; drfscan checks each kernel as its own, and the parent's
// races are only possible, since the child's work is not part of its
// protocol. Each thread of the parent writes its own count.
__global__ void scale_slice(float *data, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= factor;
}

__global__ void scale_per_block(float *data, int *counts, int slice) {
  if (threadIdx.x == 0)
    scale_slice<<<slice / 256, 256>>>(data + blockIdx.x * slice, 2.0f);
  cudaDeviceSynchronize();
  counts[blockIdx.x * blockDim.x + threadIdx.x] = slice;
}
