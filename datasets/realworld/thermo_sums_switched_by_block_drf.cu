// expect: drf
// One block per thermodynamic sum, chosen by `switch (blockIdx.x)` as
// molecular-dynamics codes write it: every case strides over the atoms,
// reduces in shared memory with barriers, and ends in `break`. The case
// a block runs is the block's own, so every barrier is reached by the
// whole block, however many cases come before it.
#define SUM_CASE(k, expr)                                              \
  case k:                                                              \
    for (int patch = 0; patch < patches; ++patch) {                    \
      int n = tid + patch * 1024;                                      \
      if (n < N)                                                       \
        s[tid] += (expr);                                              \
    }                                                                  \
    __syncthreads();                                                   \
    for (int offset = blockDim.x >> 1; offset > 0; offset >>= 1) {     \
      if (tid < offset)                                                \
        s[tid] += s[tid + offset];                                     \
      __syncthreads();                                                 \
    }                                                                  \
    if (tid == 0)                                                      \
      out[k] = s[0];                                                   \
    break;

__global__ void thermo(int N, const double *m, const double *vx, const double *vy,
                       const double *vz, const double *sxx, const double *syy,
                       const double *szz, double *out)
{
  int tid = threadIdx.x;
  int patches = (N - 1) / 1024 + 1;
  __shared__ double s[1024];
  s[tid] = 0.0;
  switch (blockIdx.x) {
    SUM_CASE(0, m[n] * (vx[n] * vx[n] + vy[n] * vy[n] + vz[n] * vz[n]))
    SUM_CASE(1, sxx[n] + m[n] * vx[n] * vx[n])
    SUM_CASE(2, syy[n] + m[n] * vy[n] * vy[n])
    SUM_CASE(3, szz[n] + m[n] * vz[n] * vz[n])
    SUM_CASE(4, m[n] * vx[n] * vy[n])
    SUM_CASE(5, m[n] * vy[n] * vz[n])
    SUM_CASE(6, m[n] * vz[n] * vx[n])
    SUM_CASE(7, m[n])
  }
}

int main()
{
  double *m, *vx, *vy, *vz, *sxx, *syy, *szz, *out;
  thermo<<<8, 1024>>>(100000, m, vx, vy, vz, sxx, syy, szz, out);
  return 0;
}
