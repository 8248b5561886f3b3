// expect: racy
// Every thread stores its own id in one cell: the values differ.
__global__ void claim(int *owner) {
  owner[0] = blockIdx.x * blockDim.x + threadIdx.x;
}
