// expect: drf
// Host code that declares its sizes without values and sets them in each
// branch before the launch there (`size_t local; if (n <= LIMIT) { local =
// LIMIT / 2; dim3 block(local); … }`): the launch reads the assignment of
// its own branch, not the LIMIT of the branch before it. Each thread of
// `sort_halves` owns two cells of the tile, so its 256-thread blocks are
// safe.
#define LIMIT 512

__global__ void sort_halves(int *keys) {
  __shared__ int s[LIMIT];
  int base = blockIdx.x * LIMIT;
  s[threadIdx.x] = keys[base + threadIdx.x];
  s[threadIdx.x + LIMIT / 2] = keys[base + threadIdx.x + LIMIT / 2];
  __syncthreads();
  int a = s[threadIdx.x], b = s[threadIdx.x + LIMIT / 2];
  s[threadIdx.x] = min(a, b);
  s[threadIdx.x + LIMIT / 2] = max(a, b);
  __syncthreads();
  keys[base + threadIdx.x] = s[threadIdx.x];
  keys[base + threadIdx.x + LIMIT / 2] = s[threadIdx.x + LIMIT / 2];
}

void scale_on_host(int *keys, int n, size_t chunk);

void run(int *keys, int n) {
  size_t local, global;
  if (n % LIMIT != 0) {
    local = LIMIT;
    scale_on_host(keys, n, local);
  } else {
    local = LIMIT / 2;
    global = n / 2;
    dim3 grid(global / local);
    dim3 block(local);
    sort_halves<<<grid, block>>>(keys);
  }
}
