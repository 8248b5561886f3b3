//pass
//--blockDim=[16,16,1] --gridDim=[4,4,1]

// GPUVerify-style header with a __requires precondition on the row pitch:
// each thread writes its own cell of a pitched 2D array.

__global__ void fill_pitched(float *m, int pitch) {
  __requires(pitch >= 64);
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  m[y * pitch + x] = 1.0f;
}
