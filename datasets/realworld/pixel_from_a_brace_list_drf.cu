// expect: drf
// options: --block-dim 16,16
// An image kernel whose pixel is a structure set from a brace list, `uint2
// pix = { x0 + threadIdx.x, y0 + threadIdx.y }`, and whose fields make the
// pixel's index.
#define TILE 16

__global__ void shade(int W, int H, const float *in, float *out)
{
    uint2 corner = { blockIdx.x * TILE, blockIdx.y * TILE };
    uint2 pix = { corner.x + threadIdx.x, corner.y + threadIdx.y };
    float2 scale = { 0.5f, 2.0f };
    if (pix.x < W && pix.y < H) {
        unsigned id = W * pix.y + pix.x;
        out[id] = in[id] * scale.x + scale.y;
    }
}
