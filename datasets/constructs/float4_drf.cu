// expect: drf
// options: --block-dim 128 --grid-dim 32
// Vectorised copy-and-scale through float4 elements.

__global__ void scale_vec4(float4 *dst, const float4 *src, float k, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = src[i];
    v.x *= k;
    v.y *= k;
    v.z *= k;
    v.w *= k;
    dst[i] = v;
  }
}
