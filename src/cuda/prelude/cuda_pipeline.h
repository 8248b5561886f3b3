/* drfscan built-in stub of the asynchronous copy headers (`cuda/pipeline`,
   `cuda/barrier`, `cuda_pipeline.h`): declarations only. drfscan knows
   `cuda::memcpy_async` and `__pipeline_memcpy_async` by name (the thread's
   or its group's copy of the cells, taken to land where it is issued),
   and `arrive_and_wait` on a block-scoped `cuda::barrier` as the block's
   barrier. Waits on a thread's own copies order nothing between threads. */
#ifndef __DRFSCAN_CUDA_PIPELINE_H
#define __DRFSCAN_CUDA_PIPELINE_H
#include <cooperative_groups.h>
#include <cuda/atomic>
namespace cuda {
template <size_t N> struct aligned_size_t {
  size_t value;
  __host__ __device__ explicit aligned_size_t(size_t v) : value(v) {}
  __host__ __device__ operator size_t() const { return value; }
};
enum class pipeline_role { producer, consumer };
template <thread_scope S, unsigned char Stages = 2> struct pipeline_shared_state {
  char state[8 * Stages];
};
template <thread_scope S> class pipeline {
public:
  __device__ void producer_acquire();
  __device__ void producer_commit();
  __device__ void consumer_wait();
  __device__ void consumer_release();
  __device__ bool quit();
};
__device__ pipeline<thread_scope_thread> make_pipeline();
template <class G, thread_scope S, unsigned char N>
__device__ pipeline<S> make_pipeline(const G &, pipeline_shared_state<S, N> *);
template <class G, thread_scope S, unsigned char N>
__device__ pipeline<S> make_pipeline(const G &, pipeline_shared_state<S, N> *, size_t);
template <class G, thread_scope S, unsigned char N>
__device__ pipeline<S> make_pipeline(const G &, pipeline_shared_state<S, N> *, pipeline_role);
template <unsigned char Prior> __device__ void pipeline_consumer_wait_prior(pipeline<thread_scope_thread> &);
template <thread_scope S> class barrier {
public:
  typedef long long arrival_token;
  __device__ arrival_token arrive(long long update = 1);
  __device__ void wait(arrival_token &&) const;
  __device__ void arrive_and_wait();
  __device__ void arrive_and_drop();
};
template <thread_scope S> __device__ void init(barrier<S> *, long long);
template <thread_scope S> __device__ void pipeline_producer_commit(pipeline<thread_scope_thread> &, barrier<S> &);
template <class T, class Size, class Sync> __device__ void memcpy_async(T *, const T *, Size, Sync &);
template <class Size, class Sync> __device__ void memcpy_async(void *, const void *, Size, Sync &);
template <class G, class T, class Size, class Sync> __device__ void memcpy_async(const G &, T *, const T *, Size, Sync &);
template <class G, class Size, class Sync> __device__ void memcpy_async(const G &, void *, const void *, Size, Sync &);
}
__device__ void __pipeline_memcpy_async(void *, const void *, size_t, size_t = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t);
#endif
