// expect: drf
// Radix-2 FFT of 1024 points per block in shared memory, 512 threads: in
// each stage a thread owns the butterfly (i, i + half) with
// i = (tid / half) * 2 * half + tid % half; reads and writes of a stage are
// separated by a barrier.
#define FFT_N 1024
__global__ void fft_radix2(float *re, float *im) {
  __shared__ float sr[FFT_N];
  __shared__ float si[FFT_N];
  int tid = threadIdx.x;
  int base = blockIdx.x * FFT_N;
  sr[tid] = re[base + tid];
  si[tid] = im[base + tid];
  sr[tid + FFT_N / 2] = re[base + tid + FFT_N / 2];
  si[tid + FFT_N / 2] = im[base + tid + FFT_N / 2];
  __syncthreads();
  for (int half = 1; half < FFT_N; half <<= 1) {
    int pos = tid % half;
    int i = (tid / half) * 2 * half + pos;
    int j = i + half;
    float angle = -3.14159265f * pos / half;
    float wr = cosf(angle), wi = sinf(angle);
    float ar = sr[i], ai = si[i];
    float br = sr[j] * wr - si[j] * wi;
    float bi = sr[j] * wi + si[j] * wr;
    __syncthreads();
    sr[i] = ar + br;
    si[i] = ai + bi;
    sr[j] = ar - br;
    si[j] = ai - bi;
    __syncthreads();
  }
  re[base + tid] = sr[tid];
  im[base + tid] = si[tid];
  re[base + tid + FFT_N / 2] = sr[tid + FFT_N / 2];
  im[base + tid + FFT_N / 2] = si[tid + FFT_N / 2];
}

void fft_blocks(float *re, float *im, int blocks) {
  fft_radix2<<<blocks, FFT_N / 2>>>(re, im);
}
