// expect: racy
// The host code of launch_size_assigned_in_its_branch_drf.cu with the
// block set to LIMIT threads in the branch that launches `sort_halves`,
// where each thread owns two cells of a LIMIT-cell tile: thread t + 256
// orders the cell that thread t orders as its second.
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
    local = LIMIT;
    global = n / 2;
    dim3 grid(global / local);
    dim3 block(local);
    sort_halves<<<grid, block>>>(keys);
  }
}
