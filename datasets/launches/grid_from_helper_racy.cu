// expect: racy
// Host code in the style of LLM training code: sizes go through a
// `ceil_div` helper template, main passes the channel count as a constant,
// and the file's other host code calls a library whose header the scan
// does not have (thirty errors before the launch, which must not stop
// clang from reading it). OC = 2300 is no multiple of 128: the last tile of a row runs into the next one.
template <class T> T ceil_div(T dividend, T divisor) {
  return (dividend + divisor - 1) / divisor;
}

__global__ void tile_store(float *out, int OC) {
  int row = blockIdx.x * 16 + threadIdx.x;
  int col = blockIdx.y * 128 + threadIdx.y * 8;
  for (int j = 0; j < 8; j++)
    out[row * OC + col + j] = (float)(row + j);
}

void library_setup(void *handle) {
  library_call_0(handle);
  library_call_1(handle);
  library_call_2(handle);
  library_call_3(handle);
  library_call_4(handle);
  library_call_5(handle);
  library_call_6(handle);
  library_call_7(handle);
  library_call_8(handle);
  library_call_9(handle);
  library_call_10(handle);
  library_call_11(handle);
  library_call_12(handle);
  library_call_13(handle);
  library_call_14(handle);
  library_call_15(handle);
  library_call_16(handle);
  library_call_17(handle);
  library_call_18(handle);
  library_call_19(handle);
  library_call_20(handle);
  library_call_21(handle);
  library_call_22(handle);
  library_call_23(handle);
  library_call_24(handle);
  library_call_25(handle);
  library_call_26(handle);
  library_call_27(handle);
  library_call_28(handle);
  library_call_29(handle);
}

void store(float *out, int BT, int OC) {
  int sqrt_block_size = 16;
  dim3 gridDim(ceil_div(BT, sqrt_block_size), ceil_div(OC, 8 * sqrt_block_size));
  dim3 blockDim(sqrt_block_size, sqrt_block_size);
  tile_store<<<gridDim, blockDim>>>(out, OC);
}

int main() {
  float *out = nullptr;
  store(out, 4 * 1024, 2300);
  return 0;
}
