// expect: drf
// Detections bucketed by image: each image has its own counter, and a
// thread stores into the slot its image's counter hands it. Two threads of
// one image get different slots; two images' buckets never meet. The
// counter cell depends on the thread, so the slots are distinct only
// when the cells are the same.

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
  buckets[image * capacity + slot] = boxes[i];
}

void detect(const float *scores, const Box *boxes, int *counts, Box *buckets,
            int per_image, int capacity, int images) {
  int total = per_image * images;
  bucket_detections<<<(total + 255) / 256, 256>>>(scores, boxes, counts,
                                                  buckets, per_image, capacity,
                                                  total);
}
