// expect: racy
// struct_copy_arrays_drf.cu storing the updated particle at the index a
// field of the copy holds: two threads can store to one particle.
struct Particle {
  float pos[3];
  float vel[3];
  int slot[2];
};

__global__ void update(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto pi = p[i];
  for (int d = 0; d < 3; d++)
    pi.pos[d] += pi.vel[d] * dt;
  p[pi.slot[0]] = pi;
}
