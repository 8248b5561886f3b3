// expect: racy
// options: --block-dim 16,16
// pixel_from_a_brace_list_drf.cu leaving the row's thread out of the
// brace list (`{ corner.x + threadIdx.x, corner.y }`): the 16 rows of a
// block write one image row.
#define TILE 16

__global__ void shade(int W, int H, const float *in, float *out)
{
    uint2 corner = { blockIdx.x * TILE, blockIdx.y * TILE };
    uint2 pix = { corner.x + threadIdx.x, corner.y };
    float2 scale = { 0.5f, 2.0f };
    if (pix.x < W && pix.y < H) {
        unsigned id = W * pix.y + pix.x;
        out[id] = in[id] * scale.x + scale.y;
    }
}
