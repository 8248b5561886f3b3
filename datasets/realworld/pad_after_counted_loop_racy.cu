// expect: racy
// pad_after_counted_loop_drf.cu without the clamp of `pad` to 13: a
// thread told to pad 15 words puts its marker at word -1 of its row, the
// last word of the row below, which that row's thread writes too.
__global__ void pad_rows(const unsigned *lengths, unsigned *out, int words) {
  __shared__ unsigned rows[256 * 16];
  unsigned *row = rows + threadIdx.x * 16;
  int pad = words;
  int i;
  for (i = 0; i < pad; i++)
    row[13 - i] = 0;
  row[13 - i] = 0x80;
  row[15] = lengths[threadIdx.x] << 3;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = row[15] ^ row[13];
}

void run(const unsigned *lengths, unsigned *out, int words) {
  pad_rows<<<8, 256>>>(lengths, out, words);
}
