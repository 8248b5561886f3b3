// expect: divergent
// A `while` whose test each thread decides for itself, around a barrier:
// a thread that has counted past its own limit leaves the loop while the
// others wait at the barrier for it.
__global__ void gather_steps(int *steps, const int *stride) {
  int done = 0;
  while (done < threadIdx.x) {
    __syncthreads();
    done += stride[0];
  }
  steps[blockIdx.x * blockDim.x + threadIdx.x] = done;
}
