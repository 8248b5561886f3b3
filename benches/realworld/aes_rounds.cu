// expect: drf
// An AES-like block cipher: four 256-entry tables are loaded into shared
// memory by the block, then each thread runs nine unrolled table-lookup
// rounds on its own 16-byte block and writes it back: 144 table reads with
// data-dependent indexes in one barrier interval.
__global__ void cipher_rounds(const unsigned *in, unsigned *out, const unsigned *tables,
                              const unsigned *rk, int nblocks) {
  __shared__ unsigned T0[256], T1[256], T2[256], T3[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
    T0[i] = tables[i];
    T1[i] = tables[256 + i];
    T2[i] = tables[512 + i];
    T3[i] = tables[768 + i];
  }
  __syncthreads();
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= nblocks)
    return;
  unsigned s0 = in[4 * idx] ^ rk[0], s1 = in[4 * idx + 1] ^ rk[1];
  unsigned s2 = in[4 * idx + 2] ^ rk[2], s3 = in[4 * idx + 3] ^ rk[3];
  unsigned t0, t1, t2, t3;
#define ROUND(r)                                                                        \
  t0 = T0[s0 >> 24] ^ T1[(s1 >> 16) & 0xff] ^ T2[(s2 >> 8) & 0xff] ^ T3[s3 & 0xff] ^ rk[4 * (r)];     \
  t1 = T0[s1 >> 24] ^ T1[(s2 >> 16) & 0xff] ^ T2[(s3 >> 8) & 0xff] ^ T3[s0 & 0xff] ^ rk[4 * (r) + 1]; \
  t2 = T0[s2 >> 24] ^ T1[(s3 >> 16) & 0xff] ^ T2[(s0 >> 8) & 0xff] ^ T3[s1 & 0xff] ^ rk[4 * (r) + 2]; \
  t3 = T0[s3 >> 24] ^ T1[(s0 >> 16) & 0xff] ^ T2[(s1 >> 8) & 0xff] ^ T3[s2 & 0xff] ^ rk[4 * (r) + 3]; \
  s0 = t0; s1 = t1; s2 = t2; s3 = t3
  ROUND(1);
  ROUND(2);
  ROUND(3);
  ROUND(4);
  ROUND(5);
  ROUND(6);
  ROUND(7);
  ROUND(8);
  ROUND(9);
  out[4 * idx] = s0;
  out[4 * idx + 1] = s1;
  out[4 * idx + 2] = s2;
  out[4 * idx + 3] = s3;
}
