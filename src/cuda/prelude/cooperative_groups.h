/* drfscan built-in stub of cooperative groups: the block-wide group's
   `sync()` is a barrier and its `thread_rank()` the linear thread id;
   smaller groups only order threads of one warp, which the analysis does not
   count on, and a grid's `sync()` is not modelled as a barrier. */
#ifndef __DRFSCAN_COOPERATIVE_GROUPS_H
#define __DRFSCAN_COOPERATIVE_GROUPS_H
namespace cooperative_groups {
struct thread_group {
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
};
struct thread_block : thread_group {
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
struct grid_group : thread_group {
  __device__ void sync() const;
  __device__ bool is_valid() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
};
struct coalesced_group : thread_group {
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T, unsigned int) const;
  template <class T> __device__ T shfl_down(T, unsigned int) const;
  template <class T> __device__ T shfl_up(T, unsigned int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
  __device__ unsigned int ballot(int) const;
};
template <unsigned int N, class Parent = void> struct thread_block_tile : thread_group {
  static constexpr unsigned int num_threads_value = N;
  __device__ thread_block_tile() {}
  template <class P> __device__ thread_block_tile(const thread_block_tile<N, P> &) {}
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T, int) const;
  template <class T> __device__ T shfl_down(T, unsigned int) const;
  template <class T> __device__ T shfl_up(T, unsigned int) const;
  template <class T> __device__ T shfl_xor(T, int) const;
  template <class T> __device__ unsigned int match_any(T) const;
  template <class T> __device__ unsigned int match_all(T, int &) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
  __device__ unsigned int ballot(int) const;
};
template <unsigned int N> struct block_tile_memory { unsigned char data[N * 8]; };
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned int N, class P> __device__ thread_block_tile<N, P> tiled_partition(const P &);
template <unsigned int N> __device__ thread_block_tile<N, thread_block> tiled_partition(const thread_block &);
__device__ thread_group tiled_partition(const thread_group &, unsigned int);
__device__ thread_group tiled_partition(const thread_block &, unsigned int);
__device__ coalesced_group binary_partition(const coalesced_group &, bool);
template <unsigned int N, class P> __device__ coalesced_group binary_partition(const thread_block_tile<N, P> &, bool);
__device__ coalesced_group labeled_partition(const coalesced_group &, int);
template <unsigned int N, class P> __device__ coalesced_group labeled_partition(const thread_block_tile<N, P> &, int);
template <unsigned int N> __device__ thread_block this_thread_block(block_tile_memory<N> &);
__device__ void sync(const thread_group &);
__device__ void sync(const thread_block &);
__device__ void sync(const grid_group &);
__device__ void sync(const coalesced_group &);
template <unsigned int N, class P> __device__ void sync(const thread_block_tile<N, P> &);
/* GPUVerify's spelling of `sync`. */
__device__ void synchronize(const thread_block &);
__device__ void synchronize(const grid_group &);
template <class G> __device__ unsigned long long thread_rank(const G &);
template <class G> __device__ unsigned long long group_size(const G &);
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <class G, class T, class Op> __device__ T reduce(const G &, T, Op);
template <class G, class T, class Op> __device__ T inclusive_scan(const G &, T, Op);
template <class G, class T> __device__ T inclusive_scan(const G &, T);
template <class G, class T, class Op> __device__ T exclusive_scan(const G &, T, Op);
template <class G, class T> __device__ T exclusive_scan(const G &, T);
template <class G, class F> __device__ void invoke_one(const G &, F &&);
template <class G> __device__ void wait(const G &);
template <class G> __device__ void wait_prior(const G &);
template <class G, class T> __device__ void memcpy_async(const G &, T *, const T *, size_t);
}
#endif
