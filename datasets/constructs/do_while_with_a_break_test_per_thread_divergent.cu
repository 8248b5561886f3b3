// expect: divergent
// A `do`-`while` whose body may leave early (a `break` the whole block
// takes alike) and whose test each thread decides for itself: after the
// first trip, a thread past its own limit leaves while the others wait
// at the barrier for it.
__global__ void gather_steps(int *steps, const int *stride, int budget) {
  int done = 0;
  do {
    if (stride[1] > budget) break;
    __syncthreads();
    done += stride[0];
  } while (done < threadIdx.x);
  steps[blockIdx.x * blockDim.x + threadIdx.x] = done;
}
