// expect: drf
// Pooling in the style of darknet: the flat id is split into column, row,
// channel and batch by dividing it in place (`j = id % w; id /= w; …`),
// with sizes computed from the layer's parameters, and the output cell
// is rebuilt from those digits, `j + w * (i + h * (k + c * b))`: the id
// again.
__global__ void pool_forward(int n, int in_h, int in_w, int in_c, int stride,
                             int size, int pad, const float *input, float *output)
{
    int h = (in_h + pad - size) / stride + 1;
    int w = (in_w + pad - size) / stride + 1;
    int c = in_c;
    int id = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
    if (id >= n)
        return;
    int j = id % w;
    id /= w;
    int i = id % h;
    id /= h;
    int k = id % c;
    id /= c;
    int b = id;
    float best = -1e30f;
    for (int l = 0; l < size; ++l)
        for (int m = 0; m < size; ++m) {
            int y = i * stride + l - pad / 2;
            int x = j * stride + m - pad / 2;
            if (y >= 0 && y < in_h && x >= 0 && x < in_w)
                best = fmaxf(best, input[x + in_w * (y + in_h * (k + b * in_c))]);
        }
    output[j + w * (i + h * (k + c * b))] = best;
}
