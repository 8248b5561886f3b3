// expect: drf
// halo_tile_sized_for_its_block_racy.cu launched by its host code with the
// block of 32 threads its tile was sized for: the halo's cells and the
// block's own are apart.
#define BDIM 32
#define HALO 4
__global__ void smooth_row(const float *u, float *out, int steps) {
  __shared__ float tile[BDIM + 2 * HALO];
  int i = blockIdx.x * blockDim.x + threadIdx.x + HALO;
  int s = threadIdx.x + HALO;
  float c = u[i];
  for (int k = 0; k < steps; k++) {
    if (threadIdx.x < HALO) {
      tile[threadIdx.x] = u[i - HALO];
      tile[s + BDIM] = u[i + BDIM];
    }
    tile[s] = c;
    __syncthreads();
    c = 0.25f * tile[s - 1] + 0.5f * tile[s] + 0.25f * tile[s + 1];
    __syncthreads();
  }
  out[i] = c;
}

int main() {
  const int n = 1 << 16;
  float *u, *out;
  cudaMalloc(&u, (n + 2 * HALO) * sizeof(float));
  cudaMalloc(&out, (n + 2 * HALO) * sizeof(float));
  smooth_row<<<n / BDIM, BDIM>>>(u, out, 10);
  cudaDeviceSynchronize();
  return 0;
}
