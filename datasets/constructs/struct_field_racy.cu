// expect: racy
// options: --block-dim 128 --grid-dim 32
// Array of structs with a neighbour access: thread i reads p[i + 1].x while
// thread i + 1 writes the same field.

struct Particle {
  float x, y;
  float vx, vy;
};

__global__ void smooth_positions(Particle *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    p[i].x = 0.5f * (p[i].x + p[i + 1].x);
}
