// expect: drf
// Box decoding into a list whose first cell counts the boxes kept: each
// kept box takes a ticket from the counter and writes its record after
// the counter. The counter only grows from where the host set it (zero),
// so no record reaches back into the counter cell.

#define RECORD 7

__global__ void decode_boxes(const float *predict, float *list,
                             float threshold, int max_boxes) {
  float count = predict[0];
  int position = blockDim.x * blockIdx.x + threadIdx.x;
  if (position >= count)
    return;
  const float *item = predict + 1 + position * 6;
  float confidence = item[4];
  if (confidence < threshold)
    return;
  int index = atomicAdd(list, 1);
  if (index >= max_boxes)
    return;
  float *out = list + 1 + index * RECORD;
  *out++ = item[0];
  *out++ = item[1];
  *out++ = item[2];
  *out++ = item[3];
  *out++ = confidence;
  *out++ = item[5];
  *out++ = 1;
}

void decode(const float *predict, float *list, int max_boxes) {
  cudaMemset(list, 0, sizeof(float));
  decode_boxes<<<(max_boxes + 255) / 256, 256>>>(predict, list, 0.25f,
                                                max_boxes);
}
