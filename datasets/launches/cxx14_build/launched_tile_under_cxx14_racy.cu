// expect: racy
// Built as C++14 by the Makefile beside it. The shared tile has one cell
// per thread of a 64-wide block, but the host launches 128 threads: two
// threads share each cell, and blocks share rows. Each block's rows come
// from a structure returned by value.
struct Rows {
  int width;
  float *data;
};

__device__ Rows rows_of_block(Rows all, int b) {
  Rows mine;
  mine.width = all.width;
  mine.data = all.data + b * 64;
  return mine;
}

__global__ void shift_rows(Rows all) {
  __shared__ float tile[64];
  Rows mine = rows_of_block(all, blockIdx.x);
  tile[threadIdx.x % 64] = mine.data[threadIdx.x];
  __syncthreads();
  mine.data[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}

int main() {
  Rows all;
  all.width = 64;
  shift_rows<<<16, 128>>>(all);
  return 0;
}
