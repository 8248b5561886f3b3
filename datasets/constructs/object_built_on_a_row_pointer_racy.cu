// expect: racy
// object_built_on_a_row_pointer_drf.cu with rows one cell apart instead of
// k: a thread's second key lands on the next thread's first.
struct Row {
    float *keys;
    int *vals;
    int k;
    __device__ Row(float *keys, int *vals, int k) : keys(keys), vals(vals), k(k) {}
    __device__ void put(int i, float key, int val)
    {
        if (i < k) {
            keys[i] = key;
            vals[i] = val;
        }
    }
};

__global__ void first_k(const float *dist, float *best, int *index, int n, int k)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    Row row(best + q, index + q, k);
    for (int i = 0; i < n; ++i)
        row.put(i, dist[q * n + i], i);
}
