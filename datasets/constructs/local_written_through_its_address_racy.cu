// expect: racy
// A thread's slot is chosen by a helper that writes its answer through a
// pointer to a local, and the local's first value is never used. Every
// thread gets slot 0 from the helper's write, so all of them write
// `out[0]` with different values.
__device__ void pick_slot(int *slot, int tid) { *slot = tid / 1024; }

__global__ void scatter(float *out, const float *in) {
  int slot = threadIdx.x;
  pick_slot(&slot, threadIdx.x);
  out[slot] = in[threadIdx.x];
}

void run(float *out, const float *in) { scatter<<<1, 256>>>(out, in); }
