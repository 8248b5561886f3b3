// expect: drf
// A commutator over matrices stored in packages of four lanes (an array of
// structures of arrays): each thread owns one lane of one package and adds
// to the real and imaginary parts of every entry of its matrix. The row
// loop unrolls, so each row's inner loop is a loop of its own, and the
// rows of one package are 8 * DIM cells apart, with gaps between the cells
// of one thread that the other lanes fill.

#define DIM 7
#define LANES 4
#define PER_BLOCK 64

#define package_id ((gid / LANES) * LANES * 2 * DIM * DIM)
#define lane (gid % LANES)
#define re(i, j) (package_id + 2 * LANES * (DIM * (i) + (j)) + lane)
#define im(i, j) (package_id + 2 * LANES * (DIM * (i) + (j)) + LANES + lane)
#define h_re(i, j) ((i) * DIM + (j))
#define h_im(i, j) (DIM * DIM + (i) * DIM + (j))

__global__ void commutator(const float *__restrict__ sigma_in,
                           float *__restrict__ sigma_out,
                           const float *__restrict__ ham)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < DIM; ++i) {
    for (int j = 0; j < DIM; ++j) {
      float acc_re = 0.0f, acc_im = 0.0f;
      for (int k = 0; k < DIM; ++k) {
        acc_im += ham[h_re(i, k)] * sigma_in[re(k, j)] - sigma_in[re(i, k)] * ham[h_re(k, j)];
        acc_re += ham[h_im(i, k)] * sigma_in[re(k, j)] - sigma_in[im(i, k)] * ham[h_re(k, j)];
      }
      sigma_out[re(i, j)] += acc_re;
      sigma_out[im(i, j)] += acc_im;
    }
  }
}

int main()
{
  int num = 4096;
  float *in, *out, *h;
  cudaMalloc(&in, sizeof(float) * num * 2 * DIM * DIM);
  cudaMalloc(&out, sizeof(float) * num * 2 * DIM * DIM);
  cudaMalloc(&h, sizeof(float) * 2 * DIM * DIM);
  commutator<<<num / (LANES * PER_BLOCK), LANES * PER_BLOCK>>>(in, out, h);
  cudaDeviceSynchronize();
  return 0;
}
