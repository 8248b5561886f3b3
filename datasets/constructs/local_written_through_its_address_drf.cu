// expect: drf
// As local_written_through_its_address_racy.cu, but the helper writes the
// thread's own index through the pointer: each thread has its slot.
__device__ void pick_slot(int *slot, int tid) { *slot = tid; }

__global__ void scatter(float *out, const float *in) {
  int slot = 0;
  pick_slot(&slot, threadIdx.x);
  out[slot] = in[threadIdx.x];
}

void run(float *out, const float *in) { scatter<<<1, 256>>>(out, in); }
