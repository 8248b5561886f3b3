// expect: drf
// record_array_member_over_floats_racy.cu with the records a whole box
// apart: every thread writes its own four floats.
struct Box {
  float bbox[4];
};

__global__ void boxes(float *output, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n) return;
  char *data = (char *)output + i * sizeof(Box);
  Box *det = (Box *)data;
  det->bbox[0] = 1.0f;
  det->bbox[1] = 2.0f;
}
