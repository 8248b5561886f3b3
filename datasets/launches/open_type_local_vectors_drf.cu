// expect: drf
// A kernel template launched from a host template that leaves its element
// type open (`vscale<T, 8, 2>`), in the style of PyTorch extension kernels:
// each thread keeps 8-element vectors in local arrays of a struct declared
// in the kernel (`struct U { scalar_t data[VEC]; }`). With `scalar_t` open,
// clang gives `uo[k].data` no type of its own; the field's declaration
// shows it is an array, so `uo[k].data[i]` is the thread's own storage.
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
        int idx = ((blockIdx.x * LOOP + k) * blockDim.x + threadIdx.x) * VEC;
        for (int i = 0; i < VEC; i++)
            out[idx + i] = uo[k].data[i];
    }
}

template <typename T>
void scale(T *out, const T *in, int n) {
    vscale<T, 8, 2><<<n / (128 * 8 * 2), 128>>>(out, in);
}
