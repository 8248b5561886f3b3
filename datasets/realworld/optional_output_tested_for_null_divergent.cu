// expect: divergent
// options: --block-dim 256
// optional_output_tested_for_null_drf.cu testing a pointer each thread
// reads from a table (`sums = outs[threadIdx.x]`): one thread's may be
// null where another's is not, and the reduction's barriers diverge.
__global__ void scale_rows(const float *in, float *out, float **outs, float k)
{
    __shared__ float part[256];
    int t = threadIdx.x;
    float *sums = outs[t];
    float v = in[blockIdx.x * 256 + t] * k;
    out[blockIdx.x * 256 + t] = v;
    if (sums) {
        part[t] = v;
        for (int s = 128; s > 0; s >>= 1) {
            __syncthreads();
            if (t < s)
                part[t] += part[t + s];
        }
    }
}
