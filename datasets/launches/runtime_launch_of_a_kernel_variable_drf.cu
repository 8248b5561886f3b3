// expect: drf
// Host code that names each instantiation in a local variable
// (`auto kernel = reverse_tile<128>;`) and launches it through the runtime
// API, cooperatively when the grid is wider than one block, as libraries
// that need a grid-wide barrier do; another function asks the occupancy
// API about the same instantiation. The grid is a parameter; every block is
// one-dimensional with as many threads as the tile has cells, so each
// thread owns one cell.
template <int THREADS>
__global__ void reverse_tile(const float *in, float *out, int n) {
  __shared__ float tile[THREADS];
  int base = blockIdx.x * THREADS;
  if (base + threadIdx.x < n) tile[threadIdx.x % THREADS] = in[base + threadIdx.x];
  __syncthreads();
  if (base + threadIdx.x < n) out[base + threadIdx.x] = tile[THREADS - 1 - threadIdx.x % THREADS];
}

struct Params {
  const float *in;
  float *out;
  int n;
};

#define RUN(THREADS)                                                                   \
  void run_##THREADS(const Params &p, const dim3 &grid, cudaStream_t stream) {         \
    auto kernel = reverse_tile<THREADS>;                                               \
    void *args[] = {(void *)&p.in, (void *)&p.out, (void *)&p.n};                      \
    if (grid.x > 1) {                                                                  \
      cudaLaunchCooperativeKernel((const void *)kernel, grid, dim3(THREADS), args, 0,  \
                                  stream);                                             \
    } else {                                                                           \
      cudaLaunchKernel((const void *)kernel, grid, dim3(THREADS), args, 0, stream);    \
    }                                                                                  \
  }                                                                                    \
  int blocks_per_sm_##THREADS() {                                                      \
    auto kernel = reverse_tile<THREADS>;                                               \
    int blocks = 0;                                                                    \
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, THREADS, 0);        \
    return blocks;                                                                     \
  }

RUN(128)
RUN(256)
