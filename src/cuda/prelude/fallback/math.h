/* drfscan's fallback <math.h>, searched after the system's: the host side
   of the C math functions, on a system without a C library's headers. The
   prelude declares their device side. */
#ifndef DRFSCAN_MATH_H
#define DRFSCAN_MATH_H
#define __DRFSCAN_HOST_MATH1(F) float F##f(float); double F(double);
#define __DRFSCAN_HOST_MATH2(F) float F##f(float, float); double F(double, double);
extern "C" {
__DRFSCAN_HOST_MATH1(sqrt) __DRFSCAN_HOST_MATH1(cbrt)
__DRFSCAN_HOST_MATH1(exp) __DRFSCAN_HOST_MATH1(exp2)
__DRFSCAN_HOST_MATH1(expm1) __DRFSCAN_HOST_MATH1(log)
__DRFSCAN_HOST_MATH1(log2) __DRFSCAN_HOST_MATH1(log10)
__DRFSCAN_HOST_MATH1(log1p) __DRFSCAN_HOST_MATH1(sin)
__DRFSCAN_HOST_MATH1(cos) __DRFSCAN_HOST_MATH1(tan)
__DRFSCAN_HOST_MATH1(asin) __DRFSCAN_HOST_MATH1(acos)
__DRFSCAN_HOST_MATH1(atan) __DRFSCAN_HOST_MATH1(sinh)
__DRFSCAN_HOST_MATH1(cosh) __DRFSCAN_HOST_MATH1(tanh)
__DRFSCAN_HOST_MATH1(fabs) __DRFSCAN_HOST_MATH1(floor)
__DRFSCAN_HOST_MATH1(ceil) __DRFSCAN_HOST_MATH1(round)
__DRFSCAN_HOST_MATH1(trunc) __DRFSCAN_HOST_MATH1(rint)
__DRFSCAN_HOST_MATH1(erf) __DRFSCAN_HOST_MATH1(erfc)
__DRFSCAN_HOST_MATH1(lgamma) __DRFSCAN_HOST_MATH1(tgamma)
__DRFSCAN_HOST_MATH1(asinh) __DRFSCAN_HOST_MATH1(acosh)
__DRFSCAN_HOST_MATH1(atanh) __DRFSCAN_HOST_MATH1(nearbyint)
__DRFSCAN_HOST_MATH1(logb)
__DRFSCAN_HOST_MATH2(pow) __DRFSCAN_HOST_MATH2(fmin)
__DRFSCAN_HOST_MATH2(fmax) __DRFSCAN_HOST_MATH2(fmod)
__DRFSCAN_HOST_MATH2(atan2) __DRFSCAN_HOST_MATH2(hypot)
__DRFSCAN_HOST_MATH2(copysign) __DRFSCAN_HOST_MATH2(fdim)
__DRFSCAN_HOST_MATH2(remainder) __DRFSCAN_HOST_MATH2(nextafter)
float fmaf(float, float, float);
double fma(double, double, double);
float frexpf(float, int *);
double frexp(double, int *);
float ldexpf(float, int);
double ldexp(double, int);
float modff(float, float *);
double modf(double, double *);
float scalbnf(float, int);
double scalbn(double, int);
int ilogbf(float);
int ilogb(double);
long lroundf(float);
long lround(double);
long long llroundf(float);
long long llround(double);
long lrintf(float);
long long llrintf(float);
float nanf(const char *);
double nan(const char *);
}
#undef __DRFSCAN_HOST_MATH1
#undef __DRFSCAN_HOST_MATH2
#endif
