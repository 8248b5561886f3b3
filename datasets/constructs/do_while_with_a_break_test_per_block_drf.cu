// expect: drf
// The same loop with a test the block agrees on: every thread adds the
// same stride and compares with the same limit, so they all take the same
// number of trips through the barrier, `break` or not.
__global__ void gather_steps(int *steps, const int *stride, int budget, int limit) {
  int done = 0;
  do {
    if (stride[1] > budget) break;
    __syncthreads();
    done += stride[0];
  } while (done < limit);
  steps[blockIdx.x * blockDim.x + threadIdx.x] = done;
}
