// expect: drf
// A template kernel walks a `T *` pointer with `+=`, `++` and `--` while a
// vector header's `operator+=` (and friends) are in scope: clang then leaves
// each step an unresolved operator call. Every thread owns a column of
// `rows` cells strided by `width`, so the walks never meet.
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
    p += width;
  }
  T *q = out + col;
  ++q;
  --q;
  *q = 0;
}

template <typename T> void run(T *out, int rows, int width) {
  columns<T><<<(width + 127) / 128, 128>>>(out, rows, width);
}
template void run<float>(float *, int, int);
