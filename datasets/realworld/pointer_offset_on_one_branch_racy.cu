// expect: racy
// pointer_offset_on_one_branch_drf.cu writing through the data pointer:
// the blocks past `sets` all write the start of the input.
__global__ void pair_rows(float *hist, float *points, int sets, int n) {
  float *data;
  if (blockIdx.x > sets)
    data = points;
  else
    data = points + n * blockIdx.x;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    data[i] = hist[blockIdx.x * n + i];
}
