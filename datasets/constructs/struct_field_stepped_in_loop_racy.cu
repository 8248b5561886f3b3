// expect: racy
// A cursor structure whose field halves once per level: after two levels
// or more, neighbouring threads reach the same ancestor and store different
// values to it. The field's value after the loop is no value of one
// iteration.
struct Cursor {
  int index;
  int level;
};

__global__ void climb(int *tree, int levels) {
  Cursor at;
  at.index = 2 * (blockDim.x + threadIdx.x);
  at.level = 0;
  for (int l = 0; l < levels; ++l) {
    at.index /= 2;
  }
  tree[at.index] = threadIdx.x;
}
