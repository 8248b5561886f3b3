// expect: racy
// As `fft_tiles_by_quotients_drf.cu` without the caller's promise that
// a tile fits its plane: with `n < n_half` the rows of one tile overlap
// (`i * n + j` repeats), and the report suggests the missing
// `__requires(n >= n_half)`.
__global__ void copy_into_padded_planes(float *planes, const float *coeffs,
                                        const int n, const int n_half,
                                        const int terms) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id >= terms * n_half * n_half)
        return;
    int t = id / (n_half * n_half);
    int loc = id % (n_half * n_half);
    int i = loc / n_half;
    int j = loc % n_half;
    planes[t * (n * n) + i * n + j] = coeffs[t + loc * terms];
}
