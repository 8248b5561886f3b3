// expect: drf
// Each block scales one row, four values at a time when both row pointers
// are 16-byte aligned, one at a time otherwise. The test reads the
// pointers as numbers; every thread of a block tests the same two
// pointers, so a block takes one path or the other as a whole.
__global__ void scale_rows(const float *in, float *out, int n, float s)
{
    const float *x = in + blockIdx.x * n;
    float *y = out + blockIdx.x * n;
    if (reinterpret_cast<size_t>(x) % 16 == 0 && reinterpret_cast<size_t>(y) % 16 == 0) {
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
