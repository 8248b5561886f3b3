// expect: drf
// Each thread fills its own row of two output arrays through an object
// built from the row pointers: a constructor that sets its pointer fields
// from its parameters, and a method that writes through them, never past
// the row's k cells.
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
    Row row(best + q * k, index + q * k, k);
    for (int i = 0; i < n; ++i)
        row.put(i, dist[q * n + i], i);
}
