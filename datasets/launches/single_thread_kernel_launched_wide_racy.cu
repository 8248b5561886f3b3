// expect: racy
// The same accumulation launched with 32 threads in the old field-by-field
// style: all of them update the one cell.
__global__ void total(const int *in, int *sum, int n) {
  for (int i = 0; i < n; i++)
    sum[0] += in[i];
}

void run(const int *in, int *sum, int n) {
  dim3 threads;
  threads.x = 32;
  total<<<1, threads>>>(in, sum, n);
}
