// expect: racy
// asm_with_comments_drf.cu storing the pair one place apart instead of two:
// a thread's second value lands on the next thread's first.
__device__ inline void widen_pair(float *out, unsigned packed)
{
    asm volatile("shl.b32 %0, %2, 16;\n"          // low half
                 "and.b32 %1, %2, 0xFFFF0000;\n"  /* high half */
                 : "=f"(out[0]), "=f"(out[1])      // two registers
                 : "r"(packed));
}

__global__ void widen(const unsigned *packed, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float pair[2];
        widen_pair(pair, packed[i]);
        out[i] = pair[0];
        out[i + 1] = pair[1];
    }
}
