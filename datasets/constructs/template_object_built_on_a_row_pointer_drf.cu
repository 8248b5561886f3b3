// expect: drf
// object_built_on_a_row_pointer_drf.cu as templates: inside the kernel
// template clang keeps `Row<T> row(...)` as a list of arguments, and the
// class template's constructor of that many parameters builds the row.
template <typename T>
struct Row {
    T *keys;
    int *vals;
    int k;
    __device__ Row(T *keys, int *vals, int k) : keys(keys), vals(vals), k(k) {}
    __device__ void put(int i, T key, int val)
    {
        if (i < k) {
            keys[i] = key;
            vals[i] = val;
        }
    }
};

template <typename T>
__global__ void first_k(const T *dist, T *best, int *index, int n, int k)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    Row<T> row(best + q * k, index + q * k, k);
    for (int i = 0; i < n; ++i)
        row.put(i, dist[q * n + i], i);
}

template __global__ void first_k<float>(const float *, float *, int *, int, int);
