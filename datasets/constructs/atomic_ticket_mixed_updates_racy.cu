// expect: racy
// A counter some threads increment and others decrement hands out the
// same value twice: two threads may store into one slot.
__global__ void push_or_pop(int *stack, unsigned *top, const int *ops) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (ops[i] > 0) {
    unsigned slot = atomicAdd(top, 1u);
    stack[slot] = i;
  } else {
    atomicSub(top, 1u);
  }
}
