// expect: racy
// Boxes written as records laid over a float array through a byte
// pointer, one float apart instead of four: the second coordinate of one
// thread's box is the first coordinate of the next thread's. The member
// subscript moves along the float array; as a dimension of its own it
// would keep `box[1].bbox[0]` apart from `box[0].bbox[1]`.
struct Box {
  float bbox[4];
};

__global__ void boxes(float *output, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n) return;
  char *data = (char *)output + i * sizeof(float);
  Box *det = (Box *)data;
  det->bbox[0] = 1.0f;
  det->bbox[1] = 2.0f;
}
