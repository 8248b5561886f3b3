// expect: drf
// Four halves packed through a union of an `int2` and two `half2`s, and a
// lane's neighbour's pair fetched with `__shfl_up_sync` on `half2`: the
// toolkit's half types are trivially constructible, so such a union is
// too. Each thread stores its own packed value, as the union's `int2`.
#include <cuda_fp16.h>

typedef union {
  int2 i2;
  half2 h2[2];
} half4;

__global__ void pack_quads(const float4 *in, int2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 q = in[i];
  half4 p;
  p.h2[0] = __float22half2_rn(make_float2(q.x, q.y));
  p.h2[1] = __float22half2_rn(make_float2(q.z, q.w));
  half2 left = __shfl_up_sync(0xffffffff, p.h2[0], 1);
  if (threadIdx.x % 32 != 0)
    p.h2[1] = __hadd2(p.h2[1], left);
  if (i < n)
    out[i] = p.i2;
}
