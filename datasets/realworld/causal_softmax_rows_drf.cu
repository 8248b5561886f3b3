// expect: drf
// Causal softmax over the rows of an (N*T) x T attention matrix, one warp
// per row, blocks taken in reverse order so the longest rows start first.
// Row `idx` is causal: only its first `idx % T + 1` entries are written.
// The loop bound `i <= idx % T` is the thread's own; with `T` an `int` of
// unknown sign, the early return `idx >= N * T` still shows `T` is not 0
// and `i` stays below `|T|`, so rows never overlap.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void causal_softmax_rows(float* out, float inv_temperature,
                                    const float* inp, int N, int T) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int idx = (gridDim.x - blockIdx.x - 1) * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= N * T) {
        return;
    }
    int own_pos = idx % T;
    const float* x = inp + idx * T;
    float maxval = -3.4e38f;
    for (int i = warp.thread_rank(); i <= own_pos; i += warp.size()) {
        maxval = fmaxf(maxval, x[i]);
    }
    maxval = cg::reduce(warp, maxval, cg::greater<float>{});
    float sumval = 0.0f;
    for (int i = warp.thread_rank(); i <= own_pos; i += warp.size()) {
        sumval += expf(inv_temperature * (x[i] - maxval));
    }
    float norm = 1.f / cg::reduce(warp, sumval, cg::plus<float>{});
    for (int i = warp.thread_rank(); i <= own_pos; i += warp.size()) {
        out[idx * T + i] = expf(inv_temperature * (x[i] - maxval)) * norm;
    }
}

void causal_softmax(float* out, float inv_temperature, const float* inp, int N, int T) {
    const int block_size = 256;
    const int grid_size = (N * T * 32 + block_size - 1) / block_size;
    causal_softmax_rows<<<grid_size, block_size>>>(out, inv_temperature, inp, N, T);
}
