// expect: racy
// Each image has its own counter, but the slot is used as an index into
// one array shared by all images: the first detection of image 0 and the
// first of image 1 both get slot 0 and store into the same box.

struct Box {
  float x, y, w, h, score;
};

__global__ void bucket_detections(const float *scores, const Box *boxes,
                                  int *counts, Box *buckets, int per_image,
                                  int capacity, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total)
    return;
  if (scores[i] < 0.25f)
    return;
  int image = i / per_image;
  int slot = atomicAdd(&counts[image], 1);
  if (slot < 0 || slot >= capacity)
    return;
  buckets[slot] = boxes[i];
}

void detect(const float *scores, const Box *boxes, int *counts, Box *buckets,
            int per_image, int capacity, int images) {
  int total = per_image * images;
  bucket_detections<<<(total + 255) / 256, 256>>>(scores, boxes, counts,
                                                  buckets, per_image, capacity,
                                                  total);
}
