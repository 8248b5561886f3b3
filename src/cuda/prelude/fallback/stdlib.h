/* drfscan's fallback <stdlib.h>, searched after the system's: the host side
   that CUDA programs use around their kernels (buffers, arguments, random
   inputs), so that host code parses and its launches are seen on a system
   without a C library's headers. The prelude declares their device side
   (`malloc`, `free`, `abs`). */
#ifndef DRFSCAN_STDLIB_H
#define DRFSCAN_STDLIB_H
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#ifndef NULL
#define NULL 0
#endif
extern "C" {
int abs(int);
long labs(long);
long long llabs(long long);
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void *aligned_alloc(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
void exit(int);
void abort(void);
int atexit(void (*)(void));
int atoi(const char *);
long atol(const char *);
long long atoll(const char *);
double atof(const char *);
long strtol(const char *, char **, int);
unsigned long strtoul(const char *, char **, int);
long long strtoll(const char *, char **, int);
unsigned long long strtoull(const char *, char **, int);
double strtod(const char *, char **);
float strtof(const char *, char **);
int rand(void);
void srand(unsigned int);
double drand48(void);
void srand48(long);
char *getenv(const char *);
int system(const char *);
void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
}
#endif
