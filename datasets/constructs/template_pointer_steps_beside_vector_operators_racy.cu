// expect: racy
// The same walk with the step to the next row forgotten in the source's
// `+=`: `p += 1` moves along the row, so thread `c`'s second cell is thread
// `c + 1`'s first. The steps are operator calls clang leaves unresolved
// (a vector header's `operator+=` is in scope), and they still move `p`.
struct vec2 {
  float x, y;
};
inline __device__ void operator+=(vec2 &a, vec2 b) { a.x += b.x; a.y += b.y; }
inline __device__ void operator-=(vec2 &a, vec2 b) { a.x -= b.x; a.y -= b.y; }
inline __device__ vec2 &operator++(vec2 &a) { a.x += 1; return a; }
inline __device__ vec2 &operator--(vec2 &a) { a.x -= 1; return a; }

template <typename T>
__global__ void columns(T *out, int rows, int width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= width)
    return;
  T *p = out;
  p += col;
  for (int r = 0; r < rows; ++r) {
    *p = r;
    p += 1;
  }
}

template <typename T> void run(T *out, int rows, int width) {
  columns<T><<<(width + 127) / 128, 128>>>(out, rows, width);
}
template void run<float>(float *, int, int);
