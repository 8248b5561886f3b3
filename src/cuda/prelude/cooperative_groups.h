/* drfscan built-in stub of cooperative groups: the block-wide group's
   `sync()` is a barrier and its `thread_rank()` the linear thread id;
   smaller groups only order threads of one warp, which the analysis does not
   count on. */
#ifndef __DRFSCAN_COOPERATIVE_GROUPS_H
#define __DRFSCAN_COOPERATIVE_GROUPS_H
namespace cooperative_groups {
struct thread_block {
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
};
struct grid_group {
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
};
struct coalesced_group {
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
};
template <unsigned int N> struct thread_block_tile {
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int meta_group_rank() const;
  template <class T> __device__ T shfl(T, int) const;
  template <class T> __device__ T shfl_down(T, unsigned int) const;
  template <class T> __device__ T shfl_up(T, unsigned int) const;
  template <class T> __device__ T shfl_xor(T, int) const;
  __device__ int any(int) const;
  __device__ int all(int) const;
  __device__ unsigned int ballot(int) const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned int N> __device__ thread_block_tile<N> tiled_partition(const thread_block &);
__device__ void sync(const thread_block &);
__device__ void sync(const grid_group &);
template <unsigned int N> __device__ void sync(const thread_block_tile<N> &);
}
#endif
