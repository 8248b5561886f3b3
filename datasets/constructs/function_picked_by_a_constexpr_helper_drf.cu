// expect: drf
// The loader for a storage format is chosen at compile time: a `constexpr`
// helper returns one of two function templates by the kernel's template
// argument, and the kernel calls it through a pointer. Each thread unpacks
// its own 4 values into shared memory.
typedef void (*unpack_t)(const void *, float *, int);

template <typename T, int ne>
__device__ void unpack_plain(const void *src, float *dst, int i)
{
    for (int l = 0; l < ne; ++l)
        dst[l] = ((const T *)src)[i + l];
}

template <typename T, int ne>
__device__ void unpack_scaled(const void *src, float *dst, int i)
{
    for (int l = 0; l < ne; ++l)
        dst[l] = 0.5f * ((const T *)src)[i + l];
}

template <int format, typename T, int ne>
constexpr __device__ unpack_t pick_unpack()
{
    if constexpr (format == 0) {
        return unpack_plain<T, ne>;
    } else {
        return unpack_scaled<T, ne>;
    }
}

template <int FORMAT, int NE>
__global__ void load_tile(const float *in, float *out)
{
    __shared__ float tile[128 * 4];
    constexpr unpack_t unpack = pick_unpack<FORMAT, float, NE>();
    unpack(in + blockIdx.x * 512, &tile[threadIdx.x * 4], threadIdx.x * 4);
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = tile[(threadIdx.x * 4 + 4) % 512];
}

void launch(const float *in, float *out, int blocks)
{
    load_tile<0, 4><<<blocks, 128>>>(in, out);
    load_tile<1, 4><<<blocks, 128>>>(in, out);
}
