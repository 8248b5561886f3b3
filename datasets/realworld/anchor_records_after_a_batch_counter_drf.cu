// expect: drf
// YOLO-style box decoding as TensorRT plugins write it: each batch's list
// starts with a counter cell, and each of three anchors per grid cell that
// passes the threshold takes a ticket from it (the copies of the unrolled
// anchor loop) and writes a 7-float record after it, at most MAX_BOXES of
// them, in lists `1 + MAX_BOXES * 7` floats long. Tickets taken at
// different copies of the loop differ too, between threads and within one.
#define MAX_BOXES 1000
struct Detection {
  float bbox[4];
  float conf;
  float class_id;
  float class_conf;
};
__global__ void decode_anchors(const float *input, float *output, int n, int cells, int classes,
                               int out_elems) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  if (idx >= n) return;
  int b = idx / cells;
  idx = idx - cells * b;
  int info = 5 + classes;
  const float *cur = input + b * (info * cells * 3);
  for (int k = 0; k < 3; ++k) {
    float box = cur[idx + k * info * cells + 4 * cells];
    if (box < 0.5f) continue;
    float *res_count = output + b * out_elems;
    int count = (int)atomicAdd(res_count, 1);
    if (count >= MAX_BOXES) return;
    char *data = (char *)res_count + sizeof(float) + count * sizeof(Detection);
    Detection *det = (Detection *)data;
    det->bbox[0] = cur[idx + k * info * cells + 0 * cells];
    det->bbox[1] = cur[idx + k * info * cells + 1 * cells];
    det->bbox[2] = cur[idx + k * info * cells + 2 * cells];
    det->bbox[3] = cur[idx + k * info * cells + 3 * cells];
    det->conf = box;
    det->class_id = k;
    det->class_conf = box;
  }
}

void decode(const float *input, float *output, int cells, int batch, int classes) {
  int out_elems = 1 + MAX_BOXES * sizeof(Detection) / sizeof(float);
  decode_anchors<<<(cells * batch + 255) / 256, 256>>>(input, output, cells * batch, cells, classes,
                                                       out_elems);
}
