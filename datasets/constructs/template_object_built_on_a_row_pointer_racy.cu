// expect: racy
// template_object_built_on_a_row_pointer_drf.cu with rows one cell apart:
// a thread's second key lands on the next thread's first.
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
    Row<T> row(best + q, index + q, k);
    for (int i = 0; i < n; ++i)
        row.put(i, dist[q * n + i], i);
}

template __global__ void first_k<float>(const float *, float *, int *, int, int);
