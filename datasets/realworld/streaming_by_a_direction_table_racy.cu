// expect: racy
// options: --block-dim 16,16
// streaming_by_a_direction_table_drf.cu with a plane table that puts the
// last two directions in one plane: the cell left of (x, y + 1) gets the
// value moving left from (x + 1, y + 1) and the one moving down from
// (x, y + 2).
__constant__ int kDx[5] = {0, 1, 0, -1, 0};
__constant__ int kDy[5] = {0, 0, 1, 0, -1};
__constant__ int kPlane[5] = {0, 1, 2, 3, 3};

__global__ void stream(const float *f, float *next, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    for (int d = 0; d < 5; ++d) {
        int nx = (x + kDx[d] + width) % width;
        int ny = (y + kDy[d] + height) % height;
        next[kPlane[d] * width * height + ny * width + nx] =
            f[d * width * height + y * width + x];
    }
}
