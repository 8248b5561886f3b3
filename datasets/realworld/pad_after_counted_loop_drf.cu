// expect: drf
// Message padding as hash kernels write it: each thread owns a 16-word
// row of shared memory, zeroes `pad` words from word 13 down (the
// message's padding, from its length), then puts the end marker in the
// word below the last one zeroed, which it finds from the loop's counter
// after the loop. The counter leaves the loop equal to `pad` (at most 13
// here, and 0 when `pad` is negative), so the marker stays in the row.
__global__ void pad_rows(const unsigned *lengths, unsigned *out, int words) {
  __shared__ unsigned rows[256 * 16];
  unsigned *row = rows + threadIdx.x * 16;
  int pad = min(words, 13);
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
