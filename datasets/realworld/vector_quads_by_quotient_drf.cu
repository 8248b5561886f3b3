// expect: drf
// Rows of floats scaled four at a time through a float4 view: the thread
// whose column is col (a multiple of four) owns float4 cell (row * width +
// col) / 4, an exact quotient because the width is a whole number of
// vectors. Columns are spread over the blocks along x, rows over y.
__global__ void scale_rows_vec4(float *x, const float *scale, int width) {
  __requires(width % 4 == 0);
  int row = blockIdx.y;
  int col = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
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
