// expect: drf
// A tiled matrix product that guards each thread against what is left of
// the matrix past its tile's corner (`tx < N - bx * TILE`), the corner
// having been added to the pointers up front. The output cell is row
// `by * TILE + ty` of N columns, column `bx * TILE + tx` below N.
#define TILE 32

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    A += row0 * K;
    B += col0;
    C += row0 * N + col0;
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = ty < M - row0 && tx < K - k0 ? A[ty * K + tx] : 0.0f;
        Bs[ty][tx] = ty < K - k0 && tx < N - col0 ? B[ty * N + tx] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
        A += TILE;
        B += TILE * N;
    }
    if (ty < M - row0 && tx < N - col0)
        C[ty * N + tx] = acc;
}

void launch(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
