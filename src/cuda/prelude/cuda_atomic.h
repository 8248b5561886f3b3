/* drfscan built-in stub of libcu++'s atomics (`cuda/atomic`,
   `cuda/std/atomic`): declarations only. drfscan knows the operations of
   `atomic_ref` and `atomic` by name: each is an atomic on the cell the
   object refers to or is, so it never races with another atomic; loads
   and stores are atomics too, so a plain access of the same cell by
   another thread in the same barrier interval is a race. Orders and
   scopes are accepted and not modelled. */
#ifndef __DRFSCAN_CUDA_ATOMIC_H
#define __DRFSCAN_CUDA_ATOMIC_H
namespace cuda {
/* Also the scope of `cuda/pipeline`'s and `cuda/barrier`'s objects. */
enum thread_scope {
  thread_scope_system,
  thread_scope_device,
  thread_scope_block,
  thread_scope_thread
};
namespace std {
enum memory_order {
  memory_order_relaxed,
  memory_order_consume,
  memory_order_acquire,
  memory_order_release,
  memory_order_acq_rel,
  memory_order_seq_cst
};
}
using std::memory_order;
using std::memory_order_relaxed;
using std::memory_order_consume;
using std::memory_order_acquire;
using std::memory_order_release;
using std::memory_order_acq_rel;
using std::memory_order_seq_cst;

/* The operations every atomic has. */
#define __DRFSCAN_ATOMIC_OPS(T)                                                                        \
  __device__ T load(memory_order = memory_order_seq_cst) const;                                       \
  __device__ operator T() const;                                                                      \
  __device__ void store(T, memory_order = memory_order_seq_cst) const;                                \
  __device__ T exchange(T, memory_order = memory_order_seq_cst) const;                                \
  __device__ bool compare_exchange_strong(T &, T, memory_order = memory_order_seq_cst,                \
                                          memory_order = memory_order_seq_cst) const;                 \
  __device__ bool compare_exchange_weak(T &, T, memory_order = memory_order_seq_cst,                  \
                                        memory_order = memory_order_seq_cst) const;                   \
  __device__ T fetch_add(T, memory_order = memory_order_seq_cst) const;                               \
  __device__ T fetch_sub(T, memory_order = memory_order_seq_cst) const;                               \
  __device__ T fetch_and(T, memory_order = memory_order_seq_cst) const;                               \
  __device__ T fetch_or(T, memory_order = memory_order_seq_cst) const;                                \
  __device__ T fetch_xor(T, memory_order = memory_order_seq_cst) const;                               \
  __device__ T fetch_min(T, memory_order = memory_order_seq_cst) const;                               \
  __device__ T fetch_max(T, memory_order = memory_order_seq_cst) const;                               \
  __device__ T operator++() const;                                                                    \
  __device__ T operator++(int) const;                                                                 \
  __device__ T operator--() const;                                                                    \
  __device__ T operator--(int) const;                                                                 \
  __device__ T operator+=(T) const;                                                                   \
  __device__ T operator-=(T) const;                                                                   \
  __device__ T operator&=(T) const;                                                                   \
  __device__ T operator|=(T) const;                                                                   \
  __device__ T operator^=(T) const;                                                                   \
  __device__ void wait(T, memory_order = memory_order_seq_cst) const;                                 \
  __device__ void notify_one() const;                                                                 \
  __device__ void notify_all() const;                                                                 \
  __device__ bool is_lock_free() const;

/* A reference to a cell of ordinary memory. */
template <class T, thread_scope S = thread_scope_system> struct atomic_ref {
  T *__p;
  __host__ __device__ explicit atomic_ref(T &cell) : __p(&cell) {}
  __DRFSCAN_ATOMIC_OPS(T)
  __device__ T operator=(T) const;
};

/* An atomic object: its value is its own cell. */
template <class T, thread_scope S = thread_scope_system> struct atomic {
  T __v;
  atomic() = default;
  __host__ __device__ constexpr atomic(T v) : __v(v) {}
  __DRFSCAN_ATOMIC_OPS(T)
  __device__ T operator=(T);
};
#undef __DRFSCAN_ATOMIC_OPS


__host__ __device__ inline void atomic_thread_fence(memory_order, thread_scope = thread_scope_system) {}
__host__ __device__ inline void atomic_signal_fence(memory_order) {}

namespace std {
template <class T> using atomic_ref = cuda::atomic_ref<T, thread_scope_system>;
template <class T> using atomic = cuda::atomic<T, thread_scope_system>;
struct atomic_flag {
  int __v;
  __device__ bool test_and_set(memory_order = memory_order_seq_cst);
  __device__ bool test(memory_order = memory_order_seq_cst) const;
  __device__ void clear(memory_order = memory_order_seq_cst);
  __device__ void wait(bool, memory_order = memory_order_seq_cst) const;
  __device__ void notify_one();
  __device__ void notify_all();
};
__host__ __device__ inline void atomic_thread_fence(memory_order) {}
__host__ __device__ inline void atomic_signal_fence(memory_order) {}
}
}
#endif
