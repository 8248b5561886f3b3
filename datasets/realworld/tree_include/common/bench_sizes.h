// Sizes a benchmark suite keeps in a shared directory; its build passes
// `-I ../common`, which drfscan does not see.
#ifndef BENCH_SIZES_H
#define BENCH_SIZES_H
#define TILE 16
#define CLAMP(x, hi) ((x) < (hi) ? (x) : (hi))
#endif
