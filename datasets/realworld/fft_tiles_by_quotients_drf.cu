// expect: drf
// Each thread copies one coefficient into the zero-padded FFT input: term
// `t`, row `i`, column `j` of an `n_half` x `n_half` tile placed in an
// `n` x `n` plane. The three are the quotient and remainders of the
// thread's global id; with `n_half <= n` the planes' cells never meet.
// Equal digits of two ids mean equal ids: the proof rebuilds the id from
// its quotient and remainder instead of multiplying back.
__global__ void copy_into_padded_planes(float *planes, const float *coeffs,
                                        const int n, const int n_half,
                                        const int terms) {
    __requires(n_half <= n);
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id >= terms * n_half * n_half)
        return;
    int t = id / (n_half * n_half);
    int loc = id % (n_half * n_half);
    int i = loc / n_half;
    int j = loc % n_half;
    planes[t * (n * n) + i * n + j] = coeffs[t + loc * terms];
}
