// expect: drf
// options: --block-dim 128 --grid-dim 32
// Array of structs: each thread advances its own particle, reading and
// writing several fields of p[i].

struct Particle {
  float x, y;
  float vx, vy;
};

__global__ void advance(Particle *p, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p[i].x += dt * p[i].vx;
  p[i].y += dt * p[i].vy;
}
