// expect: racy
// vector_quads_by_quotient_drf.cu spacing columns by two instead of four:
// threads 0 and 1 of a block both reach float4 cell (row * width) / 4 and
// write it, whatever the width.
__global__ void scale_rows_vec4(float *x, const float *scale, int width) {
  __requires(width % 4 == 0);
  int row = blockIdx.y;
  int col = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (col < width) {
    float4 v = reinterpret_cast<float4 *>(x)[(row * width + col) / 4];
    float s = scale[row];
    v.x *= s;
    v.y *= s;
    v.z *= s;
    v.w *= s;
    reinterpret_cast<float4 *>(x)[(row * width + col) / 4] = v;
  }
}
