// expect: drf
// 3-D max pooling, one output cell per thread over a grid that rounds
// each axis up. One early return covers the three axes with `||`; below
// it every coordinate lies inside its axis, so the row-major output cells
// of two threads differ.
__global__ void maxpool3d(const float *in, float *out, int stride,
                          int count, int in_w, int in_h, int out_w, int out_h) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= out_w || y >= out_h || z >= count)
        return;
    float best = 0.0f;
    for (int r = 0; r < stride; r++)
        for (int c = 0; c < stride; c++)
            best = fmaxf(best, in[(z * in_h + y * stride + r) * in_w + x * stride + c]);
    out[(z * out_h + y) * out_w + x] = best;
}

void pool(const float *in, float *out, int stride, int count, int in_w, int in_h) {
    int out_w = in_w / stride, out_h = in_h / stride;
    dim3 block(8, 8, 4);
    dim3 grid((out_w + 7) / 8, (out_h + 7) / 8, (count + 3) / 4);
    maxpool3d<<<grid, block>>>(in, out, stride, count, in_w, in_h, out_w, out_h);
}
