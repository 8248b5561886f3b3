// expect: racy
// A 7 x 7 convolution as tutorials write it: the accumulator is updated
// under two guards in each of 49 unrolled iterations (its value once
// doubled in size with each), and the final write has no bounds check, so
// threads past column N - 1 collide with the next row: a race only for
// launches wider than N, reported as possible with the precondition
// N >= blockDim.x * gridDim.x.
#define MASK_DIM 7
#define MASK_OFFSET (MASK_DIM / 2)
__constant__ int mask[7 * 7];
__global__ void convolution_2d(int *matrix, int *result, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int start_r = row - MASK_OFFSET;
  int start_c = col - MASK_OFFSET;
  int temp = 0;
  for (int i = 0; i < MASK_DIM; i++) {
    for (int j = 0; j < MASK_DIM; j++) {
      if ((start_r + i) >= 0 && (start_r + i) < N) {
        if ((start_c + j) >= 0 && (start_c + j) < N) {
          temp += matrix[(start_r + i) * N + (start_c + j)] * mask[i * MASK_DIM + j];
        }
      }
    }
  }
  result[row * N + col] = temp;
}
