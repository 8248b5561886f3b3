// expect: drf
// A generated 3-D stencil: block origins clamped with `max(origin, 0)` and
// an interior test written with `&` between comparisons. Each thread
// writes its own cell of a cube whose planes are N * N cells.

#define max(x, y) ((x) > (y) ? (x) : (y))
#define N 64

__global__ void stencil(double *__restrict__ out, const double *__restrict__ in)
{
  int i0 = (int)(blockIdx.x) * (int)(blockDim.x);
  int i = max(i0, 0) + (int)(threadIdx.x);
  int j0 = (int)(blockIdx.y) * (int)(blockDim.y);
  int j = max(j0, 0) + (int)(threadIdx.y);
  int k0 = (int)(blockIdx.z) * (int)(blockDim.z);
  int k = max(k0, 0) + (int)(threadIdx.z);
  if (i >= 1 & j >= 1 & k >= 1 & i <= N - 2 & j <= N - 2 & k <= N - 2) {
    out[k * N * N + j * N + i] =
        in[k * N * N + j * N + i + 1] + in[k * N * N + j * N + i - 1] +
        in[k * N * N + (j + 1) * N + i] + in[k * N * N + (j - 1) * N + i] +
        in[(k + 1) * N * N + j * N + i] + in[(k - 1) * N * N + j * N + i];
  }
}

int main()
{
  double *in, *out;
  cudaMalloc(&in, sizeof(double) * N * N * N);
  cudaMalloc(&out, sizeof(double) * N * N * N);
  dim3 block(16, 4, 4);
  dim3 grid(N / 16, N / 4, N / 4);
  stencil<<<grid, block>>>(out, in);
  cudaDeviceSynchronize();
  return 0;
}
