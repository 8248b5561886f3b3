/* drfscan's fallback <cutil_math.h>, searched after every other include
   directory: the vector arithmetic of the CUDA SDK's 2.x and 3.x samples
   (operators, dot and cross products, lengths and clamps on the built-in
   vector types), on which benchmark suites of that era still build. A
   project's own copy, or a toolkit samples' helper header, wins. */
#ifndef DRFSCAN_VECTOR_MATH_H
#define DRFSCAN_VECTOR_MATH_H
#define DRFSCAN_VF inline __host__ __device__
typedef unsigned int uint;
typedef unsigned short ushort;

DRFSCAN_VF float lerp(float a, float b, float t) { return a + t * (b - a); }
DRFSCAN_VF float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
DRFSCAN_VF int clamp(int f, int a, int b) { return max(a, min(f, b)); }
DRFSCAN_VF uint clamp(uint f, uint a, uint b) { return max(a, min(f, b)); }
DRFSCAN_VF float fracf(float v) { return v - floorf(v); }

/* float2 */
DRFSCAN_VF float2 make_float2(float s) { return make_float2(s, s); }
DRFSCAN_VF float2 make_float2(float3 a) { return make_float2(a.x, a.y); }
DRFSCAN_VF float2 operator-(float2 a) { return make_float2(-a.x, -a.y); }
DRFSCAN_VF float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
DRFSCAN_VF float2 operator+(float2 a, float s) { return make_float2(a.x + s, a.y + s); }
DRFSCAN_VF float2 operator+(float s, float2 a) { return make_float2(s + a.x, s + a.y); }
DRFSCAN_VF void operator+=(float2 &a, float2 b) { a.x += b.x; a.y += b.y; }
DRFSCAN_VF void operator+=(float2 &a, float s) { a.x += s; a.y += s; }
DRFSCAN_VF float2 operator-(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
DRFSCAN_VF float2 operator-(float2 a, float s) { return make_float2(a.x - s, a.y - s); }
DRFSCAN_VF float2 operator-(float s, float2 a) { return make_float2(s - a.x, s - a.y); }
DRFSCAN_VF void operator-=(float2 &a, float2 b) { a.x -= b.x; a.y -= b.y; }
DRFSCAN_VF void operator-=(float2 &a, float s) { a.x -= s; a.y -= s; }
DRFSCAN_VF float2 operator*(float2 a, float2 b) { return make_float2(a.x * b.x, a.y * b.y); }
DRFSCAN_VF float2 operator*(float2 a, float s) { return make_float2(a.x * s, a.y * s); }
DRFSCAN_VF float2 operator*(float s, float2 a) { return make_float2(s * a.x, s * a.y); }
DRFSCAN_VF void operator*=(float2 &a, float2 b) { a.x *= b.x; a.y *= b.y; }
DRFSCAN_VF void operator*=(float2 &a, float s) { a.x *= s; a.y *= s; }
DRFSCAN_VF float2 operator/(float2 a, float2 b) { return make_float2(a.x / b.x, a.y / b.y); }
DRFSCAN_VF float2 operator/(float2 a, float s) { return make_float2(a.x / s, a.y / s); }
DRFSCAN_VF float2 operator/(float s, float2 a) { return make_float2(s / a.x, s / a.y); }
DRFSCAN_VF void operator/=(float2 &a, float2 b) { a.x /= b.x; a.y /= b.y; }
DRFSCAN_VF void operator/=(float2 &a, float s) { a.x /= s; a.y /= s; }
DRFSCAN_VF float2 fminf(float2 a, float2 b) { return make_float2(fminf(a.x, b.x), fminf(a.y, b.y)); }
DRFSCAN_VF float2 fmaxf(float2 a, float2 b) { return make_float2(fmaxf(a.x, b.x), fmaxf(a.y, b.y)); }
DRFSCAN_VF float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
DRFSCAN_VF float2 clamp(float2 v, float a, float b) { return make_float2(clamp(v.x, a, b), clamp(v.y, a, b)); }
DRFSCAN_VF float2 clamp(float2 v, float2 a, float2 b) { return make_float2(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y)); }
DRFSCAN_VF float length(float2 v) { return sqrtf(dot(v, v)); }
DRFSCAN_VF float2 normalize(float2 v) { return v * rsqrtf(dot(v, v)); }
DRFSCAN_VF float2 lerp(float2 a, float2 b, float t) { return a + t * (b - a); }
DRFSCAN_VF float2 floorf(float2 v) { return make_float2(floorf(v.x), floorf(v.y)); }
DRFSCAN_VF float2 fabs(float2 v) { return make_float2(fabsf(v.x), fabsf(v.y)); }
DRFSCAN_VF float2 fracf(float2 v) { return make_float2(v.x - floorf(v.x), v.y - floorf(v.y)); }
DRFSCAN_VF float2 reflect(float2 i, float2 n) { return i - 2.0f * n * dot(n, i); }
/* float3 */
DRFSCAN_VF float3 make_float3(float s) { return make_float3(s, s, s); }
DRFSCAN_VF float3 make_float3(float2 a, float s) { return make_float3(a.x, a.y, s); }
DRFSCAN_VF float3 make_float3(float4 a) { return make_float3(a.x, a.y, a.z); }
DRFSCAN_VF float3 operator-(float3 a) { return make_float3(-a.x, -a.y, -a.z); }
DRFSCAN_VF float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
DRFSCAN_VF float3 operator+(float3 a, float s) { return make_float3(a.x + s, a.y + s, a.z + s); }
DRFSCAN_VF float3 operator+(float s, float3 a) { return make_float3(s + a.x, s + a.y, s + a.z); }
DRFSCAN_VF void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
DRFSCAN_VF void operator+=(float3 &a, float s) { a.x += s; a.y += s; a.z += s; }
DRFSCAN_VF float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
DRFSCAN_VF float3 operator-(float3 a, float s) { return make_float3(a.x - s, a.y - s, a.z - s); }
DRFSCAN_VF float3 operator-(float s, float3 a) { return make_float3(s - a.x, s - a.y, s - a.z); }
DRFSCAN_VF void operator-=(float3 &a, float3 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; }
DRFSCAN_VF void operator-=(float3 &a, float s) { a.x -= s; a.y -= s; a.z -= s; }
DRFSCAN_VF float3 operator*(float3 a, float3 b) { return make_float3(a.x * b.x, a.y * b.y, a.z * b.z); }
DRFSCAN_VF float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
DRFSCAN_VF float3 operator*(float s, float3 a) { return make_float3(s * a.x, s * a.y, s * a.z); }
DRFSCAN_VF void operator*=(float3 &a, float3 b) { a.x *= b.x; a.y *= b.y; a.z *= b.z; }
DRFSCAN_VF void operator*=(float3 &a, float s) { a.x *= s; a.y *= s; a.z *= s; }
DRFSCAN_VF float3 operator/(float3 a, float3 b) { return make_float3(a.x / b.x, a.y / b.y, a.z / b.z); }
DRFSCAN_VF float3 operator/(float3 a, float s) { return make_float3(a.x / s, a.y / s, a.z / s); }
DRFSCAN_VF float3 operator/(float s, float3 a) { return make_float3(s / a.x, s / a.y, s / a.z); }
DRFSCAN_VF void operator/=(float3 &a, float3 b) { a.x /= b.x; a.y /= b.y; a.z /= b.z; }
DRFSCAN_VF void operator/=(float3 &a, float s) { a.x /= s; a.y /= s; a.z /= s; }
DRFSCAN_VF float3 fminf(float3 a, float3 b) { return make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)); }
DRFSCAN_VF float3 fmaxf(float3 a, float3 b) { return make_float3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)); }
DRFSCAN_VF float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DRFSCAN_VF float3 clamp(float3 v, float a, float b) { return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b)); }
DRFSCAN_VF float3 clamp(float3 v, float3 a, float3 b) { return make_float3(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z)); }
DRFSCAN_VF float length(float3 v) { return sqrtf(dot(v, v)); }
DRFSCAN_VF float3 normalize(float3 v) { return v * rsqrtf(dot(v, v)); }
DRFSCAN_VF float3 lerp(float3 a, float3 b, float t) { return a + t * (b - a); }
DRFSCAN_VF float3 floorf(float3 v) { return make_float3(floorf(v.x), floorf(v.y), floorf(v.z)); }
DRFSCAN_VF float3 fabs(float3 v) { return make_float3(fabsf(v.x), fabsf(v.y), fabsf(v.z)); }
DRFSCAN_VF float3 fracf(float3 v) { return make_float3(v.x - floorf(v.x), v.y - floorf(v.y), v.z - floorf(v.z)); }
DRFSCAN_VF float3 reflect(float3 i, float3 n) { return i - 2.0f * n * dot(n, i); }
DRFSCAN_VF float3 cross(float3 a, float3 b) { return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
/* float4 */
DRFSCAN_VF float4 make_float4(float s) { return make_float4(s, s, s, s); }
DRFSCAN_VF float4 make_float4(float3 a, float s) { return make_float4(a.x, a.y, a.z, s); }
DRFSCAN_VF float4 operator-(float4 a) { return make_float4(-a.x, -a.y, -a.z, -a.w); }
DRFSCAN_VF float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
DRFSCAN_VF float4 operator+(float4 a, float s) { return make_float4(a.x + s, a.y + s, a.z + s, a.w + s); }
DRFSCAN_VF float4 operator+(float s, float4 a) { return make_float4(s + a.x, s + a.y, s + a.z, s + a.w); }
DRFSCAN_VF void operator+=(float4 &a, float4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
DRFSCAN_VF void operator+=(float4 &a, float s) { a.x += s; a.y += s; a.z += s; a.w += s; }
DRFSCAN_VF float4 operator-(float4 a, float4 b) { return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
DRFSCAN_VF float4 operator-(float4 a, float s) { return make_float4(a.x - s, a.y - s, a.z - s, a.w - s); }
DRFSCAN_VF float4 operator-(float s, float4 a) { return make_float4(s - a.x, s - a.y, s - a.z, s - a.w); }
DRFSCAN_VF void operator-=(float4 &a, float4 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; a.w -= b.w; }
DRFSCAN_VF void operator-=(float4 &a, float s) { a.x -= s; a.y -= s; a.z -= s; a.w -= s; }
DRFSCAN_VF float4 operator*(float4 a, float4 b) { return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); }
DRFSCAN_VF float4 operator*(float4 a, float s) { return make_float4(a.x * s, a.y * s, a.z * s, a.w * s); }
DRFSCAN_VF float4 operator*(float s, float4 a) { return make_float4(s * a.x, s * a.y, s * a.z, s * a.w); }
DRFSCAN_VF void operator*=(float4 &a, float4 b) { a.x *= b.x; a.y *= b.y; a.z *= b.z; a.w *= b.w; }
DRFSCAN_VF void operator*=(float4 &a, float s) { a.x *= s; a.y *= s; a.z *= s; a.w *= s; }
DRFSCAN_VF float4 operator/(float4 a, float4 b) { return make_float4(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w); }
DRFSCAN_VF float4 operator/(float4 a, float s) { return make_float4(a.x / s, a.y / s, a.z / s, a.w / s); }
DRFSCAN_VF float4 operator/(float s, float4 a) { return make_float4(s / a.x, s / a.y, s / a.z, s / a.w); }
DRFSCAN_VF void operator/=(float4 &a, float4 b) { a.x /= b.x; a.y /= b.y; a.z /= b.z; a.w /= b.w; }
DRFSCAN_VF void operator/=(float4 &a, float s) { a.x /= s; a.y /= s; a.z /= s; a.w /= s; }
DRFSCAN_VF float4 fminf(float4 a, float4 b) { return make_float4(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z), fminf(a.w, b.w)); }
DRFSCAN_VF float4 fmaxf(float4 a, float4 b) { return make_float4(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z), fmaxf(a.w, b.w)); }
DRFSCAN_VF float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
DRFSCAN_VF float4 clamp(float4 v, float a, float b) { return make_float4(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b), clamp(v.w, a, b)); }
DRFSCAN_VF float4 clamp(float4 v, float4 a, float4 b) { return make_float4(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z), clamp(v.w, a.w, b.w)); }
DRFSCAN_VF float length(float4 v) { return sqrtf(dot(v, v)); }
DRFSCAN_VF float4 normalize(float4 v) { return v * rsqrtf(dot(v, v)); }
DRFSCAN_VF float4 lerp(float4 a, float4 b, float t) { return a + t * (b - a); }
DRFSCAN_VF float4 floorf(float4 v) { return make_float4(floorf(v.x), floorf(v.y), floorf(v.z), floorf(v.w)); }
DRFSCAN_VF float4 fabs(float4 v) { return make_float4(fabsf(v.x), fabsf(v.y), fabsf(v.z), fabsf(v.w)); }
DRFSCAN_VF float4 fracf(float4 v) { return make_float4(v.x - floorf(v.x), v.y - floorf(v.y), v.z - floorf(v.z), v.w - floorf(v.w)); }
DRFSCAN_VF float4 reflect(float4 i, float4 n) { return i - 2.0f * n * dot(n, i); }
/* int2 */
DRFSCAN_VF int2 make_int2(int s) { return make_int2(s, s); }
DRFSCAN_VF int2 make_int2(int3 a) { return make_int2(a.x, a.y); }
DRFSCAN_VF int2 operator-(int2 a) { return make_int2(-a.x, -a.y); }
DRFSCAN_VF int2 operator+(int2 a, int2 b) { return make_int2(a.x + b.x, a.y + b.y); }
DRFSCAN_VF int2 operator+(int2 a, int s) { return make_int2(a.x + s, a.y + s); }
DRFSCAN_VF int2 operator+(int s, int2 a) { return make_int2(s + a.x, s + a.y); }
DRFSCAN_VF void operator+=(int2 &a, int2 b) { a.x += b.x; a.y += b.y; }
DRFSCAN_VF void operator+=(int2 &a, int s) { a.x += s; a.y += s; }
DRFSCAN_VF int2 operator-(int2 a, int2 b) { return make_int2(a.x - b.x, a.y - b.y); }
DRFSCAN_VF int2 operator-(int2 a, int s) { return make_int2(a.x - s, a.y - s); }
DRFSCAN_VF int2 operator-(int s, int2 a) { return make_int2(s - a.x, s - a.y); }
DRFSCAN_VF void operator-=(int2 &a, int2 b) { a.x -= b.x; a.y -= b.y; }
DRFSCAN_VF void operator-=(int2 &a, int s) { a.x -= s; a.y -= s; }
DRFSCAN_VF int2 operator*(int2 a, int2 b) { return make_int2(a.x * b.x, a.y * b.y); }
DRFSCAN_VF int2 operator*(int2 a, int s) { return make_int2(a.x * s, a.y * s); }
DRFSCAN_VF int2 operator*(int s, int2 a) { return make_int2(s * a.x, s * a.y); }
DRFSCAN_VF void operator*=(int2 &a, int2 b) { a.x *= b.x; a.y *= b.y; }
DRFSCAN_VF void operator*=(int2 &a, int s) { a.x *= s; a.y *= s; }
DRFSCAN_VF int2 operator/(int2 a, int2 b) { return make_int2(a.x / b.x, a.y / b.y); }
DRFSCAN_VF int2 operator/(int2 a, int s) { return make_int2(a.x / s, a.y / s); }
DRFSCAN_VF int2 operator/(int s, int2 a) { return make_int2(s / a.x, s / a.y); }
DRFSCAN_VF void operator/=(int2 &a, int2 b) { a.x /= b.x; a.y /= b.y; }
DRFSCAN_VF void operator/=(int2 &a, int s) { a.x /= s; a.y /= s; }
DRFSCAN_VF int2 min(int2 a, int2 b) { return make_int2(min(a.x, b.x), min(a.y, b.y)); }
DRFSCAN_VF int2 max(int2 a, int2 b) { return make_int2(max(a.x, b.x), max(a.y, b.y)); }
DRFSCAN_VF int dot(int2 a, int2 b) { return a.x * b.x + a.y * b.y; }
DRFSCAN_VF int2 clamp(int2 v, int a, int b) { return make_int2(clamp(v.x, a, b), clamp(v.y, a, b)); }
DRFSCAN_VF int2 clamp(int2 v, int2 a, int2 b) { return make_int2(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y)); }
/* int3 */
DRFSCAN_VF int3 make_int3(int s) { return make_int3(s, s, s); }
DRFSCAN_VF int3 make_int3(int2 a, int s) { return make_int3(a.x, a.y, s); }
DRFSCAN_VF int3 make_int3(int4 a) { return make_int3(a.x, a.y, a.z); }
DRFSCAN_VF int3 operator-(int3 a) { return make_int3(-a.x, -a.y, -a.z); }
DRFSCAN_VF int3 operator+(int3 a, int3 b) { return make_int3(a.x + b.x, a.y + b.y, a.z + b.z); }
DRFSCAN_VF int3 operator+(int3 a, int s) { return make_int3(a.x + s, a.y + s, a.z + s); }
DRFSCAN_VF int3 operator+(int s, int3 a) { return make_int3(s + a.x, s + a.y, s + a.z); }
DRFSCAN_VF void operator+=(int3 &a, int3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
DRFSCAN_VF void operator+=(int3 &a, int s) { a.x += s; a.y += s; a.z += s; }
DRFSCAN_VF int3 operator-(int3 a, int3 b) { return make_int3(a.x - b.x, a.y - b.y, a.z - b.z); }
DRFSCAN_VF int3 operator-(int3 a, int s) { return make_int3(a.x - s, a.y - s, a.z - s); }
DRFSCAN_VF int3 operator-(int s, int3 a) { return make_int3(s - a.x, s - a.y, s - a.z); }
DRFSCAN_VF void operator-=(int3 &a, int3 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; }
DRFSCAN_VF void operator-=(int3 &a, int s) { a.x -= s; a.y -= s; a.z -= s; }
DRFSCAN_VF int3 operator*(int3 a, int3 b) { return make_int3(a.x * b.x, a.y * b.y, a.z * b.z); }
DRFSCAN_VF int3 operator*(int3 a, int s) { return make_int3(a.x * s, a.y * s, a.z * s); }
DRFSCAN_VF int3 operator*(int s, int3 a) { return make_int3(s * a.x, s * a.y, s * a.z); }
DRFSCAN_VF void operator*=(int3 &a, int3 b) { a.x *= b.x; a.y *= b.y; a.z *= b.z; }
DRFSCAN_VF void operator*=(int3 &a, int s) { a.x *= s; a.y *= s; a.z *= s; }
DRFSCAN_VF int3 operator/(int3 a, int3 b) { return make_int3(a.x / b.x, a.y / b.y, a.z / b.z); }
DRFSCAN_VF int3 operator/(int3 a, int s) { return make_int3(a.x / s, a.y / s, a.z / s); }
DRFSCAN_VF int3 operator/(int s, int3 a) { return make_int3(s / a.x, s / a.y, s / a.z); }
DRFSCAN_VF void operator/=(int3 &a, int3 b) { a.x /= b.x; a.y /= b.y; a.z /= b.z; }
DRFSCAN_VF void operator/=(int3 &a, int s) { a.x /= s; a.y /= s; a.z /= s; }
DRFSCAN_VF int3 min(int3 a, int3 b) { return make_int3(min(a.x, b.x), min(a.y, b.y), min(a.z, b.z)); }
DRFSCAN_VF int3 max(int3 a, int3 b) { return make_int3(max(a.x, b.x), max(a.y, b.y), max(a.z, b.z)); }
DRFSCAN_VF int dot(int3 a, int3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DRFSCAN_VF int3 clamp(int3 v, int a, int b) { return make_int3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b)); }
DRFSCAN_VF int3 clamp(int3 v, int3 a, int3 b) { return make_int3(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z)); }
DRFSCAN_VF int3 cross(int3 a, int3 b) { return make_int3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
/* int4 */
DRFSCAN_VF int4 make_int4(int s) { return make_int4(s, s, s, s); }
DRFSCAN_VF int4 make_int4(int3 a, int s) { return make_int4(a.x, a.y, a.z, s); }
DRFSCAN_VF int4 operator-(int4 a) { return make_int4(-a.x, -a.y, -a.z, -a.w); }
DRFSCAN_VF int4 operator+(int4 a, int4 b) { return make_int4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
DRFSCAN_VF int4 operator+(int4 a, int s) { return make_int4(a.x + s, a.y + s, a.z + s, a.w + s); }
DRFSCAN_VF int4 operator+(int s, int4 a) { return make_int4(s + a.x, s + a.y, s + a.z, s + a.w); }
DRFSCAN_VF void operator+=(int4 &a, int4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
DRFSCAN_VF void operator+=(int4 &a, int s) { a.x += s; a.y += s; a.z += s; a.w += s; }
DRFSCAN_VF int4 operator-(int4 a, int4 b) { return make_int4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
DRFSCAN_VF int4 operator-(int4 a, int s) { return make_int4(a.x - s, a.y - s, a.z - s, a.w - s); }
DRFSCAN_VF int4 operator-(int s, int4 a) { return make_int4(s - a.x, s - a.y, s - a.z, s - a.w); }
DRFSCAN_VF void operator-=(int4 &a, int4 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; a.w -= b.w; }
DRFSCAN_VF void operator-=(int4 &a, int s) { a.x -= s; a.y -= s; a.z -= s; a.w -= s; }
DRFSCAN_VF int4 operator*(int4 a, int4 b) { return make_int4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); }
DRFSCAN_VF int4 operator*(int4 a, int s) { return make_int4(a.x * s, a.y * s, a.z * s, a.w * s); }
DRFSCAN_VF int4 operator*(int s, int4 a) { return make_int4(s * a.x, s * a.y, s * a.z, s * a.w); }
DRFSCAN_VF void operator*=(int4 &a, int4 b) { a.x *= b.x; a.y *= b.y; a.z *= b.z; a.w *= b.w; }
DRFSCAN_VF void operator*=(int4 &a, int s) { a.x *= s; a.y *= s; a.z *= s; a.w *= s; }
DRFSCAN_VF int4 operator/(int4 a, int4 b) { return make_int4(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w); }
DRFSCAN_VF int4 operator/(int4 a, int s) { return make_int4(a.x / s, a.y / s, a.z / s, a.w / s); }
DRFSCAN_VF int4 operator/(int s, int4 a) { return make_int4(s / a.x, s / a.y, s / a.z, s / a.w); }
DRFSCAN_VF void operator/=(int4 &a, int4 b) { a.x /= b.x; a.y /= b.y; a.z /= b.z; a.w /= b.w; }
DRFSCAN_VF void operator/=(int4 &a, int s) { a.x /= s; a.y /= s; a.z /= s; a.w /= s; }
DRFSCAN_VF int4 min(int4 a, int4 b) { return make_int4(min(a.x, b.x), min(a.y, b.y), min(a.z, b.z), min(a.w, b.w)); }
DRFSCAN_VF int4 max(int4 a, int4 b) { return make_int4(max(a.x, b.x), max(a.y, b.y), max(a.z, b.z), max(a.w, b.w)); }
DRFSCAN_VF int dot(int4 a, int4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
DRFSCAN_VF int4 clamp(int4 v, int a, int b) { return make_int4(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b), clamp(v.w, a, b)); }
DRFSCAN_VF int4 clamp(int4 v, int4 a, int4 b) { return make_int4(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z), clamp(v.w, a.w, b.w)); }
/* uint2 */
DRFSCAN_VF uint2 make_uint2(unsigned int s) { return make_uint2(s, s); }
DRFSCAN_VF uint2 make_uint2(uint3 a) { return make_uint2(a.x, a.y); }
DRFSCAN_VF uint2 operator+(uint2 a, uint2 b) { return make_uint2(a.x + b.x, a.y + b.y); }
DRFSCAN_VF uint2 operator+(uint2 a, unsigned int s) { return make_uint2(a.x + s, a.y + s); }
DRFSCAN_VF uint2 operator+(unsigned int s, uint2 a) { return make_uint2(s + a.x, s + a.y); }
DRFSCAN_VF void operator+=(uint2 &a, uint2 b) { a.x += b.x; a.y += b.y; }
DRFSCAN_VF void operator+=(uint2 &a, unsigned int s) { a.x += s; a.y += s; }
DRFSCAN_VF uint2 operator-(uint2 a, uint2 b) { return make_uint2(a.x - b.x, a.y - b.y); }
DRFSCAN_VF uint2 operator-(uint2 a, unsigned int s) { return make_uint2(a.x - s, a.y - s); }
DRFSCAN_VF uint2 operator-(unsigned int s, uint2 a) { return make_uint2(s - a.x, s - a.y); }
DRFSCAN_VF void operator-=(uint2 &a, uint2 b) { a.x -= b.x; a.y -= b.y; }
DRFSCAN_VF void operator-=(uint2 &a, unsigned int s) { a.x -= s; a.y -= s; }
DRFSCAN_VF uint2 operator*(uint2 a, uint2 b) { return make_uint2(a.x * b.x, a.y * b.y); }
DRFSCAN_VF uint2 operator*(uint2 a, unsigned int s) { return make_uint2(a.x * s, a.y * s); }
DRFSCAN_VF uint2 operator*(unsigned int s, uint2 a) { return make_uint2(s * a.x, s * a.y); }
DRFSCAN_VF void operator*=(uint2 &a, uint2 b) { a.x *= b.x; a.y *= b.y; }
DRFSCAN_VF void operator*=(uint2 &a, unsigned int s) { a.x *= s; a.y *= s; }
DRFSCAN_VF uint2 operator/(uint2 a, uint2 b) { return make_uint2(a.x / b.x, a.y / b.y); }
DRFSCAN_VF uint2 operator/(uint2 a, unsigned int s) { return make_uint2(a.x / s, a.y / s); }
DRFSCAN_VF uint2 operator/(unsigned int s, uint2 a) { return make_uint2(s / a.x, s / a.y); }
DRFSCAN_VF void operator/=(uint2 &a, uint2 b) { a.x /= b.x; a.y /= b.y; }
DRFSCAN_VF void operator/=(uint2 &a, unsigned int s) { a.x /= s; a.y /= s; }
DRFSCAN_VF uint2 min(uint2 a, uint2 b) { return make_uint2(min(a.x, b.x), min(a.y, b.y)); }
DRFSCAN_VF uint2 max(uint2 a, uint2 b) { return make_uint2(max(a.x, b.x), max(a.y, b.y)); }
DRFSCAN_VF unsigned int dot(uint2 a, uint2 b) { return a.x * b.x + a.y * b.y; }
DRFSCAN_VF uint2 clamp(uint2 v, unsigned int a, unsigned int b) { return make_uint2(clamp(v.x, a, b), clamp(v.y, a, b)); }
DRFSCAN_VF uint2 clamp(uint2 v, uint2 a, uint2 b) { return make_uint2(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y)); }
/* uint3 */
DRFSCAN_VF uint3 make_uint3(unsigned int s) { return make_uint3(s, s, s); }
DRFSCAN_VF uint3 make_uint3(uint2 a, unsigned int s) { return make_uint3(a.x, a.y, s); }
DRFSCAN_VF uint3 make_uint3(uint4 a) { return make_uint3(a.x, a.y, a.z); }
DRFSCAN_VF uint3 operator+(uint3 a, uint3 b) { return make_uint3(a.x + b.x, a.y + b.y, a.z + b.z); }
DRFSCAN_VF uint3 operator+(uint3 a, unsigned int s) { return make_uint3(a.x + s, a.y + s, a.z + s); }
DRFSCAN_VF uint3 operator+(unsigned int s, uint3 a) { return make_uint3(s + a.x, s + a.y, s + a.z); }
DRFSCAN_VF void operator+=(uint3 &a, uint3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
DRFSCAN_VF void operator+=(uint3 &a, unsigned int s) { a.x += s; a.y += s; a.z += s; }
DRFSCAN_VF uint3 operator-(uint3 a, uint3 b) { return make_uint3(a.x - b.x, a.y - b.y, a.z - b.z); }
DRFSCAN_VF uint3 operator-(uint3 a, unsigned int s) { return make_uint3(a.x - s, a.y - s, a.z - s); }
DRFSCAN_VF uint3 operator-(unsigned int s, uint3 a) { return make_uint3(s - a.x, s - a.y, s - a.z); }
DRFSCAN_VF void operator-=(uint3 &a, uint3 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; }
DRFSCAN_VF void operator-=(uint3 &a, unsigned int s) { a.x -= s; a.y -= s; a.z -= s; }
DRFSCAN_VF uint3 operator*(uint3 a, uint3 b) { return make_uint3(a.x * b.x, a.y * b.y, a.z * b.z); }
DRFSCAN_VF uint3 operator*(uint3 a, unsigned int s) { return make_uint3(a.x * s, a.y * s, a.z * s); }
DRFSCAN_VF uint3 operator*(unsigned int s, uint3 a) { return make_uint3(s * a.x, s * a.y, s * a.z); }
DRFSCAN_VF void operator*=(uint3 &a, uint3 b) { a.x *= b.x; a.y *= b.y; a.z *= b.z; }
DRFSCAN_VF void operator*=(uint3 &a, unsigned int s) { a.x *= s; a.y *= s; a.z *= s; }
DRFSCAN_VF uint3 operator/(uint3 a, uint3 b) { return make_uint3(a.x / b.x, a.y / b.y, a.z / b.z); }
DRFSCAN_VF uint3 operator/(uint3 a, unsigned int s) { return make_uint3(a.x / s, a.y / s, a.z / s); }
DRFSCAN_VF uint3 operator/(unsigned int s, uint3 a) { return make_uint3(s / a.x, s / a.y, s / a.z); }
DRFSCAN_VF void operator/=(uint3 &a, uint3 b) { a.x /= b.x; a.y /= b.y; a.z /= b.z; }
DRFSCAN_VF void operator/=(uint3 &a, unsigned int s) { a.x /= s; a.y /= s; a.z /= s; }
DRFSCAN_VF uint3 min(uint3 a, uint3 b) { return make_uint3(min(a.x, b.x), min(a.y, b.y), min(a.z, b.z)); }
DRFSCAN_VF uint3 max(uint3 a, uint3 b) { return make_uint3(max(a.x, b.x), max(a.y, b.y), max(a.z, b.z)); }
DRFSCAN_VF unsigned int dot(uint3 a, uint3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DRFSCAN_VF uint3 clamp(uint3 v, unsigned int a, unsigned int b) { return make_uint3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b)); }
DRFSCAN_VF uint3 clamp(uint3 v, uint3 a, uint3 b) { return make_uint3(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z)); }
/* uint4 */
DRFSCAN_VF uint4 make_uint4(unsigned int s) { return make_uint4(s, s, s, s); }
DRFSCAN_VF uint4 make_uint4(uint3 a, unsigned int s) { return make_uint4(a.x, a.y, a.z, s); }
DRFSCAN_VF uint4 operator+(uint4 a, uint4 b) { return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
DRFSCAN_VF uint4 operator+(uint4 a, unsigned int s) { return make_uint4(a.x + s, a.y + s, a.z + s, a.w + s); }
DRFSCAN_VF uint4 operator+(unsigned int s, uint4 a) { return make_uint4(s + a.x, s + a.y, s + a.z, s + a.w); }
DRFSCAN_VF void operator+=(uint4 &a, uint4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
DRFSCAN_VF void operator+=(uint4 &a, unsigned int s) { a.x += s; a.y += s; a.z += s; a.w += s; }
DRFSCAN_VF uint4 operator-(uint4 a, uint4 b) { return make_uint4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
DRFSCAN_VF uint4 operator-(uint4 a, unsigned int s) { return make_uint4(a.x - s, a.y - s, a.z - s, a.w - s); }
DRFSCAN_VF uint4 operator-(unsigned int s, uint4 a) { return make_uint4(s - a.x, s - a.y, s - a.z, s - a.w); }
DRFSCAN_VF void operator-=(uint4 &a, uint4 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; a.w -= b.w; }
DRFSCAN_VF void operator-=(uint4 &a, unsigned int s) { a.x -= s; a.y -= s; a.z -= s; a.w -= s; }
DRFSCAN_VF uint4 operator*(uint4 a, uint4 b) { return make_uint4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); }
DRFSCAN_VF uint4 operator*(uint4 a, unsigned int s) { return make_uint4(a.x * s, a.y * s, a.z * s, a.w * s); }
DRFSCAN_VF uint4 operator*(unsigned int s, uint4 a) { return make_uint4(s * a.x, s * a.y, s * a.z, s * a.w); }
DRFSCAN_VF void operator*=(uint4 &a, uint4 b) { a.x *= b.x; a.y *= b.y; a.z *= b.z; a.w *= b.w; }
DRFSCAN_VF void operator*=(uint4 &a, unsigned int s) { a.x *= s; a.y *= s; a.z *= s; a.w *= s; }
DRFSCAN_VF uint4 operator/(uint4 a, uint4 b) { return make_uint4(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w); }
DRFSCAN_VF uint4 operator/(uint4 a, unsigned int s) { return make_uint4(a.x / s, a.y / s, a.z / s, a.w / s); }
DRFSCAN_VF uint4 operator/(unsigned int s, uint4 a) { return make_uint4(s / a.x, s / a.y, s / a.z, s / a.w); }
DRFSCAN_VF void operator/=(uint4 &a, uint4 b) { a.x /= b.x; a.y /= b.y; a.z /= b.z; a.w /= b.w; }
DRFSCAN_VF void operator/=(uint4 &a, unsigned int s) { a.x /= s; a.y /= s; a.z /= s; a.w /= s; }
DRFSCAN_VF uint4 min(uint4 a, uint4 b) { return make_uint4(min(a.x, b.x), min(a.y, b.y), min(a.z, b.z), min(a.w, b.w)); }
DRFSCAN_VF uint4 max(uint4 a, uint4 b) { return make_uint4(max(a.x, b.x), max(a.y, b.y), max(a.z, b.z), max(a.w, b.w)); }
DRFSCAN_VF unsigned int dot(uint4 a, uint4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
DRFSCAN_VF uint4 clamp(uint4 v, unsigned int a, unsigned int b) { return make_uint4(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b), clamp(v.w, a, b)); }
DRFSCAN_VF uint4 clamp(uint4 v, uint4 a, uint4 b) { return make_uint4(clamp(v.x, a.x, b.x), clamp(v.y, a.y, b.y), clamp(v.z, a.z, b.z), clamp(v.w, a.w, b.w)); }
#undef DRFSCAN_VF
#endif
