#ifndef REAL_H
#define REAL_H
#if defined SINGLE
typedef float real_t;
#elif defined DOUBLE
typedef double real_t;
#endif
#endif
