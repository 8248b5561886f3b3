/* drfscan built-in stub of cuRAND's device API. A generator call reads and
   advances the state it is given, so drfscan treats it as a read and a
   write of that state; an MTGP32 state is shared by up to 256 threads of
   one block, each using a slot of its own. */
#ifndef __DRFSCAN_CURAND_KERNEL_H
#define __DRFSCAN_CURAND_KERNEL_H
struct curandStateXORWOW { unsigned int d, v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
struct curandStatePhilox4_32_10 { unsigned int ctr[4]; unsigned int output[4]; unsigned int key[2]; unsigned int STATE; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
struct curandStateMRG32k3a { double s1[3], s2[3]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
struct curandStateSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateScrambledSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateSobol64 { unsigned long long i, x, c; unsigned long long direction_vectors[64]; };
struct curandStateScrambledSobol64 { unsigned long long i, x, c; unsigned long long direction_vectors[64]; };
struct mtgp32_params_fast { int mexp; int pos; int sh1; int sh2; unsigned int tbl[16]; unsigned int tmp_tbl[16]; unsigned int flt_tmp_tbl[16]; unsigned int mask; unsigned char poly_sha1[21]; };
typedef struct mtgp32_params_fast mtgp32_params_fast_t;
struct mtgp32_kernel_params { unsigned int pos_tbl[200]; unsigned int param_tbl[200][16]; unsigned int temper_tbl[200][16]; unsigned int single_temper_tbl[200][16]; unsigned int sh1_tbl[200]; unsigned int sh2_tbl[200]; unsigned int mask[1]; };
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
struct curandStateMtgp32 { unsigned int s[1024]; int offset; int pIdx; mtgp32_kernel_params_t *k; int precise_double_flag; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateSobol32 curandStateSobol32_t;
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
typedef struct curandStateSobol64 curandStateSobol64_t;
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef unsigned int *curandDirectionVectors32_t;
typedef unsigned long long *curandDirectionVectors64_t;
struct curandDiscreteDistribution_st;
typedef struct curandDiscreteDistribution_st *curandDiscreteDistribution_t;
typedef int curandStatus_t;
typedef void *curandGenerator_t;
typedef int curandRngType_t;
typedef int curandOrdering_t;
#define CURAND_STATUS_SUCCESS 0
#define CURAND_RNG_PSEUDO_DEFAULT 100
#define CURAND_RNG_PSEUDO_XORWOW 101
#define CURAND_RNG_PSEUDO_MTGP32 141
#define CURAND_RNG_PSEUDO_PHILOX4_32_10 161
#define CURAND_RNG_PSEUDO_MRG32K3A 121
#define CURAND_RNG_QUASI_DEFAULT 200
#define CURAND_RNG_QUASI_SOBOL32 201
#define MTGP32_STATE_SIZE 1024
#define MTGP32_MAX_NUM_BLOCKS 200
#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_PI_DOUBLE (3.1415926535897932)
#define CURAND_SQRT2 (-1.4142135f)

template <class S> __device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, S *state);
__device__ void curand_init(curandDirectionVectors32_t, unsigned int, curandStateSobol32_t *);
template <class S> __device__ unsigned int curand(S *state);
template <class S> __device__ float curand_uniform(S *state);
template <class S> __device__ double curand_uniform_double(S *state);
template <class S> __device__ float curand_normal(S *state);
template <class S> __device__ double curand_normal_double(S *state);
template <class S> __device__ float curand_log_normal(S *state, float mean, float stddev);
template <class S> __device__ double curand_log_normal_double(S *state, double mean, double stddev);
template <class S> __device__ unsigned int curand_poisson(S *state, double lambda);
template <class S> __device__ unsigned int curand_discrete(S *state, curandDiscreteDistribution_t);
template <class S> __device__ float2 curand_normal2(S *state);
template <class S> __device__ double2 curand_normal2_double(S *state);
template <class S> __device__ float2 curand_log_normal2(S *state, float mean, float stddev);
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda);
__device__ void skipahead(unsigned long long, curandStateXORWOW_t *);
__device__ void skipahead_sequence(unsigned long long, curandStateXORWOW_t *);
__device__ float curand_mtgp32_single(curandStateMtgp32_t *state);
__device__ float curand_mtgp32_single_specific(curandStateMtgp32_t *state, unsigned char index, unsigned char n);
__device__ unsigned int curand_mtgp32_specific(curandStateMtgp32_t *state, unsigned char index, unsigned char n);
curandStatus_t curandMakeMTGP32Constants(const mtgp32_params_fast_t[], mtgp32_kernel_params_t *);
curandStatus_t curandMakeMTGP32KernelState(curandStateMtgp32_t *, mtgp32_params_fast_t[], mtgp32_kernel_params_t *, int, unsigned long long);
extern mtgp32_params_fast_t mtgp32dc_params_fast_11213[];
curandStatus_t curandCreateGenerator(curandGenerator_t *, int);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t, unsigned long long);
curandStatus_t curandSetGeneratorOffset(curandGenerator_t, unsigned long long);
curandStatus_t curandSetStream(curandGenerator_t, cudaStream_t);
curandStatus_t curandGenerateUniform(curandGenerator_t, float *, size_t);
curandStatus_t curandGenerateNormal(curandGenerator_t, float *, size_t, float, float);
curandStatus_t curandDestroyGenerator(curandGenerator_t);
#endif
