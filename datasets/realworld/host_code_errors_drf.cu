// expect: drf
// Host code that does not compile here (a missing OpenGL header, a host
// library call clang cannot resolve) does not stop the kernel's analysis.
#include <GL/not_installed_here.h>
#include <string.h>

__global__ void copy(const int *in, int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x]; }

int main() {
  glutInit(0, 0);
  char buf[8];
  memcpy(buf, "abc", 4);
  return 0;
}
