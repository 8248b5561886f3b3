// expect: racy
// alignment_test_of_a_row_pointer_drf.cu testing each thread's own place
// in the row instead of the row: thread 0 finds its place aligned and
// writes four values, thread 1 does not and writes the second of them.
__global__ void scale_rows(const float *in, float *out, int n, float s)
{
    const float *x = in + blockIdx.x * n;
    float *y = out + blockIdx.x * n;
    if (reinterpret_cast<size_t>(y + threadIdx.x) % 16 == 0) {
        for (int i = threadIdx.x; i < n / 4; i += blockDim.x) {
            float4 v = reinterpret_cast<const float4 *>(x)[i];
            v.x *= s;
            v.y *= s;
            v.z *= s;
            v.w *= s;
            reinterpret_cast<float4 *>(y)[i] = v;
        }
        for (int i = n / 4 * 4 + threadIdx.x; i < n; i += blockDim.x)
            y[i] = x[i] * s;
    } else {
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            y[i] = x[i] * s;
    }
}
