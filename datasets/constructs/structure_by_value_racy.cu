// expect: racy
// The slice a structure returned by value points at is half a block wide
// while every thread of the block writes its cell of it: block `b`'s upper
// half writes the cells of block `b + 1`'s lower half.
struct Span {
  int len;
  float *data;
};

__device__ Span part(Span all, int b, int n) {
  Span p;
  p.len = 2 * n;
  p.data = all.data + b * n;
  return p;
}

__device__ void put(Span s, int i, float v) {
  if (i < s.len)
    s.data[i] = v;
}

__global__ void fill(Span all, float v) {
  Span mine = part(all, blockIdx.x, blockDim.x / 2);
  put(mine, threadIdx.x, v * threadIdx.x);
}

int main() {
  Span all;
  fill<<<32, 128>>>(all, 2.0f);
  return 0;
}
