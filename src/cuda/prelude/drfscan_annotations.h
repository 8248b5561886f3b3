/* GPUVerify's annotation language for drfscan: included by the built-in
   prelude and, with a real CUDA toolkit, by drfscan_toolkit.h. */
#ifndef __DRFSCAN_ANNOTATIONS_H
#define __DRFSCAN_ANNOTATIONS_H

/* GPUVerify's annotation language, as its front-end declares it. drfscan
   gives `__requires`/`__assume` (and `__implies`, `__all`, `__is_pow2`
   inside them) their meaning; the rest is accepted and has no effect: loop
   invariants, access predicates, postconditions. Pointers are taken as
   `const volatile void *` so that any array or pointer fits. */
__device__ void __requires(bool);
__device__ void __assume(bool);
__device__ void __assert(bool);
__device__ void __ensures(bool);
__device__ void __invariant(bool);
__device__ void __candidate_invariant(bool);
__device__ void __global_invariant(bool);
__device__ void __candidate_global_invariant(bool);
__device__ void __global_assert(bool);
__device__ void __global_ensures(bool);
__device__ void __requires_fresh_array(const volatile void *);
__device__ bool __implies(bool, bool);
__device__ bool __enabled(void);
__device__ bool __all(bool);
__device__ bool __at_most_one(bool);
__device__ bool __same_group(void);
__device__ bool __is_pow2(unsigned long long);
__device__ unsigned int __mod_pow2(unsigned int, unsigned int);
__device__ bool __uniform_int(long long);
__device__ bool __uniform_bool(bool);
__device__ bool __distinct_int(long long);
__device__ bool __distinct_bool(bool);
__device__ int __other_int(int);
__device__ bool __other_bool(bool);
__device__ int __old_int(int);
__device__ bool __old_bool(bool);
__device__ int __return_val_int(void);
__device__ bool __return_val_bool(void);
__device__ void *__return_val_ptr(void);
/* GPUVerify spells the function pointer's type: `__return_val_funptr(f_t)`. */
#define __return_val_funptr(T) ((T)0)
__device__ bool __read(const volatile void *);
__device__ bool __write(const volatile void *);
__device__ bool __atomic(const volatile void *);
__device__ bool __no_read(const volatile void *);
__device__ bool __no_write(const volatile void *);
__device__ bool __no_atomic(const volatile void *);
__device__ bool __read_implies(const volatile void *, bool);
__device__ bool __write_implies(const volatile void *, bool);
__device__ bool __atomic_implies(const volatile void *, bool);
__device__ size_t __read_offset_bytes(const volatile void *);
__device__ size_t __write_offset_bytes(const volatile void *);
__device__ size_t __atomic_offset_bytes(const volatile void *);
__device__ size_t __ptr_offset_bytes(const volatile void *);
__device__ const void *__ptr_base(const volatile void *);
__device__ bool __add_noovfl(int, int);
__device__ bool __add_noovfl_unsigned(unsigned int, unsigned int);
__device__ bool __add_noovfl_signed(int, int);
__device__ void __array_snapshot(const volatile void *, const volatile void *);
__device__ void __non_temporal_loads_begin(void);
__device__ void __non_temporal_loads_end(void);
#define __barrier_invariant(...)
#define __barrier_invariant_binary(...)
#define __function_wide_invariant(X)
#define __function_wide_candidate_invariant(X)
#define __global_requires(X) __requires(X)
/* `__axiom(c);` at file scope: every kernel assumes `c`. An enumerator
   sized by the condition keeps it in the tree, in a form valid in any
   scope (inside a function it has no effect). */
#define __DRFSCAN_CAT2(A, B) A##B
#define __DRFSCAN_CAT(A, B) __DRFSCAN_CAT2(A, B)
#define __axiom(X) enum { __DRFSCAN_CAT(__drfscan_axiom_, __COUNTER__) = sizeof((X)) }

#endif
