// expect: drf
// The layout of many benchmark suites: the kernels live in a .cu file of
// their own that only compiles inside this one, which defines its types and
// sizes first and launches the kernels.
#define BLOCK 64
typedef float real;
#include "included_kernels_impl.cuh"

void run(const real *a, real *out, int n) { smooth<<<n / BLOCK, BLOCK>>>(a, out, n); }
