// expect: divergent
// A `do`-`while` whose test each thread decides for itself, around a
// barrier: after the first trip, a thread that has counted past its own
// limit leaves while the others wait at the barrier for it.
__global__ void gather_steps(int *steps, const int *stride) {
  int done = 0;
  do {
    __syncthreads();
    done += stride[0];
  } while (done < threadIdx.x);
  steps[blockIdx.x * blockDim.x + threadIdx.x] = done;
}
