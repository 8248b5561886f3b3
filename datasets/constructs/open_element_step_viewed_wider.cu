// expect: unsupported
// A kernel template steps a pointer in elements of its open type `T`
// (`data + 2 * c`) and stores a 16-byte vector there. How many elements
// the vector covers depends on `sizeof(T)`, which no instantiation gives:
// for `float` the stores of neighbouring threads overlap, for `double`
// they do not. Counting in cells of `T` would hide the overlap.
template <typename T> __global__ void clear_pairs(T *data) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  *reinterpret_cast<float4 *>(data + 2 * c) = make_float4(0.f, 0.f, 0.f, 0.f);
}
