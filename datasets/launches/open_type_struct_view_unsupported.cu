// expect: unsupported
// A vector of an open element type moved as one struct through a cast
// (`*reinterpret_cast<U *>(&out[idx])` with `U { scalar_t data[8]; }` and
// `scalar_t` a template parameter left open): the struct's size in
// elements is unknown to the analysis, so counting the store as one element
// would miss the overlap of this kernel's stores, which step by half a
// vector. The kernel is reported unsupported, with the reason.
template <typename scalar_t, int VEC>
__global__ void vcopy(scalar_t *out, const scalar_t *in) {
    struct alignas(sizeof(scalar_t) * VEC) U {
        scalar_t data[VEC];
    };
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * (VEC / 2);
    U u = *reinterpret_cast<U const *>(&in[idx]);
    *reinterpret_cast<U *>(&out[idx]) = u;
}

template <typename T>
void copy(T *out, const T *in, int n) {
    vcopy<T, 8><<<n / 256, 256>>>(out, in);
}
