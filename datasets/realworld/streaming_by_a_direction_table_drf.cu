// expect: drf
// options: --block-dim 16,16
// Lattice-Boltzmann streaming: each cell sends one value per direction to
// its neighbour, wrapping around the edges, into that direction's plane.
// The offsets and the planes come from tables the kernel's file
// initialises and never copies to: each direction moves the whole lattice
// by one offset, a permutation of its cells, within a plane of its own.
__constant__ int kDx[5] = {0, 1, 0, -1, 0};
__constant__ int kDy[5] = {0, 0, 1, 0, -1};
__constant__ int kPlane[5] = {0, 1, 2, 3, 4};

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
