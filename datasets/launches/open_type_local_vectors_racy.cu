// expect: racy
// As `open_type_local_vectors_drf.cu`, but the stores step by half a vector
// (`* (VEC / 2)`): each thread's 8 stores overlap the next thread's.
template <typename scalar_t, int VEC, int LOOP>
__global__ void vscale(scalar_t *out, const scalar_t *in) {
    struct U {
        scalar_t data[VEC];
    };
    U ux[LOOP];
    U uo[LOOP];
    for (int k = 0; k < LOOP; k++) {
        int idx = ((blockIdx.x * LOOP + k) * blockDim.x + threadIdx.x) * VEC;
        for (int i = 0; i < VEC; i++)
            ux[k].data[i] = in[idx + i];
    }
    for (int k = 0; k < LOOP; k++)
        for (int i = 0; i < VEC; i++)
            uo[k].data[i] = ux[k].data[i] * scalar_t(2);
    for (int k = 0; k < LOOP; k++) {
        int idx = ((blockIdx.x * LOOP + k) * blockDim.x + threadIdx.x) * (VEC / 2);
        for (int i = 0; i < VEC; i++)
            out[idx + i] = uo[k].data[i];
    }
}

template <typename T>
void scale(T *out, const T *in, int n) {
    vscale<T, 8, 2><<<n / (128 * 8 * 2), 128>>>(out, in);
}
