/* drfscan built-in stub of CUB: declarations only. drfscan models the
   block-wide collectives `BlockReduce` and `BlockScan` by name (each thread
   stores into the temporary storage, the block synchronizes, every thread
   may read all of it), the warp-wide `WarpReduce` and `WarpScan` as
   shuffles, and the direct loads and stores by the cells they name; it
   reports kernels using the other block-wide collectives as unsupported. The device-wide algorithms are host calls. */
#ifndef __DRFSCAN_CUB_CUH
#define __DRFSCAN_CUB_CUH
namespace cub {

struct Sum {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
struct Max {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class K, class V> struct KeyValuePair {
  K key;
  V value;
  __host__ __device__ KeyValuePair() {}
  __host__ __device__ KeyValuePair(const K &k, const V &v) : key(k), value(v) {}
};
struct ArgMax {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const;
};
struct ArgMin {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const;
};

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
public:
  struct TempStorage {
    T cells[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z];
  };
  __device__ BlockReduce();
  __device__ BlockReduce(TempStorage &temp_storage);
  template <class Op> __device__ T Reduce(T input, Op reduction_op);
  template <int N, class Op> __device__ T Reduce(T (&inputs)[N], Op reduction_op);
  template <class Op> __device__ T Reduce(T input, Op reduction_op, int num_valid);
  __device__ T Sum(T input);
  template <int N> __device__ T Sum(T (&inputs)[N]);
  __device__ T Sum(T input, int num_valid);
};

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
public:
  struct TempStorage {
    T cells[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z];
  };
  __device__ BlockScan();
  __device__ BlockScan(TempStorage &temp_storage);
  __device__ void ExclusiveSum(T input, T &output);
  __device__ void ExclusiveSum(T input, T &output, T &block_aggregate);
  template <class P> __device__ void ExclusiveSum(T input, T &output, P &block_prefix_callback_op);
  template <int N> __device__ void ExclusiveSum(T (&input)[N], T (&output)[N]);
  template <int N> __device__ void ExclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate);
  template <int N, class P>
  __device__ void ExclusiveSum(T (&input)[N], T (&output)[N], P &block_prefix_callback_op);
  __device__ void InclusiveSum(T input, T &output);
  __device__ void InclusiveSum(T input, T &output, T &block_aggregate);
  template <class P> __device__ void InclusiveSum(T input, T &output, P &block_prefix_callback_op);
  template <int N> __device__ void InclusiveSum(T (&input)[N], T (&output)[N]);
  template <int N> __device__ void InclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate);
  template <int N, class P>
  __device__ void InclusiveSum(T (&input)[N], T (&output)[N], P &block_prefix_callback_op);
  template <class Op> __device__ void ExclusiveScan(T input, T &output, T initial_value, Op scan_op);
  template <class Op>
  __device__ void ExclusiveScan(T input, T &output, T initial_value, Op scan_op, T &block_aggregate);
  template <class Op, class P>
  __device__ void ExclusiveScan(T input, T &output, Op scan_op, P &block_prefix_callback_op);
  template <int N, class Op>
  __device__ void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op scan_op);
  template <int N, class Op>
  __device__ void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, Op scan_op,
                                T &block_aggregate);
  template <class Op> __device__ void InclusiveScan(T input, T &output, Op scan_op);
  template <class Op> __device__ void InclusiveScan(T input, T &output, Op scan_op, T &block_aggregate);
  template <int N, class Op> __device__ void InclusiveScan(T (&input)[N], T (&output)[N], Op scan_op);
  template <int N, class Op>
  __device__ void InclusiveScan(T (&input)[N], T (&output)[N], Op scan_op, T &block_aggregate);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0> class WarpReduce {
public:
  struct TempStorage {
    T cells[LOGICAL_WARP_THREADS];
  };
  __device__ WarpReduce(TempStorage &temp_storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int valid_items);
  template <class Op> __device__ T Reduce(T input, Op reduction_op);
  template <class Op> __device__ T Reduce(T input, Op reduction_op, int valid_items);
  template <class F> __device__ T HeadSegmentedSum(T input, F head_flag);
  template <class F> __device__ T TailSegmentedSum(T input, F tail_flag);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0> class WarpScan {
public:
  struct TempStorage {
    T cells[LOGICAL_WARP_THREADS];
  };
  __device__ WarpScan(TempStorage &temp_storage);
  __device__ void InclusiveSum(T input, T &inclusive_output);
  __device__ void InclusiveSum(T input, T &inclusive_output, T &warp_aggregate);
  __device__ void ExclusiveSum(T input, T &exclusive_output);
  __device__ void ExclusiveSum(T input, T &exclusive_output, T &warp_aggregate);
  template <class Op> __device__ void InclusiveScan(T input, T &inclusive_output, Op scan_op);
  template <class Op>
  __device__ void InclusiveScan(T input, T &inclusive_output, Op scan_op, T &warp_aggregate);
  template <class Op> __device__ void ExclusiveScan(T input, T &exclusive_output, Op scan_op);
  template <class Op>
  __device__ void ExclusiveScan(T input, T &exclusive_output, T initial_value, Op scan_op);
  template <class Op>
  __device__ void ExclusiveScan(T input, T &exclusive_output, T initial_value, Op scan_op,
                                T &warp_aggregate);
  __device__ T Broadcast(T input, unsigned int src_lane);
};

/* A thread's items, directly: blocked (`ITEMS` consecutive cells from
   `linear_tid * ITEMS`) or striped (from `linear_tid`, `BLOCK_THREADS`
   apart), only below `valid_items` when given. */
template <class T, int N, class I> __device__ void LoadDirectBlocked(int linear_tid, I block_itr, T (&items)[N]);
template <class T, int N, class I>
__device__ void LoadDirectBlocked(int linear_tid, I block_itr, T (&items)[N], int valid_items);
template <class T, class D, int N, class I>
__device__ void LoadDirectBlocked(int linear_tid, I block_itr, T (&items)[N], int valid_items, D oob_default);
template <int BLOCK_THREADS, class T, int N, class I>
__device__ void LoadDirectStriped(int linear_tid, I block_itr, T (&items)[N]);
template <int BLOCK_THREADS, class T, int N, class I>
__device__ void LoadDirectStriped(int linear_tid, I block_itr, T (&items)[N], int valid_items);
template <int BLOCK_THREADS, class T, class D, int N, class I>
__device__ void LoadDirectStriped(int linear_tid, I block_itr, T (&items)[N], int valid_items, D oob_default);
template <class T, int N, class O> __device__ void StoreDirectBlocked(int linear_tid, O block_itr, T (&items)[N]);
template <class T, int N, class O>
__device__ void StoreDirectBlocked(int linear_tid, O block_itr, T (&items)[N], int valid_items);
template <int BLOCK_THREADS, class T, int N, class O>
__device__ void StoreDirectStriped(int linear_tid, O block_itr, T (&items)[N]);
template <int BLOCK_THREADS, class T, int N, class O>
__device__ void StoreDirectStriped(int linear_tid, O block_itr, T (&items)[N], int valid_items);

/* Declared so that kernels using them parse. drfscan models BlockLoad's
   Load and BlockStore's Store and reports the others unsupported. */
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
public:
  struct TempStorage {
    T cells[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD];
  };
  __device__ BlockLoad();
  __device__ BlockLoad(TempStorage &temp_storage);
  template <class I> __device__ void Load(I block_src_it, T (&dst_items)[ITEMS_PER_THREAD]);
  template <class I>
  __device__ void Load(I block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end);
  template <class I, class D>
  __device__ void Load(I block_src_it, T (&dst_items)[ITEMS_PER_THREAD], int block_items_end, D oob_default);
};
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
public:
  struct TempStorage {
    T cells[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD];
  };
  __device__ BlockStore();
  __device__ BlockStore(TempStorage &temp_storage);
  template <class I> __device__ void Store(I block_dst_it, T (&items)[ITEMS_PER_THREAD]);
  template <class I> __device__ void Store(I block_dst_it, T (&items)[ITEMS_PER_THREAD], int valid_items);
};
template <class K, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class V = int, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
public:
  struct TempStorage {
    K cells[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD];
  };
  __device__ BlockRadixSort();
  __device__ BlockRadixSort(TempStorage &temp_storage);
  __device__ void Sort(K (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(K) * 8);
  __device__ void Sort(K (&keys)[ITEMS_PER_THREAD], V (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                       int end_bit = sizeof(K) * 8);
  __device__ void SortDescending(K (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(K) * 8);
  __device__ void SortBlockedToStriped(K (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                       int end_bit = sizeof(K) * 8);
};
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
public:
  struct TempStorage {
    T cells[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD];
  };
  __device__ BlockExchange();
  __device__ BlockExchange(TempStorage &temp_storage);
  template <class O> __device__ void StripedToBlocked(T (&input)[ITEMS_PER_THREAD], O (&output)[ITEMS_PER_THREAD]);
  template <class O> __device__ void BlockedToStriped(T (&input)[ITEMS_PER_THREAD], O (&output)[ITEMS_PER_THREAD]);
  template <class O> __device__ void WarpStripedToBlocked(T (&input)[ITEMS_PER_THREAD], O (&output)[ITEMS_PER_THREAD]);
  template <class O> __device__ void BlockedToWarpStriped(T (&input)[ITEMS_PER_THREAD], O (&output)[ITEMS_PER_THREAD]);
};

/* Device-wide algorithms: called from host code. */
struct DeviceReduce {
  template <class... A> static cudaError_t Sum(A &&...);
  template <class... A> static cudaError_t Max(A &&...);
  template <class... A> static cudaError_t Min(A &&...);
  template <class... A> static cudaError_t ArgMax(A &&...);
  template <class... A> static cudaError_t ArgMin(A &&...);
  template <class... A> static cudaError_t Reduce(A &&...);
  template <class... A> static cudaError_t ReduceByKey(A &&...);
};
struct DeviceScan {
  template <class... A> static cudaError_t ExclusiveSum(A &&...);
  template <class... A> static cudaError_t InclusiveSum(A &&...);
  template <class... A> static cudaError_t ExclusiveScan(A &&...);
  template <class... A> static cudaError_t InclusiveScan(A &&...);
};
struct DeviceSelect {
  template <class... A> static cudaError_t Flagged(A &&...);
  template <class... A> static cudaError_t If(A &&...);
  template <class... A> static cudaError_t Unique(A &&...);
};
struct DeviceRadixSort {
  template <class... A> static cudaError_t SortKeys(A &&...);
  template <class... A> static cudaError_t SortPairs(A &&...);
  template <class... A> static cudaError_t SortKeysDescending(A &&...);
  template <class... A> static cudaError_t SortPairsDescending(A &&...);
};
struct DeviceHistogram {
  template <class... A> static cudaError_t HistogramEven(A &&...);
  template <class... A> static cudaError_t HistogramRange(A &&...);
};
struct DeviceSegmentedReduce {
  template <class... A> static cudaError_t Sum(A &&...);
  template <class... A> static cudaError_t Max(A &&...);
  template <class... A> static cudaError_t Min(A &&...);
  template <class... A> static cudaError_t Reduce(A &&...);
};
} // namespace cub
#endif
