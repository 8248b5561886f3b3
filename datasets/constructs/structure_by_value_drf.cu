// expect: drf
// A structure of a pointer and a length passed by value through device
// functions, in the style of the programming guide's `Matrix`: `part`
// returns a copy pointing at the block's own slice, `forget` empties only
// its own copy, and each thread writes its cell of its block's slice.
struct Span {
  int len;
  float *data;
};

__device__ Span part(Span all, int b, int n) {
  Span p;
  p.len = n;
  p.data = all.data + b * n;
  return p;
}

__device__ void forget(Span s) { s.len = 0; }

__device__ void put(Span s, int i, float v) {
  if (i < s.len)
    s.data[i] = v;
}

__global__ void fill(Span all, float v) {
  Span mine = part(all, blockIdx.x, blockDim.x);
  forget(mine);
  put(mine, threadIdx.x, v * threadIdx.x);
}

int main() {
  Span all;
  fill<<<32, 128>>>(all, 2.0f);
  return 0;
}
