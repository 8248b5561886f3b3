// expect: drf
// An image filter in the shape of the CUDA samples' surface examples:
// each thread reads its pixel through a texture, scales it in place in a
// second surface (read, then write, of its own four bytes) and writes the
// result to the output surface at byte x * sizeof(float) of row y.
__global__ void scale_pixels(cudaTextureObject_t in, cudaSurfaceObject_t work,
                             cudaSurfaceObject_t out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float v = tex2D<float>(in, x + 0.5f, y + 0.5f);
    float w;
    surf2Dread(&w, work, x * sizeof(float), y);
    surf2Dwrite(w * v, work, x * sizeof(float), y);
    surf2Dwrite(v * 0.5f, out, x * sizeof(float), y);
  }
}

void scale(cudaTextureObject_t in, cudaSurfaceObject_t work,
           cudaSurfaceObject_t out, int width, int height) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  scale_pixels<<<grid, block>>>(in, work, out, width, height);
}
