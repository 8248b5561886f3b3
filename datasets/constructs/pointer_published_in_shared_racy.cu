// expect: racy
// As pointer_published_in_shared_drf.cu, but the published region of a
// block is 32 cells while its 64 threads write 64: the upper half of one
// block's writes land on the next block's region.
__global__ void fill_regions(float *out, const float *in, float scale) {
  __shared__ float *region;
  if (threadIdx.x == 0)
    region = out + blockIdx.x * 32;
  __syncthreads();
  region[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x] * scale;
}

void run(float *out, const float *in, int blocks) {
  fill_regions<<<blocks, 64>>>(out, in, 2.0f);
}
