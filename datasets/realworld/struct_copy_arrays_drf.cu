// expect: drf
// A particle copied into a local (`auto pi = p[i]`) and its array fields
// updated there: the copy is the thread's own, only the store back is shared.
struct Particle {
  float pos[3];
  float vel[3];
  float acc[3];
};

__global__ void update(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto pi = p[i];
  for (int d = 0; d < 3; d++) {
    pi.vel[d] += pi.acc[d] * dt;
    pi.pos[d] += pi.vel[d] * dt;
    pi.acc[d] = 0.f;
  }
  p[i] = pi;
}
