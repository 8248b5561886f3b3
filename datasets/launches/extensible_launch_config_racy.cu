// expect: racy
// Launches through `cudaLaunchKernelEx`, whose sizes sit in a
// `cudaLaunchConfig_t`: one configuration is filled in field by field
// (with a launch attribute, as programmatic dependent launches set), the
// other by braces in field order. Each block stages a tile of 256 cells,
// but both configurations launch blocks of 512 threads: threads `t` and
// `t + 256` write the same cell of the tile, and neighbouring blocks
// overlap in `out` and `data`.
#define TILE 256

__global__ void reverse_tiles(const float *in, float *out) {
  __shared__ float tile[TILE];
  int base = blockIdx.x * TILE;
  tile[threadIdx.x % TILE] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[TILE - 1 - threadIdx.x % TILE];
}

__global__ void scale_tiles(float *data, float by) {
  __shared__ float tile[TILE];
  int base = blockIdx.x * TILE;
  tile[threadIdx.x % TILE] = data[base + threadIdx.x] * by;
  __syncthreads();
  data[base + threadIdx.x] = tile[threadIdx.x % TILE];
}

void run(const float *in, float *out, int n, cudaStream_t stream) {
  cudaLaunchConfig_t config = {0};
  config.gridDim = dim3(n / TILE);
  config.blockDim = dim3(2 * TILE);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, reverse_tiles, in, out);

  cudaLaunchConfig_t braced = {dim3(n / TILE), dim3(2 * TILE), 0, stream, nullptr, 0};
  cudaLaunchKernelEx(&braced, scale_tiles, out, 2.0f);
}
