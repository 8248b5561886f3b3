//! Front-end tests on small inline kernels: parse, lower, and look at the
//! protocol's shape.

use super::*;
use crate::protocol::{Cond, Expr, Mode, Op, Rel, Scope, Stmt};
use std::fmt::Write;

fn unit(src: &str) -> Unit {
    unit_with(src, &FrontendOptions::default())
}

fn unit_with(src: &str, opts: &FrontendOptions) -> Unit {
    parse_source(Path::new("/tmp/drfscan-test/k.cu"), src.as_bytes(), opts)
}

fn kernel(src: &str) -> Kernel {
    let u = unit(src);
    assert!(u.diagnostics.is_empty(), "{:?}", u.diagnostics);
    assert_eq!(u.kernels.len(), 1, "{:?}", u.kernels);
    u.kernels[0]
        .lowered
        .clone()
        .unwrap_or_else(|e| panic!("unsupported: {e:?}"))
}

/// A compact rendering of protocols, enough to compare shapes.
fn show(k: &Kernel) -> String {
    fn e(x: &Expr) -> String {
        match x {
            Expr::Int(v) => v.to_string(),
            Expr::Var(v) => v.clone(),
            Expr::Bin(op, a, b) => {
                let o = match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "*",
                    Op::Div => "/",
                    Op::Mod => "%",
                    Op::BitAnd => "&",
                    Op::BitOr => "|",
                    Op::BitXor => "^",
                    Op::Shl => "<<",
                    Op::Shr => ">>",
                    Op::Min => "min",
                    Op::Max => "max",
                };
                format!("({} {o} {})", e(a), e(b))
            }
            Expr::Ite(c0, a, b) => format!("({} ? {} : {})", c(c0), e(a), e(b)),
        }
    }
    fn c(x: &Cond) -> String {
        match x {
            Cond::Bool(b) => b.to_string(),
            Cond::Cmp(r, a, b) => {
                let o = match r {
                    Rel::Eq => "==",
                    Rel::Ne => "!=",
                    Rel::Lt => "<",
                    Rel::Le => "<=",
                    Rel::Gt => ">",
                    Rel::Ge => ">=",
                };
                format!("{} {o} {}", e(a), e(b))
            }
            Cond::And(a, b) => format!("({} && {})", c(a), c(b)),
            Cond::Or(a, b) => format!("({} || {})", c(a), c(b)),
            Cond::Not(a) => format!("!({})", c(a)),
            Cond::Forall { var, lo, hi, body } => {
                format!("forall {var} in {}..{}: {}", e(lo), e(hi), c(body))
            }
        }
    }
    fn s(x: &Stmt, out: &mut String) {
        match x {
            Stmt::Skip => {}
            Stmt::Access(a) => {
                let m = match a.mode {
                    Mode::Read => "rd",
                    Mode::Write => "wr",
                    Mode::Atomic => "at",
                };
                let idx: Vec<String> = a.index.iter().map(e).collect();
                let _ = write!(out, "{m}[{}]; ", idx.join("]["));
            }
            Stmt::Sync(_) => out.push_str("sync; "),
            Stmt::GridSync(_) => out.push_str("grid_sync; "),
            Stmt::WarpSync(_) => out.push_str("warp_sync; "),
            Stmt::Seq(items) => items.iter().for_each(|i| s(i, out)),
            Stmt::If {
                cond, then, els, ..
            } => {
                let _ = write!(out, "if ({}) {{ ", c(cond));
                s(then, out);
                out.push('}');
                if **els != Stmt::Skip {
                    out.push_str(" else { ");
                    s(els, out);
                    out.push('}');
                }
                out.push(' ');
            }
            Stmt::For {
                var, lo, hi, body, ..
            } => {
                let _ = write!(out, "for {var} in {}..{} {{ ", e(lo), e(hi));
                s(body, out);
                out.push_str("} ");
            }
        }
    }
    let mut out = String::new();
    for a in &k.arrays {
        let _ = write!(out, "{}: ", a.name);
        s(&a.body, &mut out);
        out.push('\n');
    }
    out
}

fn shape(src: &str) -> String {
    show(&kernel(src))
}

fn reason(src: &str) -> String {
    let u = unit(src);
    assert_eq!(u.kernels.len(), 1, "{:?}", u.diagnostics);
    match &u.kernels[0].lowered {
        Err(e) => e.reason.clone(),
        Ok(k) => panic!("expected unsupported, got {}", show(k)),
    }
}

#[test]
fn first_iter_of_the_paper() {
    let k = kernel(
        "__global__ void first_iter(int n) {
  __shared__ int a[512];
  int tid = threadIdx.x;
  a[tid + 1] = tid;
  for (int x = 0; x < n; x++) {
    if (x > 0) {
      a[tid] = x;
    }
    __syncthreads();
  }
}",
    );
    assert_eq!(
        show(&k),
        "a: wr[(tid.x + 1)]; for x in 0..n { if (x > 0) { wr[tid.x]; } sync; } \n"
    );
    assert_eq!(k.params, vec!["n".to_string()]);
    assert_eq!(k.arrays[0].scope, Scope::Shared);
}

#[test]
fn read_index_pair() {
    // The value a thread wrote and reads back is known (Fig. 16).
    let drf = shape(
        "__global__ void k(int *A) { int t = threadIdx.x; A[t] = t; int x = A[t]; A[x] = 0; }",
    );
    assert_eq!(drf, "A: wr[tid.x]; rd[tid.x]; wr[tid.x]; \n");
    let racy = shape(
        "__global__ void k(int *A) { int t = threadIdx.x; A[t] = t; int x = A[t]; A[x + 1] = 0; }",
    );
    assert_eq!(racy, "A: wr[tid.x]; rd[tid.x]; wr[(tid.x + 1)]; \n");
    // A write elsewhere in the array may have overwritten the cell.
    let k = kernel("__global__ void k(int *A, int j) { int t = threadIdx.x; A[t] = t; A[j] = 5; int x = A[t]; A[x] = 0; }");
    assert_eq!(show(&k), "A: wr[tid.x]; wr[j]; rd[tid.x]; wr[x]; \n");
    // A barrier ends what the thread knows.
    let k = kernel("__global__ void k(int *A) { A[threadIdx.x] = 1; __syncthreads(); int x = A[threadIdx.x]; A[x] = 0; }");
    assert_eq!(show(&k), "A: wr[tid.x]; sync; rd[tid.x]; wr[x]; \n");
    assert_eq!(k.locals, vec!["x".to_string()]);
}

#[test]
fn strided_loops() {
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int i = threadIdx.x; i < n; i += 4) a[i] = 0; }"),
        "a: for i in tid.x..n { if (((i - tid.x) % 4) == 0) { wr[i]; } } \n"
    );
    // A synchronized strided loop keeps its iteration order: a counter.
    assert_eq!(
        shape("__global__ void k(int *a, int n) { __shared__ int s[64]; for (int i = 0; i < n; i += 2) { s[i] = 0; __syncthreads(); } }"),
        "s: for i#k in 0..((n + 1) / 2) { wr[(i#k * 2)]; sync; } \n"
    );
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int i = n; i > 0; i--) a[i] = 0; }"),
        "a: for i in 1..(n + 1) { wr[i]; } \n"
    );
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int s = 1; s < n; s *= 2) a[s] = 0; }"),
        "a: for s in 1..n { if ((s & (s - 1)) == 0) { wr[s]; } } \n"
    );
    // The step with the counter second (`s = 2 * s`, `s = 1 + s`) is the
    // same loop.
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int s = 1; s < n; s = 2 * s) a[s] = 0; }"),
        "a: for s in 1..n { if ((s & (s - 1)) == 0) { wr[s]; } } \n"
    );
    let by_three =
        shape("__global__ void k(int *a, int n) { for (int i = 0; i < n; i = 3 + i) a[i] = 0; }");
    assert!(by_three.contains("% 3"), "{by_three}");
    assert_eq!(
        by_three,
        shape("__global__ void k(int *a, int n) { for (int i = 0; i < n; i += 3) a[i] = 0; }"),
    );
    // A bound on the counter plus a stride (`i + 4 <= n`, a tile loaded
    // in whole strides) bounds the counter by `n - 4`, the other way round
    // too.
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int i = 0; i + 4 <= n; i += 4) a[i] = 0; }"),
        shape("__global__ void k(int *a, int n) { for (int i = 0; i <= n - 4; i += 4) a[i] = 0; }"),
    );
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int i = 0; n > 2 + i; i += 4) a[i] = 0; }"),
        shape("__global__ void k(int *a, int n) { for (int i = 0; i < n - 2; i += 4) a[i] = 0; }"),
    );
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int i = 0; i - 1 < n; i += 4) a[i] = 0; }"),
        shape("__global__ void k(int *a, int n) { for (int i = 0; i < n - -1; i += 4) a[i] = 0; }"),
    );
    // Two variables stepped in the increment (`i++, j += 2`): `i` counts
    // the loop, `j` is an induction of it.
    assert_eq!(
        shape("__global__ void k(int *a, int n) { for (int i = 0, j = threadIdx.x; i < n; i++, j += 2) a[j] = 0; }"),
        "a: for i in 0..n { wr[(tid.x + (i * 2))]; } \n"
    );
    // Few known values: unrolled, with the state carried along.
    assert_eq!(
        shape("__global__ void k(int *a) { int p = 0; for (int s = 1; s < 8; s *= 2) { p = 1 - p; a[p * 8 + s] = 0; } }"),
        "a: wr[9]; wr[2]; wr[12]; \n"
    );
    assert_eq!(
        shape("__global__ void k(int *a) { for (int j = 0; j < 8; j++) { if (j == 2) break; a[threadIdx.x + j] = 0; } }"),
        "a: wr[tid.x]; wr[(tid.x + 1)]; \n"
    );
    // A break with a closed form ends the later iterations.
    assert_eq!(
        shape("__global__ void k(int *a, int n, int m) { for (int j = 0; j < n; j++) { if (j >= m) break; a[j] = 0; } }"),
        "a: for j in 0..n { if ((j <= m || j <= 0)) { if (!(j >= m)) { wr[j]; } } } \n"
    );
}

#[test]
fn reduction_loop_halving() {
    let k = kernel(
        "__global__ void k(float *in) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
}",
    );
    let out = show(&k);
    assert!(
        out.contains("sdata: wr[tid.x]; sync; for s#k in 0..(blockDim.x / 2) { if (tid.x < ((blockDim.x / 2) - s#k)) { rd[(tid.x + ((blockDim.x / 2) - s#k))]; rd[tid.x]; wr[tid.x]; } sync; } "),
        "{out}"
    );
}

#[test]
fn early_return_guards_the_rest() {
    assert_eq!(
        shape("__global__ void k(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; a[i] = 0; }"),
        "a: if (!(((bid.x * blockDim.x) + tid.x) >= n)) { wr[((bid.x * blockDim.x) + tid.x)]; } \n"
    );
}

#[test]
fn short_circuit_and_conditional_expression() {
    assert_eq!(
        shape("__global__ void k(int *a, int *b, int n) { if (threadIdx.x < n && a[threadIdx.x] > 0) b[0] = 1; }"),
        "a: if (tid.x < n) { rd[tid.x]; } \nb: if ((tid.x < n && a.elem > 0)) { wr[0]; } \n"
    );
    assert_eq!(
        shape("__global__ void k(int *a, int *b) { int x = threadIdx.x > 3 ? a[0] : b[1]; }"),
        "a: if (tid.x > 3) { rd[0]; } \nb: if (tid.x > 3) { } else { rd[1]; } \n"
    );
}

#[test]
fn switch_falls_through() {
    let out = shape(
        "__global__ void k(int *d) { switch (threadIdx.x) { case 0: d[0] = 1; case 1: d[1] = 1; break; default: d[2] = 1; } }",
    );
    assert!(
        out.starts_with(
            "d: if (tid.x == 0) { wr[0]; } if ((tid.x == 1 || tid.x == 0)) { wr[1]; } if ("
        ),
        "{out}"
    );
}

#[test]
fn device_functions_aliases_and_fields() {
    let out = shape(
        "struct P { float x, y; };
__device__ int idx(int r, int c) { return r * 32 + c; }
__device__ void put(float *p, int i) { p[i] = 0; }
__global__ void k(float *a, P *ps) {
  float *q = a + 8;
  q[threadIdx.x] = 1;
  put(a, idx(threadIdx.y, threadIdx.x));
  ps[threadIdx.x].y = 2;
  ps[threadIdx.x + 1].x = 3;
}",
    );
    assert_eq!(
        out,
        "a: wr[(8 + tid.x)]; wr[((tid.y * 32) + tid.x)]; \nps: wr[tid.x]; wr[(tid.x + 1)]; \n"
    );
}

#[test]
fn multi_dimensional_shared_and_device_globals() {
    let k = kernel(
        "__device__ int hist[64];
__global__ void k() {
  __shared__ float t[16][17];
  __shared__ int flag;
  t[threadIdx.y][threadIdx.x] = 0;
  flag = 1;
  atomicAdd(&hist[threadIdx.x % 64], 1);
}",
    );
    assert_eq!(
        show(&k),
        "t: wr[tid.y][tid.x]; \nflag: wr[0]; \nhist: at[(tid.x % 64)]; \n"
    );
    assert_eq!(k.array("hist").map(|a| a.scope), Some(Scope::Global));
    assert_eq!(k.array("flag").map(|a| a.scope), Some(Scope::Shared));
}

#[test]
fn read_only_tables_and_moving_pointers() {
    // `coef` is first read inside a branch of the unrolled loop: globals
    // survive branch merges.
    assert_eq!(
        shape("__constant__ float coef[3];\n__global__ void k(float *out, const float *in) { float acc = 0; for (int j = 0; j < 3; j++) acc += coef[j] * __ldg(&in[threadIdx.x + j]); out[threadIdx.x] = acc; }"),
        "out: wr[tid.x]; \nin: rd[tid.x]; rd[(tid.x + 1)]; rd[(tid.x + 2)]; \n"
    );
    // A pointer every iteration steps by one amount is an induction; one
    // stepped only sometimes is somewhere in its array.
    let k = kernel("__global__ void k(float *a, int n) { float *p = a + threadIdx.x; for (int j = 0; j < n; j++) { *p = 0; p += blockDim.x; } }");
    assert_eq!(
        show(&k),
        "a: for j in 0..n { wr[(tid.x + (j * blockDim.x))]; } \n"
    );
    let k = kernel("__global__ void k(float *a, int n) { float *p = a + threadIdx.x; for (int j = 0; j < n; j++) { *p = 0; if (j % 2) p += blockDim.x; } }");
    assert!(show(&k).contains("wr[p.offset]"), "{}", show(&k));
    assert!(k.locals.contains(&"p.offset".to_string()));
    // A step by the counter is no fixed step: `p` moves by 0, 1, 2, …
    let k = kernel("__global__ void k(float *a, int n) { float *p = a + threadIdx.x * 10; for (int j = 0; j < n; j++) { *p = 0; p += j; } }");
    assert!(show(&k).contains("wr[p.offset]"), "{}", show(&k));
}

#[test]
fn structure_copies_keep_their_fields() {
    assert_eq!(
        shape("__global__ void k(int *a) { uint3 t = threadIdx; dim3 b = blockIdx; uint3 u = t; a[b.x * 64 + u.x] = 1; }"),
        "a: wr[((bid.x * 64) + tid.x)]; \n"
    );
}

#[test]
fn local_arrays_are_private() {
    assert_eq!(
        shape("__global__ void k(int *a) { int tmp[4]; tmp[0] = threadIdx.x; a[tmp[0]] = 1; }"),
        "a: wr[tid.x]; \n"
    );
}

#[test]
fn annotations_and_launch_configuration() {
    let k =
        kernel("__global__ void k(int *a, int n) { __requires(n == 128); a[threadIdx.x] = n; }");
    assert_eq!(
        k.assumes,
        vec![Cond::cmp(Rel::Eq, Expr::var("n"), Expr::Int(128))]
    );
    let opts = FrontendOptions {
        block_dim: Some([64, 1, 1]),
        params: vec![("n".into(), 3)],
        ..Default::default()
    };
    let u = unit_with(
        "__global__ void k(int *a, int n) { a[threadIdx.x] = n; }",
        &opts,
    );
    let k = u.kernels[0].lowered.clone().unwrap();
    assert!(k
        .assumes
        .contains(&Cond::cmp(Rel::Eq, Expr::var("blockDim.x"), Expr::Int(64))));
    assert!(k
        .assumes
        .contains(&Cond::cmp(Rel::Eq, Expr::var("n"), Expr::Int(3))));
    let u = unit("// expect: drf\n// options: --block-dim 32 --param n=7\n__global__ void k(int *a, int n) { a[threadIdx.x] = n; }");
    assert_eq!(
        u.expectation.as_ref().map(|e| e.verdict.as_str()),
        Some("drf")
    );
    let k = u.kernels[0].lowered.clone().unwrap();
    assert!(k
        .assumes
        .contains(&Cond::cmp(Rel::Eq, Expr::var("blockDim.x"), Expr::Int(32))));
    assert!(k
        .assumes
        .contains(&Cond::cmp(Rel::Eq, Expr::var("n"), Expr::Int(7))));
}

#[test]
fn static_asserts_are_preconditions_on_open_template_arguments() {
    let k = kernel(
        "template <int T> __global__ void k(int *a) {\n\
         static_assert(T >= 64, \"wide\");\n\
         if (threadIdx.x == 0) { if constexpr (T > 100) { static_assert(T % 32 == 0); } }\n\
         for (int i = 0; i < 4; i++) { static_assert(T != 7); }\n\
         for (int i = 0; i < a[1]; i++) { static_assert(T != 9); }\n\
         a[threadIdx.x] = T; }",
    );
    // Once each; the one in a loop the lowering keeps is left out.
    assert_eq!(k.assumes.len(), 3, "{:?}", k.assumes);
    assert_eq!(
        k.assumes[0],
        Cond::cmp(Rel::Ge, Expr::var("T"), Expr::Int(64))
    );
    // Under its `if constexpr` only: T > 100 is not assumed.
    assert!(matches!(k.assumes[1], Cond::Or(..)), "{:?}", k.assumes[1]);
    assert_eq!(
        k.assumes[2],
        Cond::cmp(Rel::Ne, Expr::var("T"), Expr::Int(7))
    );
    // An instance's asserts are constants and add nothing.
    let u = unit(
        "template <int T> __global__ void k(int *a) { static_assert(T >= 64); a[threadIdx.x] = T; }\n\
         template __global__ void k<64>(int *);",
    );
    let names: Vec<&str> = u.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["k<64>"]);
    assert_eq!(u.kernels[0].lowered.clone().unwrap().assumes, vec![]);
}

#[test]
fn warp_barrier_is_a_block_barrier_when_a_block_is_a_warp() {
    let src = "__global__ void k(int *a) { __shared__ int s[32]; s[threadIdx.x] = 1; __syncwarp(); a[0] = s[0]; }";
    assert_eq!(
        shape(src),
        "a: warp_sync; wr[0]; \ns: wr[tid.x]; warp_sync; rd[0]; \n"
    );
    let opts = FrontendOptions {
        block_dim: Some([32, 1, 1]),
        ..Default::default()
    };
    let k = unit_with(src, &opts).kernels[0].lowered.clone().unwrap();
    assert_eq!(show(&k), "a: sync; wr[0]; \ns: wr[tid.x]; sync; rd[0]; \n");
}

#[test]
fn pragmas_and_attributes_on_statements() {
    assert_eq!(
        shape("__global__ void k(int *a, int n) {\n#pragma unroll 4\n  for (int i = 0; i < n; i++) a[threadIdx.x * n + i] = 0;\n  [[likely]] a[0] = 1;\n}"),
        "a: for i in 0..n { wr[((tid.x * n) + i)]; } wr[0]; \n"
    );
    assert_eq!(
        shape("#define SET(i) do { a[i] = 0; } while (0)\n__global__ void k(int *a) { SET(__mul24(blockIdx.x, blockDim.x) + threadIdx.x); }"),
        "a: wr[((bid.x * blockDim.x) + tid.x)]; \n"
    );
}

#[test]
fn macros_enums_and_constants() {
    assert_eq!(
        shape("#define W 16\nenum { H = 4 };\nconstexpr int D = W * H;\n__global__ void k(int *a) { a[threadIdx.x * D + W] = H; }"),
        "a: wr[((tid.x * 64) + 16)]; \n"
    );
}

#[test]
fn template_kernels_per_instantiation() {
    let src = "template <typename T, int BS>
__global__ void rev(T *a) {
  __shared__ T s[BS];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[BS - 1 - threadIdx.x];
}
void host(float *a, int *b) { rev<float, 64><<<1, 64>>>(a); rev<int, 32><<<1, 32>>>(b); rev<float, 64><<<2, 64>>>(a); }
";
    let u = unit(src);
    let names: Vec<&str> = u.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, vec!["rev<float, 64>", "rev<int, 32>"]);
    let k = u.kernels[0].lowered.clone().unwrap();
    assert!(k.params.is_empty());
    assert!(
        show(&k).contains("s: wr[tid.x]; sync; rd[(63 - tid.x)]; "),
        "{}",
        show(&k)
    );
    // Without an instantiation: value parameters are parameters.
    let k = kernel("template <int BS> __global__ void k(int *a) { a[threadIdx.x + BS] = 0; }");
    assert_eq!(k.params, vec!["BS".to_string()]);
}

#[test]
fn a_helpers_value_arguments_after_a_built_in_type_are_bound() {
    // `float` has no cursor: `N` is the only expression written.
    let src = "template <typename T, int N, int K>
__device__ void put(T *d) { if constexpr (N * sizeof(T) == 8) d[K] = 0; else d[N + K] = 1; }
template <int U> __global__ void k(float *a) { put<float, U, 3>(a + threadIdx.x * U); }
void host(float *a) { k<2><<<1, 32>>>(a); }
";
    let u = unit(src);
    let k = u.kernels[0].lowered.clone().unwrap();
    let shown = show(&k);
    assert!(shown.contains("wr[((tid.x * 2) + 3)]"), "{shown}");
    assert!(!shown.contains('N'), "{shown}");
}

#[test]
fn constructors_that_only_initialize_fields_give_them_their_values() {
    let k = kernel(
        "struct P { int a, b; __device__ P(int x, int y = 3) : a(x), b(y + 1) {} };
struct Q { int a; __device__ Q(int x) { a = x * 5; } };
struct R { int a, b; __device__ R(int x) : a(x), b(a + 1) {} };
__global__ void k(int *o) {
  dim3 idx(threadIdx.x + 1, threadIdx.y);
  P p(threadIdx.x);
  P r = P(2, threadIdx.x);
  Q q(threadIdx.x);
  o[idx.x * 100 + idx.y + idx.z] = 0;
  o[p.a + p.b] = 1;
  o[r.a + r.b] = 2;
  o[q.a] = 3;
  R w(threadIdx.x);
  o[w.b] = 4;
}",
    );
    let shown = show(&k);
    assert!(
        shown.contains("wr[((((tid.x + 1) * 100) + tid.y) + 1)]"),
        "{shown}"
    );
    assert!(shown.contains("wr[(tid.x + 4)]"), "{shown}");
    assert!(shown.contains("wr[(2 + (tid.x + 1))]"), "{shown}");
    // A body, or an initializer reading another field, is not read this
    // way: the field stays unknown.
    assert!(shown.contains("wr[a]"), "{shown}");
    assert!(shown.contains("wr[b]"), "{shown}");
    // A pointer parameter, one of them alone (`Row r(o)`, no copy of a
    // structure): a method's access through the field reaches its memory.
    let k = kernel(
        "struct Row { float *p; int n; __device__ Row(float *q, int m) : p(q), n(m) {}
  __device__ void put(int i) { if (i < n) p[i] = 0; } };
struct One { float *p; __device__ One(float *q) : p(q) {} };
__global__ void k(float *o, float *g, int n) {
  Row r(o + blockIdx.x * n, n);
  r.put(threadIdx.x);
  One s(g);
  s.p[threadIdx.x] = 1;
}",
    );
    let shown = show(&k);
    assert!(shown.contains("o: if"), "{shown}");
    assert!(shown.contains("wr[((bid.x * n) + tid.x)]"), "{shown}");
    assert!(shown.contains("g: wr[tid.x];"), "{shown}");
    // In a template, where clang keeps `Row<T> r(…)` as a list of
    // arguments: the class template's constructor of that many.
    let k = kernel(
        "template <typename T> struct Row { T *p; int n; __device__ Row(T *q, int m) : p(q), n(m) {}
  __device__ void put(int i) { if (i < n) p[i] = 0; } };
template <typename T> __global__ void k(T *o, int n) {
  Row<T> r(o + blockIdx.x * n, n);
  r.put(threadIdx.x);
}
template __global__ void k<float>(float *, int);",
    );
    let shown = show(&k);
    assert!(shown.contains("wr[((bid.x * n) + tid.x)]"), "{shown}");
}

#[test]
fn the_address_of_a_private_array_is_its_first_cell() {
    let k = kernel(
        "struct V { float v[4]; };
__global__ void k(const float *a, float *b) {
  float src[4];
  V *w = reinterpret_cast<V *>(&src);
  *w = *reinterpret_cast<const V *>(a + 4 * threadIdx.x);
  b[threadIdx.x] = src[2];
}",
    );
    let shown = show(&k);
    assert!(shown.contains("a: rd[(4 * tid.x)];"), "{shown}");
    assert!(shown.contains("b: wr[tid.x];"), "{shown}");
}

#[test]
fn a_recursion_that_touches_no_memory_leaves_its_value_unknown() {
    // `gcd` and a conversion template's generic fallback: values only.
    let k = kernel(
        "__device__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }\n\
         template <typename TO, typename FROM> __device__ TO to(FROM v) { return to(v); }\n\
         template <typename T> __global__ void k(T *a, const int *n) {\n\
           a[threadIdx.x] = to<T>(to<float>(a[threadIdx.x]) * gcd(n[0], 64)); }",
    );
    let shown = show(&k);
    assert!(shown.contains("a: rd[tid.x]; wr[tid.x];"), "{shown}");
    // The arguments are still read.
    assert!(shown.contains("n: rd[0];"), "{shown}");
    // One that writes through a reference, reads memory or waits at a
    // barrier is not.
    for body in [
        "__device__ int f(int &x, int n) { x = n; return n ? f(x, n - 1) : 0; }",
        "__device__ int f(int n) { extern __shared__ int s[]; return n ? f(n - 1) : s[0]; }",
        "__device__ int f(int n) { __syncthreads(); return n ? f(n - 1) : 0; }",
        "__device__ int f(int n) { __shared__ int s; s = n; return n ? f(n - 1) : 0; }",
        "__device__ int f(int n) { static int c; c = n; return n ? f(n - 1) : 0; }",
    ] {
        let src =
            format!("{body}\n__global__ void k(int *a) {{ int x = 0; a[threadIdx.x] = f(x, 3); }}")
                .replace(
                    "f(x, 3)",
                    if body.contains("int &x") {
                        "f(x, 3)"
                    } else {
                        "f(3)"
                    },
                );
        assert!(reason(&src).contains("recursive"), "{body}");
    }
}

#[test]
fn guarded_ptx_accesses_happen_where_their_predicate_holds() {
    let store = "__device__ void st(void *d, int v, bool ok) { asm volatile(\"{\\n.reg .pred p;\\n\
        setp.ne.b32 p, %2, 0;\\n@p st.global.u32 [%0], %1;\\n}\" :: \"l\"(d), \"r\"(v), \"r\"((int)ok)); }\n";
    let k = kernel(&format!(
        "{store}__global__ void k(int *a, int n) {{ st(a + threadIdx.x, 1, threadIdx.x < n); }}"
    ));
    assert_eq!(show(&k), "a: if (tid.x < n) { wr[tid.x]; } \n");
    // A predicate the statement does not set from an input: a condition
    // of the thread's own.
    let k = kernel(
        "__global__ void k(int *a) { asm volatile(\"@q st.global.u32 [%0], %1;\" :: \"l\"(a + threadIdx.x), \"r\"(1)); }",
    );
    let shown = show(&k);
    assert!(
        shown.contains("if (") && shown.contains("wr[tid.x]"),
        "{shown}"
    );
}

#[test]
fn explicit_specializations_of_a_bodiless_template_are_picked_by_their_values() {
    let src = "template <int B> __device__ void put(void *d);\n\
        template <> __device__ void put<4>(void *d) { *(int *)d = 0; }\n\
        template <> __device__ void put<8>(void *d) { *(int2 *)d = make_int2(0, 0); }\n\
        template <int B> __global__ void k(int *a) { put<B>(a + threadIdx.x * (B / 4)); }\n\
        template __global__ void k<8>(int *);";
    assert_eq!(shape(src), "a: wr[(tid.x * 2)]; wr[((tid.x * 2) + 1)]; \n");
}

#[test]
fn stepping_in_an_open_type_then_viewing_wider_is_unsupported() {
    let src = "template <typename T> __global__ void k(T *a) { \
        *reinterpret_cast<float4 *>(a + 2 * threadIdx.x) = make_float4(0, 0, 0, 0); }";
    assert!(reason(src).contains("viewed as elements of types of different sizes"));
}

#[test]
fn the_built_in_headers_say_which_nvcc_they_stand_for() {
    // Code picks intrinsics over inline PTX by nvcc's version.
    let k = kernel(
        "__global__ void k(int *a) {\n#if __CUDACC_VER_MAJOR__ >= 11 && CUDART_VERSION >= 11000\n\
         a[threadIdx.x] = 0;\n#else\nasm(\"trap;\");\n#endif\n}",
    );
    assert_eq!(show(&k), "a: wr[tid.x]; \n");
}

#[test]
fn an_unresolved_call_takes_only_overloads_its_pointers_convert_to() {
    // `const float *` binds neither to `const float2 *` nor to `int *`;
    // to `const void *` and to a base class it does.
    let src = "struct B { int v; }; struct D : B { int w; };\n\
        template <int N> __device__ void f(int *o, const float *in) { o[0] = (int)in[0]; }\n\
        template <int N> __device__ void f(int *o, const float2 *in) { f<N>(o, (const float *)in); }\n\
        template <int N> __device__ void g(int *o, const B *in) { o[1] = in->v; }\n\
        template <int N> __global__ void k(int *o, const float *in, const D *d) {\n\
          f<N>(o + 2 * threadIdx.x, in + threadIdx.x); g<N>(o + 2 * threadIdx.x, d); }\n\
        template __global__ void k<1>(int *, const float *, const D *);";
    let shown = shape(src);
    assert!(
        shown.contains("o: wr[(2 * tid.x)]; wr[((2 * tid.x) + 1)];"),
        "{shown}"
    );
}

#[test]
fn a_threads_own_array_of_pointers_points_where_its_stores_do() {
    let k = kernel(
        "__global__ void k(float *out, const float *in, const int *slot, int n) {\n\
           const float *rows[2];\n\
           for (int j = 0; j < 2; j++) rows[j] = in + slot[j] * n;\n\
           out[threadIdx.x] = rows[1][threadIdx.x]; }",
    );
    let shown = show(&k);
    assert!(shown.contains("in: rd["), "{shown}");
    // Pointers into two arrays: which one a read goes to is not known.
    let src = "__global__ void k(float *a, float *b, int i) {\n\
        float *rows[2]; rows[0] = a; rows[1] = b; rows[i][threadIdx.x] = 0; }";
    assert!(
        reason(src).contains("points into more than one array"),
        "{}",
        reason(src)
    );
    // A pointer made from a number stored there: it may point anywhere.
    let src = "__global__ void k(float *a, long i) {\n\
        float *rows[2]; rows[0] = a; rows[1] = (float *)i; rows[i & 1][threadIdx.x] = 0; }";
    assert!(
        reason(src).contains("may point anywhere"),
        "{}",
        reason(src)
    );
}

#[test]
fn pointer_arithmetic_on_elements_of_open_sized_integer_arrays_stays_a_pointer() {
    // `slot[k] * n` over `int slot[K]` is dependent in the template, and
    // with some `operator+` in scope the sum is an unresolved operator.
    let k = kernel(
        "struct H { unsigned short x; };\n\
         __device__ H operator+(H a, H b) { return a; }\n\
         template <typename T, int K> __global__ void k(T *out, const T *in, const int *slots, int n) {\n\
           int slot[K];\n\
           for (int j = 0; j < K; j++) slot[j] = slots[blockIdx.x * K + j];\n\
           const T *row = in + slot[0] * n + threadIdx.x;\n\
           out[blockIdx.x * n + threadIdx.x] = row[0]; }",
    );
    let shown = show(&k);
    assert!(shown.contains("in: rd["), "{shown}");
}

#[test]
fn half_pairs_negate_compare_and_assign_as_the_toolkits_do() {
    let k = kernel(
        "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n\
         __global__ void k(__half2 *a, __nv_bfloat162 *b) {\n\
           __half2 h = -a[threadIdx.x]; h -= a[threadIdx.x]; h /= h;\n\
           __nv_bfloat162 g = -b[threadIdx.x]; g -= g; g /= g;\n\
           if (h == h && g != g) a[threadIdx.x] = +h; }",
    );
    assert!(show(&k).contains("a: rd[tid.x];"), "{}", show(&k));
}

#[test]
fn a_nested_structure_of_a_parameter_copied_keeps_its_pointers() {
    let k = kernel(
        "struct KV { int **lists; int size; };\n\
         struct Batch { const int *meta; const KV kv; };\n\
         __global__ void k(float *out, const Batch b) {\n\
           const KV kv = b.kv;\n\
           out[blockIdx.x * blockDim.x + threadIdx.x] = kv.lists[blockIdx.x][threadIdx.x]; }",
    );
    let shown = show(&k);
    assert!(shown.contains("b.kv.lists[]: rd[bid.x][tid.x];"), "{shown}");
}

#[test]
fn helpers_given_a_parameter_structure_reach_its_arrays() {
    let k = kernel(
        "struct In { float *data; };\n\
         struct P { int n; In in; };\n\
         __device__ void by_ref(P &p, int i) { p.in.data[i] = 0; }\n\
         __device__ void by_value(P p, int i) { p.in.data[i + 1] = 0; }\n\
         __global__ void k(P o) {\n\
           by_ref(o, threadIdx.x); by_value(o, threadIdx.x);\n\
           In &in = o.in; in.data[threadIdx.x + 2] = 0; }",
    );
    let shown = show(&k);
    assert!(
        shown.contains("o.in.data: wr[tid.x]; wr[(tid.x + 1)]; wr[(tid.x + 2)];"),
        "{shown}"
    );
    // A copy assigned another structure no longer reads the parameter.
    let why = reason(
        "struct P { float *data; };\n\
         __device__ P other();\n\
         __global__ void k(P o) { P c = o; c = other(); c.data[threadIdx.x] = 0; }",
    );
    assert!(why.contains("unknown origin"), "{why}");
    // A structure assigned on one branch only is not the other branch's
    // copy after the merge.
    let why = reason(
        "struct P { float *data; };\n\
         __global__ void k(P a, P b, int c) { P q = b; if (c) q = a; q.data[threadIdx.x] = 0; }",
    );
    assert!(why.contains("unknown origin"), "{why}");
}
#[test]
fn unsupported_constructs_have_a_reason_and_a_place() {
    assert!(reason("__device__ int f(const int *p, int n) { return n ? f(p, n - 1) : p[0]; }\n__global__ void k(int *a) { a[threadIdx.x] = f(a, 3); }").contains("recursive"));
    assert!(
        reason("__global__ void k(int *a, int (*f)(int)) { a[0] = f(1); }")
            .contains("function pointer")
    );
    assert!(reason("__global__ void k(int *a) { asm(\"trap;\"); a[0] = 1; }").contains("assembly"));
    let u = unit("__global__ void k(int *a) { asm(\"trap;\"); }");
    let e = u.kernels[0].lowered.clone().unwrap_err();
    assert_eq!(e.loc.line, 1);
}

#[test]
fn a_loop_takes_fields_its_member_calls_assign_as_changed() {
    // `c.next()` changes `c.n` inside the loop: the store's cell is not
    // the first iteration's. `c.get()` assigns nothing: `c.k` stays.
    let k = kernel(
        "struct C { int n, k; __device__ C(int s) : n(s), k(4) {}
  __device__ void next() { n++; } __device__ int get() const { return n; } };
__global__ void k(float *o, int len) {
  C c(0);
  for (int i = 0; i < len; ++i) { o[threadIdx.x * c.k + c.n] = c.get(); c.next(); }
}",
    );
    let shown = show(&k);
    assert!(shown.contains("wr[((tid.x * 4) + c.n)]"), "{shown}");
    // A nested field (`p.x++`), and a field a function may take by
    // reference (`bump(n)`), change too.
    for body in ["p.x++;", "bump(p.x);"] {
        let k = kernel(&format!(
            "struct P {{ int x; }};
__device__ void bump(int &v) {{ v += 1; }}
struct C {{ P p; __device__ void next() {{ {body} }} }};
__global__ void k(float *o, int len) {{
  C c; c.p.x = 0;
  for (int i = 0; i < len; ++i) {{ o[threadIdx.x + c.p.x] = 1; c.next(); }}
}}"
        ));
        let shown = show(&k);
        assert!(shown.contains("wr[(tid.x + c.p.x)]"), "{body}: {shown}");
    }
}

#[test]
fn calls_through_a_held_function_call_that_function() {
    // A function passed where a template calls its parameter.
    let k = kernel(
        "__device__ int twice(int v) { return 2 * v; }
template <typename F> __device__ int apply(F f, int v) { return f(v); }
__global__ void k(int *a) { a[apply(twice, threadIdx.x)] = 0; }",
    );
    assert!(show(&k).contains("a: wr[(2 * tid.x)];"), "{}", show(&k));
    // A function template a `constexpr` helper picks by a template
    // argument, with the values its name writes.
    let k = kernel(
        "typedef int (*step_t)(int);
template <int n> __device__ int by(int v) { return n * v; }
template <int which> constexpr __device__ step_t pick() {
  if constexpr (which == 0) { return by<3>; } else { return by<5>; }
}
template <int W> __global__ void k(int *a) { constexpr step_t s = pick<W>(); a[s(threadIdx.x)] = 0; }
template __global__ void k<1>(int *);",
    );
    assert!(show(&k).contains("a: wr[(5 * tid.x)];"), "{}", show(&k));
}

#[test]
fn a_pointer_read_as_a_number_is_one_value_per_block_at_a_block_cell() {
    let src = |at: &str| {
        format!(
            "__global__ void k(float *a, int n) {{
  float *row = a + blockIdx.x * n;
  if (reinterpret_cast<unsigned long>({at}) % 16 == 0) row[threadIdx.x] = 0;
}}"
        )
    };
    let k = kernel(&src("row"));
    assert_eq!(k.block_uniform.len(), 1, "{:?}", k.block_uniform);
    // At a thread's own cell it is unknown, as before.
    let k = kernel(&src("row + threadIdx.x"));
    assert!(k.block_uniform.is_empty(), "{:?}", k.block_uniform);
}

#[test]
fn assembly_that_computes_on_registers_is_modelled() {
    // A lane read from its special register is the thread's lane.
    let lane = "__device__ unsigned lane() { unsigned r; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r; }\n";
    let k = kernel(&format!(
        "{lane}__global__ void k(int *a) {{ a[lane()] = 0; }}"
    ));
    let text = show(&k);
    assert!(text.contains("tid.x") && text.contains("32"), "{text}");
    // Conversions and tensor-core arithmetic write their outputs only; an
    // output in memory is a write, a `+` output a read first.
    let k = kernel(concat!(
        "__global__ void k(float *a, unsigned short *h) {\n",
        "  unsigned short v; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(v) : \"f\"(a[threadIdx.x]));\n",
        "  asm(\"add.u16 %0, %0, %1;\" : \"+h\"(h[threadIdx.x]) : \"h\"(v));\n",
        "}\n"
    ));
    let text = show(&k);
    assert!(text.contains("a: rd[tid.x];"), "{text}");
    assert!(text.contains("h: rd[tid.x]; wr[tid.x];"), "{text}");
    // A plain load is a read of its address, of its type's width.
    let k = kernel("__global__ void k(int *a) { int r; asm volatile(\"ld.global.v2.u32 {%0, %1}, [%2];\" : \"=r\"(r), \"=r\"(r) : \"l\"(a + 2 * threadIdx.x)); }");
    let text = show(&k);
    assert!(
        text.contains("rd[(2 * tid.x)]; rd[((2 * tid.x) + 1)];"),
        "{text}"
    );
    // At a byte offset: the cells from there on, whole cells or parts of
    // one (the second half of a 32-byte structure is in its cell).
    let k = kernel("__global__ void k(int *a) { int r; asm volatile(\"ld.global.v2.u32 {%0, %1}, [%2+8];\" : \"=r\"(r), \"=r\"(r) : \"l\"(a + 4 * threadIdx.x)); }");
    let text = show(&k);
    assert!(
        text.contains("rd[((4 * tid.x) + 2)]; rd[((4 * tid.x) + 3)];"),
        "{text}"
    );
    let k = kernel("struct Q { int v[8]; }; __global__ void k(Q *q) { int r; asm volatile(\"ld.global.v4.u32 {%0, %0, %0, %0}, [%1+16];\" : \"=r\"(r) : \"l\"(q + threadIdx.x)); }");
    let text = show(&k);
    assert!(text.contains("q: rd[tid.x];"), "{text}");
    // Loads at an offset a name gives (guarded or not) and barriers of
    // some warps are not modelled.
    for memory in [
        "@p ld.global.u32 %0, [%1+n];",
        "ld.global.u32 %0, [%1+n];",
        "bar.sync 1, 64;",
    ] {
        let src = format!("__global__ void k(int *a) {{ int r; asm volatile(\"{memory}\" : \"=r\"(r) : \"l\"(a)); a[threadIdx.x] = r; }}");
        assert!(
            reason(&src).contains(memory.trim_end_matches(';')),
            "{}",
            reason(&src)
        );
    }
}

#[test]
fn a_block_barrier_in_assembly_is_a_barrier() {
    let text = shape("__global__ void k(int *a) { __shared__ int s[64]; s[threadIdx.x] = a[threadIdx.x]; unsigned t; asm volatile(\"bar.sync 0;\\n mov.u32 %0, %%clock;\" : \"=r\"(t) :: \"memory\"); a[threadIdx.x] = s[63 - threadIdx.x] + t; }");
    assert!(
        text.contains("s: wr[tid.x]; sync; rd[(63 - tid.x)];"),
        "{text}"
    );
}

#[test]
fn buffer_stages_that_cycle_each_iteration_are_the_iterations_own() {
    let stage = |init: &str, step: &str| {
        shape(&format!("__global__ void k(float *a, int n) {{ __shared__ float s[4][64]; int st = {init}; for (int i = 0; i < n; ++i) {{ s[st][threadIdx.x] = a[i]; __syncthreads(); {step}; }} }}"))
    };
    let flip = stage("1", "st ^= 1");
    assert!(
        flip.contains("wr[(((i - 0) % 2) == 0 ? 1 : 0)][tid.x]"),
        "{flip}"
    );
    let reflect = stage("0", "st = 1 - st");
    assert!(
        reflect.contains("wr[(((i - 0) % 2) == 0 ? 0 : 1)][tid.x]"),
        "{reflect}"
    );
    let round = stage("0", "st = (st + 1) % 3");
    assert!(round.contains("wr[(i % 3)][tid.x]"), "{round}");
    // A start outside the cycle, a second change, or a `continue` before
    // the move: the stage stays unknown.
    for (init, step) in [
        ("5", "st = (st + 1) % 3"),
        ("0", "st ^= 1; st += a[0] > 0"),
        ("0", "if (a[i] > 0) continue; st ^= 1"),
    ] {
        let text = stage(init, step);
        assert!(!text.contains(" % "), "{init}, {step}: {text}");
    }
}

#[test]
fn clang_errors_are_diagnostics() {
    let u = unit("__global__ void broken(int *a) { a[0] = ; }\n__global__ void fine(int *a) { a[threadIdx.x] = 0; }");
    assert!(!u.diagnostics.is_empty());
    assert_eq!(u.kernels.len(), 2);
    assert!(!u.kernels[0].errors.is_empty());
    assert!(u.kernels[1].errors.is_empty() && u.kernels[1].lowered.is_ok());
    let u = unit("this is not CUDA at all");
    assert!(u.kernels.is_empty() && !u.diagnostics.is_empty());
    let u = unit("");
    assert!(u.kernels.is_empty() && u.diagnostics.is_empty());
    let u = unit("#include \"missing_header.h\"\n__global__ void k(int *a) { a[0] = 1; }");
    assert!(
        u.diagnostics.iter().any(|d| d.contains("missing_header.h")),
        "{:?}",
        u.diagnostics
    );
}

#[test]
fn cooperative_groups_block_barrier_and_rank() {
    let out = shape(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a) {
  __shared__ float s[64];
  cg::thread_block b = cg::this_thread_block();
  s[b.thread_rank()] = 1;
  b.sync();
  a[0] = s[0];
  cg::sync(b);
  auto tile = cg::tiled_partition<32>(b);
  tile.sync();
}",
    );
    assert_eq!(
        out,
        "a: sync; wr[0]; sync; warp_sync; \ns: wr[((tid.x + (tid.y * blockDim.x)) + (tid.z * (blockDim.x * blockDim.y)))]; sync; rd[0]; sync; warp_sync; \n"
    );
}

#[test]
fn cooperative_groups_tiles_ranks_and_barriers() {
    let out = shape(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a) {
  __shared__ float s[64];
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);
  for (int i = t.thread_rank(); i < 64; i += t.size()) s[i] = 0;
  t.sync();
  a[t.meta_group_rank()] = s[0];
  cg::thread_block_tile<16> h = cg::tiled_partition<16>(b);
  h.sync();
}",
    );
    let lin = "(tid.x + (tid.y * blockDim.x)) + (tid.z * (blockDim.x * blockDim.y))";
    assert!(out.contains(&format!("wr[(({lin}) / 32)]")), "{out}");
    // A strided loop over the tile's lanes, then the warp's barrier; a
    // smaller tile's barrier is not modelled (none).
    assert!(
        out.contains(&format!("for i in (({lin}) % 32)..64")),
        "{out}"
    );
    assert_eq!(out.matches("warp_sync").count(), 2, "{out}");
    assert!(!out.replace("warp_sync", "").contains("sync"), "{out}");
}

#[test]
fn a_generic_thread_group_is_the_group_it_was_made_from() {
    let out = shape(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void f(cg::thread_group g, float *s) {
  s[g.thread_rank()] = g.size();
  g.sync();
}
__device__ void r(const cg::thread_group &g, float *s) { s[g.size()] = 0; cg::sync(g); }
__global__ void k(float *a) {
  __shared__ float s[64];
  f(cg::this_thread_block(), s);
  cg::thread_group w = cg::tiled_partition(cg::this_thread_block(), 32);
  r(w, a);
  cg::thread_group h = cg::tiled_partition(cg::this_thread_block(), 16);
  h.sync();
}",
    );
    // The block's rank and barrier through a parameter, a warp's tile
    // through a local and a reference; a tile of 16 has no barrier, which
    // leaves the kernel's races possible only.
    let lin = "(tid.x + (tid.y * blockDim.x)) + (tid.z * (blockDim.x * blockDim.y))";
    assert_eq!(
        out,
        format!("a: sync; wr[32]; warp_sync; \ns: wr[({lin})]; sync; warp_sync; \n")
    );
    let k = kernel(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a) {
  auto b = cg::this_thread_block();
  cg::thread_group w = cg::tiled_partition(b, 32);
  w.sync();
  b.sync();
  a[threadIdx.x] = 0;
}",
    );
    assert!(k.approximations.is_empty(), "{:?}", k.approximations);
    let k = kernel(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a) {
  auto h = cg::tiled_partition<16>(cg::this_thread_block());
  h.sync();
  a[threadIdx.x] = 0;
}",
    );
    assert_eq!(k.approximations.len(), 1, "{:?}", k.approximations);
}

#[test]
fn structures_passed_and_returned_by_value_are_copies() {
    let out = shape(
        "struct M { int stride; float *cells; };
__device__ M sub(M a, int r) { M s; s.stride = a.stride; s.cells = &a.cells[r * a.stride]; return s; }
__device__ void skip(M m) { m.cells += 1; m.stride = 0; }
__device__ void put(M m, int i) { m.cells[i * m.stride] = 1; }
__global__ void k(M c) {
  M mine = sub(c, blockIdx.x);
  skip(mine);
  put(mine, threadIdx.x);
  M again = c;
  put(again, 2);
}",
    );
    // The kernel parameter's fields reach the copies made of it before
    // any was read; `skip` changes its own copy only.
    assert_eq!(
        out,
        "c.cells: wr[((bid.x * c.stride) + (tid.x * c.stride))]; wr[(2 * c.stride)]; \n"
    );
}

#[test]
fn cub_block_collectives_store_synchronize_and_read_their_storage() {
    let out = shape(
        "#include <cub/cub.cuh>
__global__ void k(float *a, int *b) {
  using R = cub::BlockReduce<float, 128>;
  __shared__ R::TempStorage t;
  float s = R(t).Sum(a[threadIdx.x]);
  if (threadIdx.x == 0) a[0] = s;
  using S = cub::BlockScan<int, 32>;
  __shared__ S::TempStorage u;
  int x;
  S(u).ExclusiveSum(1, x);
  b[x] = 0;
  cub::WarpReduce<int>::TempStorage w;
  int y = cub::WarpReduce<int>(w).Sum(x);
}",
    );
    let lin = "(tid.x + (tid.y * blockDim.x)) + (tid.z * (blockDim.x * blockDim.y))";
    // The block's reduction: each thread's cell, the barrier, any cell;
    // a raking scan of one warp and a warp's reduction touch no memory
    // and do not synchronize, and the scan's output is unknown.
    assert!(
        out.contains(&format!(
            "t: wr[({lin})]; sync; for storage_cell in 0..((blockDim.x * blockDim.y) * blockDim.z) {{ rd[storage_cell]; }} \n"
        )),
        "{out}"
    );
    assert!(!out.contains("\nu:") && !out.starts_with("u:"), "{out}");
    assert!(out.contains("b: sync; wr[v]"), "{out}");
    let err = reason(
        "#include <cub/cub.cuh>
__global__ void k(int *a) {
  using R = cub::BlockRadixSort<int, 128, 4>;
  __shared__ R::TempStorage t;
  int items[4] = {a[0], a[1], a[2], a[3]};
  R(t).Sort(items);
}",
    );
    assert!(err.contains("cub::BlockRadixSort is not modelled"), "{err}");
    // Block loads and stores: blocked, striped (below the valid count) or
    // warp-striped cells; a block transpose exchanges under a barrier.
    let out = shape(
        "#include <cub/cub.cuh>
__global__ void k(const float *a, const float *b, const float *c, float *d) {
  float x[4];
  cub::BlockLoad<float, 64, 4>().Load(a, x);
  cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_STRIPED>().Load(b, x, 100);
  cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>().Load(c, x);
  using S = cub::BlockStore<float, 64, 4, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ S::TempStorage t;
  S(t).Store(d, x);
}",
    );
    assert!(
        out.contains(&format!(
            "a: for item in 0..4 {{ rd[((({lin}) * 4) + item)]; }}"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("b: for item#2 in 0..4 {{ if ((({lin}) + (item#2 * 64)) < 100) {{ rd[(({lin}) + (item#2 * 64))]; }} }}")),
        "{out}"
    );
    assert!(
        out.contains(&format!("c: for item#3 in 0..4 {{ rd[((((({lin}) / 32) * 128) + (({lin}) % 32)) + (item#3 * 32))]; }}")),
        "{out}"
    );
    assert!(
        out.contains(&format!("t: wr[({lin})]; sync; for storage_cell")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "d: sync; for item#4 in 0..4 {{ wr[(({lin}) + (item#4 * 64))]; }}"
        )),
        "{out}"
    );
    // In a template analysed uninstantiated the class is left open: the
    // same model, with the block size from the template's argument.
    let k = kernel(
        "#include <cub/cub.cuh>
template <int T> __global__ void k(int *b) {
  typedef cub::BlockScan<int, T> S;
  __shared__ typename S::TempStorage u;
  int x = 0;
  S(u).ExclusiveSum(1, x);
  b[x] = 0;
}
void host(int *b) { k<64><<<1, 64>>>(b); }",
    );
    let out = show(&k);
    assert!(out.contains("u: wr[tid.x]; sync;"), "{out}");
    assert!(out.contains("b: sync; wr[v]"), "{out}");
    // Direct loads and stores name their cells.
    let out = shape(
        "#include <cub/cub.cuh>
__global__ void k(int *a, int n) {
  int items[4];
  cub::LoadDirectStriped<128>(threadIdx.x, a, items);
  cub::StoreDirectBlocked(threadIdx.x, a + 512, items, n);
}",
    );
    assert_eq!(
        out,
        "a: for item in 0..4 { rd[(tid.x + (item * 128))]; } for item#2 in 0..4 { if (((tid.x * 4) + item#2) < n) { wr[(512 + ((tid.x * 4) + item#2))]; } } \n"
    );
}

#[test]
fn a_left_out_argument_takes_its_default() {
    let out = shape(
        "__device__ int f(int *s, int v = 5) { s[threadIdx.x] = v; return v; }
__global__ void k(int *a) { f(a); f(a, int()); }",
    );
    // The default where the call leaves the argument out; a written
    // `int()` is not the default.
    let k = kernel(
        "__device__ int f(int *s, int v = 5) { s[threadIdx.x] = v; return v; }
__global__ void k(int *a) { f(a); f(a, int()); }",
    );
    let text = crate::protocol::print::print(&k);
    assert_eq!(out.matches("wr[").count(), 2, "{out}");
    assert_eq!(text.matches("= 5").count(), 1, "{text}");
}

#[test]
fn cooperative_groups_grid_barriers() {
    let out = shape(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a) {
  cg::grid_group g = cg::this_grid();
  a[blockIdx.x] = 1;
  g.sync();
  a[0] = 2;
  cg::sync(g);
  cg::this_grid().sync();
}",
    );
    assert_eq!(
        out,
        "a: wr[bid.x]; grid_sync; wr[0]; grid_sync; grid_sync; \n"
    );
}

#[test]
fn code_from_headers_is_reported_where_the_file_reaches_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("k.cuh"),
        "__device__ void put(int *a, int i) {\n  a[i] = 1;\n}\ntemplate <int N> __global__ void fill(int *a) { a[N * blockIdx.x + threadIdx.x] = 0; }\n__global__ void other(int *a) { a[0] = 0; }\n",
    )
    .unwrap();
    let src = "#include \"k.cuh\"\n__global__ void k(int *a) {\n  put(a, threadIdx.x);\n}\nvoid go(int *a) { fill<32><<<2, 32>>>(a); }\n";
    let u = parse_source(
        &dir.path().join("main.cu"),
        src.as_bytes(),
        &FrontendOptions::default(),
    );
    assert!(u.diagnostics.is_empty(), "{:?}", u.diagnostics);
    let names: Vec<&str> = u.kernels.iter().map(|k| k.name.as_str()).collect();
    // A kernel of the project's header is the unit's too, reported at its
    // definition in the header.
    assert_eq!(names, vec!["fill<32>", "other", "k"]);
    assert_eq!(
        u.kernels[1].file.as_deref(),
        Some(dir.path().join("k.cuh").as_path())
    );
    assert_eq!(u.kernels[1].loc, Loc::new(5, 17));
    assert_eq!(u.kernels[2].file, None);
    let k = u.kernels[2].lowered.clone().unwrap();
    let mut acc = Vec::new();
    k.arrays[0].body.accesses(&mut acc);
    assert_eq!(acc[0].loc, Loc::new(3, 3));
    // An instantiation of the header's kernel template too: its accesses
    // are at their lines there.
    assert_eq!(
        u.kernels[0].file.as_deref(),
        Some(dir.path().join("k.cuh").as_path())
    );
    assert_eq!(u.kernels[0].loc, Loc::new(4, 34));
    let f = u.kernels[0].lowered.clone().unwrap();
    let mut acc = Vec::new();
    f.arrays[0].body.accesses(&mut acc);
    assert_eq!(acc[0].loc.line, 4);
    assert_eq!(show(&f), "a: wr[((32 * bid.x) + tid.x)]; \n");
    assert!(u.includes.iter().any(|(p, _)| p.ends_with("k.cuh")));
}

#[test]
fn parses_on_several_threads_at_once() {
    let handles: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || {
                let src = format!("__global__ void k{i}(int *a) {{ a[threadIdx.x + {i}] = 1; }}");
                let u = unit(&src);
                u.kernels[0].lowered.clone().map(|k| show(&k))
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        let expected = if i == 0 {
            "a: wr[tid.x]; \n".to_string()
        } else {
            format!("a: wr[(tid.x + {i})]; \n")
        };
        assert_eq!(h.join().unwrap().unwrap(), expected);
    }
}

#[test]
fn includes_are_hashed() {
    let u = unit("#include <cuda_runtime.h>\n__global__ void k(int *a) { a[0] = 1; }");
    assert!(
        u.includes
            .iter()
            .any(|(p, h)| p.ends_with("cuda_runtime.h") && h.len() == 64),
        "{:?}",
        u.includes
    );
    let names: Vec<&str> = u.kernels[0]
        .display_names
        .iter()
        .filter(|(a, _)| a == "tid.x")
        .map(|(_, b)| b.as_str())
        .collect();
    assert_eq!(names, vec!["threadIdx.x"]);
}

#[test]
fn dependent_fields_of_parameters_take_the_instantiations_types() {
    // `data_` is `typename Traits<T>::PtrType` in the template: not a
    // pointer until `k<float>` says it is `float *`. `data()` has a const
    // overload, chosen for the const parameter.
    let src = "template <typename T> struct Traits { typedef T *PtrType; };\n\
        template <typename T> struct Acc {\n\
          typedef typename Traits<T>::PtrType PtrType;\n\
          __device__ PtrType data() { return data_; }\n\
          __device__ const PtrType data() const { return data_; }\n\
          PtrType data_; int n;\n\
        };\n\
        template <typename T> __global__ void k(const Acc<T> in, Acc<T> out) {\n\
          out.data()[threadIdx.x] = in.data()[threadIdx.x + in.n];\n\
          out.data_[threadIdx.x] += 1;\n\
        }\n\
        void go(Acc<float> a, Acc<float> b) { k<float><<<1, 64>>>(a, b); }\n";
    let u = unit(src);
    let k = u.kernels[0]
        .lowered
        .clone()
        .unwrap_or_else(|e| panic!("{}", e.reason));
    let s = show(&k);
    assert!(s.contains("out.data_: wr[tid.x]"), "{s}");
    assert!(s.contains("in.data_: rd[(tid.x + in.n)]"), "{s}");
}

#[test]
fn shared_reads_stay_shared_through_branches_and_returns() {
    // A read every thread of the block makes at one address, merged with
    // a constant by a helper's returns, by `?:` or by an `if`, is still one
    // value for the block: a local the kernel lists as block-uniform.
    for body in [
        "int c = ok(blockIdx.x, n, a);",
        "int c = blockIdx.x < n ? a[blockIdx.x] : 0;",
        "int c = 0; if (blockIdx.x < n) c = a[blockIdx.x];",
    ] {
        let src = format!(
            "__device__ int ok(int i, int n, const int *a) {{ if (i < n) return a[i]; return 0; }}\n\
             __global__ void k(int n, const int *a, float *out) {{ {body} if (c) out[blockIdx.x] = 1; }}\n"
        );
        let k = kernel(&src);
        assert!(!k.block_uniform.is_empty(), "{body}: {}", show(&k));
    }
}

#[test]
fn instantiated_host_templates_name_the_kernel_instantiations_they_launch() {
    // `run<T>` launches `k<T>`: the calls of `run` give `k` its types, and
    // the dependent launch gives each its configuration.
    let src = "template <typename T> __global__ void k(T *a) { a[threadIdx.x] = (T)0; }\n\
        template <typename T> void run(T *a) { k<T><<<1, 64>>>(a); }\n\
        template <typename T> void twice(T *a) { run<T>(a); run<T>(a); }\n\
        void go(int *a, short *b) { twice<int>(a); run<short>(b); }\n";
    let u = unit(src);
    let names: Vec<&str> = u.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["k<int>", "k<short>"]);
    for k in &u.kernels {
        assert_eq!(k.launches.len(), 1, "{}", k.name);
        assert_eq!(k.launches[0].block[0], Some(64));
    }
    // A dispatch over many values: past MAX_HOSTED instantiations the
    // kernel is analysed once, open, as without them.
    let calls: String = (0..=crate::cuda::MAX_HOSTED)
        .map(|i| format!("run<{i}>(a); "))
        .collect();
    let src = format!(
        "template <int N> __global__ void k(int *a) {{ a[threadIdx.x * (N + 1)] = 0; }}\n\
         template <int N> void run(int *a) {{ k<N><<<1, 64>>>(a); }}\n\
         void go(int *a) {{ {calls} }}\n"
    );
    let names: Vec<String> = unit(&src).kernels.iter().map(|k| k.name.clone()).collect();
    assert_eq!(names, ["k"], "{names:?}");
    let few = src.replace("run<16>(a);", "").replace("run<15>(a);", "");
    let names: Vec<String> = unit(&few).kernels.iter().map(|k| k.name.clone()).collect();
    assert_eq!(names.len(), crate::cuda::MAX_HOSTED - 1, "{names:?}");
    // Not instantiated anywhere: the kernel stays open.
    let src = "template <typename T> __global__ void k(T *a) { a[threadIdx.x] = (T)0; }\n\
        template <typename T> void run(T *a) { k<T><<<1, 64>>>(a); }\n";
    let names: Vec<String> = unit(src).kernels.iter().map(|k| k.name.clone()).collect();
    assert_eq!(names, ["k<T>"]);
}

#[test]
fn a_host_templates_parameter_passed_on_to_the_kernel_sizes_each_instance() {
    // Through a functor of a class template, whose `operator()` picks the
    // instantiations: the block is the kernel's own `B`.
    let src = "template <typename T, int B> __global__ void k(T *a) { a[threadIdx.x] = (T)0; }\n\
        template <typename T, int B> void run(T *a) { constexpr int threads = B; dim3 block(threads); k<T, B><<<1, block>>>(a); }\n\
        template <typename T> struct Pick { void operator()(T *a, int n) { if (n > 64) run<T, 128>(a); else run<T, 32>(a); } };\n\
        void go(float *a, int n) { Pick<float>()(a, n); }\n";
    let u = unit(src);
    let names: Vec<&str> = u.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["k<float, 128>", "k<float, 32>"]);
    assert_eq!(blocks(&u, "k<float, 128>"), [Some(128)]);
    assert_eq!(blocks(&u, "k<float, 32>"), [Some(32)]);
    // Never instantiated (a library): the launch relates the block to the
    // parameter left open, and passes what it computes from it.
    let src =
        "template <typename T, int B> __global__ void k(T *a, int n) { a[threadIdx.x] = (T)0; }\n\
        template <typename T, int B> void run(T *a) { k<T, B><<<4, 2 * B>>>(a, B / 2); }\n";
    let u = unit(src);
    let k = &u.kernels[0];
    let described: Vec<String> = k.launches.iter().map(|s| s.describe()).collect();
    assert_eq!(described, ["<<<(4, 1, 1), (2 * B, 1, 1)>>>(n = B / 2)"]);
    let lowered = k.lowered.as_ref().unwrap();
    let assumed: Vec<String> = lowered.assumes.iter().map(|c| c.to_string()).collect();
    assert!(
        assumed.iter().any(|c| c.contains("blockDim.x == 2 * B")),
        "{assumed:?}"
    );
    // Instantiated: the instance's own value.
    let src = format!("{src}void go(float *a) {{ run<float, 64>(a); }}\n");
    let u = unit(&src);
    assert_eq!(
        first_launch(&u, "k<float, 64>"),
        "<<<(4, 1, 1), (128, 1, 1)>>>(n = 32)"
    );
    // A parameter the launch does not pass on to the kernel (`B` of
    // `other`, where the kernel gets 64) says nothing of the block.
    let src = "template <typename T, int B> __global__ void k(T *a) { a[threadIdx.x] = (T)0; }\n\
        template <int B> void other(float *a) { k<float, 64><<<1, B>>>(a); }\n";
    assert_eq!(blocks(&unit(src), "k<float, 64>"), [None]);
}

#[test]
fn launches_in_host_templates_count_for_every_instantiation_they_may_make() {
    // Every argument deduced: the launch is of the template.
    let src = "template <typename T> __global__ void mm(T *c) { c[threadIdx.y * 16 + threadIdx.x] = 0; }\n\
        template <typename T> void run(T *c) { dim3 b(16, 16); mm<<<1, b>>>(c); }\n\
        void go(float *c) { run(c); }\n";
    let u = unit(src);
    assert_eq!(u.kernels.len(), 1);
    assert_eq!(u.kernels[0].launches.len(), 1);
    assert_eq!(
        u.kernels[0].launches[0].block,
        [Some(16), Some(16), Some(1)]
    );
    // A launch naming the instantiation in part (`k<T, 64>`) may launch
    // the one host code names whole: both launches are its.
    let src = "template <typename T, int N> __global__ void k(T *a) { a[threadIdx.x] = 0; }\n\
        template <typename T> void run(T *a) { k<T, 64><<<1, 64>>>(a); }\n\
        void go(float *a) { k<float, 64><<<2, 128>>>(a); run(a); }\n";
    let u = unit(src);
    let k = u.kernels.iter().find(|k| k.name == "k<float, 64>").unwrap();
    let mut blocks: Vec<_> = k.launches.iter().map(|s| s.block[0]).collect();
    blocks.sort();
    assert_eq!(blocks, vec![Some(64), Some(128)]);
    // A builtin type written in a host template's launch has no cursor of
    // its own: the values after it still go to their own parameters.
    let src = "template <typename T, int A, int B> __global__ void k(T *a) { a[threadIdx.x * A + B] = 0; }\n\
        template <typename T> void run(T *a) { k<float, 2, 1><<<1, 64>>>(a); }\n\
        void go(float *a) { run(a); }\n";
    let u = unit(src);
    let names: Vec<&str> = u.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["k<float, 2, 1>"]);
    let s = show(&u.kernels[0].lowered.clone().unwrap());
    assert!(s.contains("tid.x * 2") && s.contains("+ 1"), "{s}");
    // The same launch spelled in a macro.
    let src = "template <typename T, int A, int B> __global__ void k(T *a) { a[threadIdx.x * A + B] = 0; }\n\
        #define LAUNCH(n) k<float, 2, n><<<1, 64>>>(a);\n\
        template <typename T> void run(T *a) { LAUNCH(1) }\n\
        void go(float *a) { run(a); }\n";
    let names: Vec<String> = unit(src).kernels.iter().map(|k| k.name.clone()).collect();
    assert_eq!(names, ["k<float, 2, 1>"]);
    // Shifts and comparisons inside parentheses close no list.
    let src = "template <typename T, int B> __global__ void k(int *a) { a[threadIdx.x * B] = 0; }\n\
        template <typename T> void run(int *a) { k<T, (16 >> 2)><<<1, 64>>>(a); k<float, (3 > 2) + 1><<<1, 64>>>(a); }\n\
        void go(int *a) { run<float>(a); }\n";
    let mut names: Vec<String> = unit(src).kernels.iter().map(|k| k.name.clone()).collect();
    names.sort();
    // `run<float>` is instantiated: `k<T, …>` is `k<float, 4>` there.
    assert_eq!(names, ["k<float, 2>", "k<float, 4>"]);
}

#[test]
fn launches_in_host_code_fix_the_dimensions() {
    let src = "#define BS 16\n\
        __global__ void tile(float *a) { a[threadIdx.y * BS + threadIdx.x] = 0; }\n\
        __global__ void two(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void changed(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void escapes(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void never(float *a) { a[threadIdx.x] = 0; }\n\
        void run(float *a, int n) {\n\
          dim3 block(BS, BS);\n\
          dim3 grid((n + BS - 1) / BS);\n\
          tile<<<grid, block>>>(a);\n\
          two<<<n, 64>>>(a);\n\
          two<<<n, 128>>>(a);\n\
          int t = 32;\n\
          t *= 2;\n\
          changed<<<1, t>>>(a);\n\
          void (*f)(float *) = escapes;\n\
          escapes<<<1, 32>>>(a);\n\
        }\n";
    let u = unit(src);
    let by = |name: &str| u.kernels.iter().find(|k| k.name == name).unwrap();
    let tile = by("tile");
    assert_eq!(tile.launches.len(), 1);
    assert_eq!(tile.launches[0].block, [Some(16), Some(16), Some(1)]);
    assert_eq!(tile.launches[0].grid, [None, Some(1), Some(1)]);
    let k = tile.lowered.clone().unwrap();
    let fixed = |k: &Kernel, v: &str, n: i64| {
        k.assumes
            .contains(&Cond::cmp(Rel::Eq, Expr::var(v), Expr::Int(n)))
    };
    assert!(
        fixed(&k, "blockDim.x", 16) && fixed(&k, "blockDim.y", 16) && fixed(&k, "gridDim.y", 1)
    );
    // An axis of one thread or one block has one index, put in the body.
    let tile = unit("#define BS 16\n\
        __global__ void tile(float *a) { a[(blockIdx.y * gridDim.x + blockIdx.x) * 256 + threadIdx.z * 16 + threadIdx.x] = 0; }\n\
        void run(float *a, int n) { tile<<<n, dim3(BS, BS)>>>(a); }\n");
    let s = show(&tile.kernels[0].lowered.clone().unwrap());
    assert!(
        !s.contains("tid.z") && !s.contains("bid.y") && s.contains("bid.x"),
        "{s}"
    );
    assert!(!k
        .assumes
        .iter()
        .any(|c| format!("{c:?}").contains("gridDim.x")));
    // Two launches: one of them happens.
    let two = by("two").lowered.clone().unwrap();
    assert_eq!(by("two").launches.len(), 2);
    assert!(
        two.assumes.iter().any(|c| matches!(c, Cond::Or(..))),
        "{:?}",
        two.assumes
    );
    // A size that changes, a kernel whose address escapes, a kernel never
    // launched: symbolic.
    assert_eq!(by("changed").launches[0].block, [None, Some(1), Some(1)]);
    // Fields set one by one, the older style; a field set under a condition.
    let src = "__global__ void k(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void c(float *a) { a[threadIdx.x] = 0; }\n\
        void run(float *a, int n) {\n\
          dim3 threads;\n\
          threads.x = 256;\n\
          threads.y = 1;\n\
          dim3 grid;\n\
          grid.x = n / 256;\n\
          k<<<grid, threads>>>(a);\n\
          dim3 t2(64);\n\
          if (n > 4) t2.x = 128;\n\
          c<<<1, t2>>>(a);\n\
        }\n";
    let u = unit(src);
    assert_eq!(
        u.kernels[0].launches[0].block,
        [Some(256), Some(1), Some(1)]
    );
    assert_eq!(u.kernels[0].launches[0].grid, [None, Some(1), Some(1)]);
    assert_eq!(u.kernels[1].launches[0].block, [None, Some(1), Some(1)]);
    assert!(by("escapes").launches.is_empty());
    assert!(by("never").launches.is_empty());
    assert!(!by("never")
        .lowered
        .clone()
        .unwrap()
        .assumes
        .iter()
        .any(|c| format!("{c:?}").contains("blockDim")));
}

#[test]
fn runtime_api_launches_read_their_kernel_and_sizes() {
    // A kernel named by a local and launched through the runtime API; the
    // occupancy query of another function's local lets nothing escape.
    let src = "template <int T> __global__ void k(float *a) { a[threadIdx.x] = 0; }\n\
        void run(float *a, const dim3 &grid) {\n\
          auto kernel = k<128>;\n\
          void *args[] = {&a};\n\
          if (grid.x > 1) cudaLaunchCooperativeKernel((const void *)kernel, grid, dim3(128), args, 0, 0);\n\
          else cudaLaunchKernel((const void *)kernel, grid, dim3(128), args, 0, 0);\n\
        }\n\
        int occupancy() { auto kernel = k<128>; int b = 0;\n\
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, 128, 0); return b; }\n";
    let u = unit(src);
    let k = &u.kernels[0];
    assert_eq!(k.launches.len(), 2, "{:?}", k.launches);
    assert!(k
        .launches
        .iter()
        .all(|l| l.block == [Some(128), Some(1), Some(1)]));
    // Kept anywhere else, the local lets the kernel escape.
    let u = unit(&src.replace("return b; }", "void *keep = (void *)kernel; return b; }"));
    assert!(u.kernels[0].launches.is_empty());
    // `cudaLaunchKernelEx`: the configuration's fields at the launch, set
    // one by one (the last assignment reaching it) or by braces.
    let src = "__global__ void a(float *p) { p[threadIdx.x] = 0; }\n\
        __global__ void b(float *p) { p[threadIdx.x] = 0; }\n\
        __global__ void c(float *p) { p[threadIdx.x] = 0; }\n\
        void run(float *p, int n, cudaStream_t s) {\n\
          cudaLaunchConfig_t config = {0};\n\
          config.gridDim = dim3(n / 64);\n\
          config.blockDim = dim3(32);\n\
          config.blockDim = dim3(64);\n\
          config.stream = s;\n\
          cudaLaunchKernelEx(&config, a, p);\n\
          cudaLaunchConfig_t braced = {dim3(4), dim3(256), 0, s, nullptr, 0};\n\
          cudaLaunchKernelEx(&braced, b, p);\n\
          cudaLaunchConfig_t changed = {dim3(4), dim3(256), 0, s, nullptr, 0};\n\
          if (n > 8) changed.blockDim.x = 512;\n\
          cudaLaunchKernelEx(&changed, c, p);\n\
        }\n";
    let u = unit(src);
    let by = |name: &str| u.kernels.iter().find(|k| k.name == name).unwrap();
    assert_eq!(by("a").launches[0].block, [Some(64), Some(1), Some(1)]);
    assert_eq!(by("a").launches[0].grid, [None, Some(1), Some(1)]);
    assert_eq!(by("b").launches[0].block, [Some(256), Some(1), Some(1)]);
    assert_eq!(by("b").launches[0].grid, [Some(4), Some(1), Some(1)]);
    // A field changed under a condition: its sizes are not known.
    assert_eq!(by("c").launches[0].block, [None; 3]);
}

#[test]
fn libcu_atomics_are_atomic_accesses_of_their_cell() {
    let k = kernel(
        "#include <cuda/atomic>\n\
         __device__ cuda::atomic<int, cuda::thread_scope_device> count;\n\
         __global__ void k(int *bins, const int *v, cuda::std::atomic<int> *flags) {\n\
           cuda::atomic_ref<int, cuda::thread_scope_device> b(bins[v[threadIdx.x] % 8]);\n\
           b.fetch_add(1, cuda::memory_order_relaxed);\n\
           count++;\n\
           flags[threadIdx.x].store(1);\n\
         }\n",
    );
    let s = show(&k);
    for array in ["bins", "count", "flags"] {
        let p = k
            .arrays
            .iter()
            .find(|a| a.name == array)
            .unwrap_or_else(|| panic!("{s}"));
        let mut accesses = Vec::new();
        p.body.accesses(&mut accesses);
        assert!(
            !accesses.is_empty() && accesses.iter().all(|a| a.mode == Mode::Atomic),
            "{array}: {s}"
        );
    }
    // A spin lock on an `atomic_flag`: acquire and release orders are its
    // fences; relaxed ones leave the section unordered.
    let locked = |acquire: &str, release: &str| {
        let k = kernel(&format!(
            "#include <cuda/atomic>\n\
             __device__ cuda::std::atomic_flag lock;\n\
             __global__ void k(int *total) {{\n\
               if (threadIdx.x == 0) {{\n\
                 while (lock.test_and_set(cuda::memory_order_{acquire})) {{}}\n\
                 total[0] += 1;\n\
                 lock.clear(cuda::memory_order_{release});\n\
               }}\n\
             }}\n"
        ));
        let p = k.arrays.iter().find(|a| a.name == "total").unwrap();
        let mut accesses = Vec::new();
        p.body.accesses(&mut accesses);
        accesses.iter().all(|a| a.lock.is_some())
    };
    assert!(locked("acquire", "release"));
    assert!(!locked("relaxed", "relaxed"));
}

#[test]
fn a_loop_of_block_wide_bounds_leaves_its_variable_uniform() {
    // Whether the value stored after the loop is one for the block.
    let exit_uniform = |body: &str| {
        let k = kernel(&format!(
            "__global__ void k(float *a, int n) {{ int o = 1; {body} a[threadIdx.x] = o; }}"
        ));
        let stored: Vec<&String> = k.locals.iter().filter(|l| l.starts_with('o')).collect();
        !stored.is_empty() && stored.iter().all(|l| k.block_uniform.contains(l))
    };
    assert!(exit_uniform("while (o < n) { __syncthreads(); o <<= 1; }"));
    // A bound of the thread's own, a jump out, an enclosing loop: no.
    assert!(!exit_uniform("while (o < threadIdx.x) { o <<= 1; }"));
    assert!(!exit_uniform(
        "while (o < n) { if (a[o] > 0) break; o <<= 1; }"
    ));
    assert!(!exit_uniform(
        "for (int r = 0; r < n; r++) { while (o < n) { o <<= 1; } }"
    ));
}

#[test]
fn launch_sizes_from_the_kernels_arguments() {
    let src = "__global__ void mm(float *c, int n, int m, int k) { c[threadIdx.x] = 0; }\n\
        __global__ void moved(float *c, int n) { c[threadIdx.x] = 0; }\n\
        __global__ void looped(float *c, int n) { c[threadIdx.x] = 0; }\n\
        void run(float *c, int n, int m) {\n\
          dim3 block(16, 16);\n\
          int blocks = (n + block.x - 1) / block.x;\n\
          dim3 grid(blocks, m / block.y);\n\
          mm<<<grid, block>>>(c, n, m, 64);\n\
        }\n\
        void run2(float *c, int n) {\n\
          dim3 grid(n / 32);\n\
          n = n + 1;\n\
          moved<<<grid, 32>>>(c, n);\n\
        }\n\
        void run3(float *c, int n) {\n\
          for (int i = 0; i < n; i++) looped<<<n / 32 + i, 32>>>(c, i);\n\
        }\n\
        __global__ void set_before(float *c, int n) { c[threadIdx.x] = 0; }\n\
        __global__ void in_loop(float *c, int n) { c[threadIdx.x] = 0; }\n\
        void run4(float *c, const int *sizes) {\n\
          int n;\n\
          n = sizes[0];\n\
          dim3 grid(n / 32);\n\
          set_before<<<grid, 32>>>(c, n);\n\
        }\n\
        void run5(float *c, int n) {\n\
          dim3 grid(n / 32);\n\
          while (n > 0) {\n\
            in_loop<<<grid, 32>>>(c, n);\n\
            n--;\n\
          }\n\
        }\n\
        __global__ void wavefront(float *c, int cols, int i, int width) { c[threadIdx.x] = 0; }\n\
        void sweep(float *c, int cols) {\n\
          dim3 grid;\n\
          int width = (cols - 1) / 16;\n\
          for (int i = 1; i <= width; i++) {\n\
            grid.x = i;\n\
            grid.y = 1;\n\
            wavefront<<<grid, dim3(16, 1)>>>(c, cols, i, width);\n\
          }\n\
        }\n\
        __global__ void helped(float *c, int n) { c[threadIdx.x] = 0; }\n\
        static int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }\n\
        void run6(float *c, int n) { helped<<<iDivUp(n, 64), 64>>>(c, n); }\n\
        __global__ void assigned(float *c, int n, int t) { c[threadIdx.x] = 0; }\n\
        int main(int argc, char **argv) {\n\
          int n, m, t;\n\
          n = m = 512;\n\
          t = 64;\n\
          if (argc > 1) t = 128;\n\
          assigned<<<n / 32, 32>>>(0, n, t);\n\
          return 0;\n\
        }\n";
    let u = unit(src);
    let site = |name: &str| {
        let k = u.kernels.iter().find(|k| k.name == name).unwrap();
        k.launches[0].clone()
    };
    // Sizes computed from passed values are terms over the arguments; the
    // constant argument is fixed. `block.x` reads the `dim3`'s axis.
    assert_eq!(
        site("mm").describe(),
        "<<<((n + 16 - 1) / 16, m / 16, 1), (16, 16, 1)>>>(k = 64)"
    );
    let k = u.kernels[0].lowered.clone().unwrap();
    let assumed: Vec<String> = k.assumes.iter().map(|c| c.to_string()).collect();
    let assumed = assumed.join("\n");
    assert!(assumed.contains("gridDim.y == "), "{assumed}");
    assert!(assumed.contains("k == 64"), "{assumed}");
    // A value changed between the size and the launch, or one a loop
    // changes: no relation.
    assert_eq!(site("moved").describe(), "<<<(?, 1, 1), (32, 1, 1)>>>");
    // The counter of the loop around the launch is within its bounds.
    assert_eq!(
        site("looped").describe(),
        "<<<(?, 1, 1), (32, 1, 1)>>>(n >= 0)"
    );
    assert!(site("in_loop").relations.is_empty());
    // A wavefront: the grid's width set field by field from the counter,
    // an argument computed from another.
    assert_eq!(
        site("wavefront").describe(),
        "<<<(i, 1, 1), (16, 1, 1)>>>(i >= 1, i <= width, width = (cols - 1) / 16)"
    );
    // A helper of one return is read through, its `?:` included.
    assert_eq!(
        site("helped").describe(),
        "<<<((n % 64 != 0 ? n / 64 + 1 : n / 64), 1, 1), (64, 1, 1)>>>"
    );
    // The assignment that reaches the launch on every path gives the
    // value; one under a condition leaves it open, but for the least of
    // the constants it may be.
    assert_eq!(
        site("assigned").describe(),
        "<<<(16, 1, 1), (32, 1, 1)>>>(n = 512, t >= 64)"
    );
    // Set once before the size is computed from it: it holds.
    assert_eq!(
        site("set_before").describe(),
        "<<<(n / 32, 1, 1), (32, 1, 1)>>>"
    );
}

#[test]
fn a_negative_constant_argument_leaves_its_parameter_open() {
    // Parameters are natural numbers: `-1` cannot fix one.
    let u = unit(
        "__global__ void k(float *x, int dim, int n) { int i = blockIdx.x * 256 + threadIdx.x; \
         if (i < n) x[i / 2] = (i < dim) ? 1.f : 0.f; }\n\
         void run(float *x, int n) { k<<<(n + 255) / 256, 256>>>(x, -1, n); }",
    );
    let k = u.kernels[0].lowered.as_ref().expect("lowered");
    let fixed = k
        .assumes
        .iter()
        .any(|c| format!("{c:?}").contains("Int(-1)"));
    assert!(!fixed, "{:?}", k.assumes);
    let s = u.kernels[0].launches[0]
        .relations
        .iter()
        .any(|r| r.term == launch::Term::Int(-1));
    assert!(!s, "{:?}", u.kernels[0].launches[0].relations);
}

#[test]
fn launch_arguments_host_code_only_grows_are_at_least_their_start() {
    let src = "__global__ void pass(float *s, int n, int stride) { s[threadIdx.x] = 0; }\n\
        void grown(float *s, int n) {\n\
          int stride;\n\
          stride = 1;\n\
          while (n > 1) {\n\
            pass<<<n, 256>>>(s, n, stride);\n\
            n = n / 256;\n\
            stride = stride * 256;\n\
          }\n\
        }\n\
        __global__ void doubled(float *s, int n, int stride) { s[threadIdx.x] = 0; }\n\
        void twice(float *s, int n) {\n\
          for (int w = 2; w < n; w = 2 * w) { doubled<<<n, 256>>>(s, n, w); w += 4; }\n\
        }\n\
        __global__ void shrunk(float *s, int n, int stride) { s[threadIdx.x] = 0; }\n\
        void halved(float *s, int n) {\n\
          int stride = 64;\n\
          while (n > 1) { shrunk<<<n, 256>>>(s, n, stride); stride /= 2; n--; }\n\
        }\n\
        __global__ void taken(float *s, int n, int stride) { s[threadIdx.x] = 0; }\n\
        void read_into(int *p);\n\
        void addressed(float *s, int n) {\n\
          int stride = 1;\n\
          read_into(&stride);\n\
          taken<<<n, 256>>>(s, n, stride);\n\
        }\n\
        __global__ void negative(float *s, int n, int stride) { s[threadIdx.x] = 0; }\n\
        void from_below(float *s, int n) {\n\
          int stride = -4;\n\
          while (n > 1) { negative<<<n, 256>>>(s, n, stride); stride = stride * 2; n--; }\n\
        }\n";
    let u = unit(src);
    let site = |name: &str| first_launch(&u, name);
    assert_eq!(site("pass"), "<<<(n, 1, 1), (256, 1, 1)>>>(stride >= 1)");
    assert!(
        site("doubled").contains("stride >= 2"),
        "{}",
        site("doubled")
    );
    // Halved, written through a pointer, or grown from below 0 (where
    // doubling makes it smaller): nothing is said.
    for name in ["shrunk", "taken", "negative"] {
        assert!(!site(name).contains("stride"), "{name}: {}", site(name));
    }
}

#[test]
fn a_change_clang_leaves_an_unresolved_operator_call_is_a_change() {
    // `Tensor` is undeclared, so `t.size(d)` has no type; with the
    // `operator*=` overloads of `cuda_fp16.h` in scope, `n *= t.size(d)`
    // is an unresolved operator call.
    let src = "#include <cuda_fp16.h>\n\
        __global__ void plain(float *a, int n) { a[threadIdx.x] = 0; }\n\
        void product(Tensor t, float *a) {\n\
          int n = 1;\n\
          for (int d = 0; d < t.dim(); ++d) n *= t.size(d);\n\
          plain<<<n, 256>>>(a, n);\n\
        }\n\
        __global__ void expanded(float *a, int n) { a[threadIdx.x] = 0; }\n\
        #define BINDING(name) void name(Tensor t, float *a) { \\\n\
          int n = 1; \\\n\
          for (int d = 0; d < t.dim(); ++d) n *= t.size(d); \\\n\
          dim3 grid(n); \\\n\
          expanded<<<grid, 256>>>(a, n); }\n\
        BINDING(bound)\n\
        ";
    let u = unit(src);
    let site = |name: &str| first_launch(&u, name);
    // A size may be 0: not even `n >= 1` holds.
    assert!(!site("plain").contains("n "), "{}", site("plain"));
    assert_eq!(site("expanded"), "<<<(?, 1, 1), (256, 1, 1)>>>");
}

#[test]
fn a_loop_over_a_counter_declared_before_it_bounds_the_launches_in_it() {
    // Rodinia's LU decomposition: `for (i = 0; i < n - 16; i += 16)` over an
    // `i` declared above, and one more launch after the loop.
    let src = "__global__ void diagonal(float *m, int n, int offset) { m[threadIdx.x] = 0; }\n\
        __global__ void inner(float *m, int n, int offset) { m[threadIdx.x] = 0; }\n\
        __global__ void moved(float *m, int n, int offset) { m[threadIdx.x] = 0; }\n\
        void lu(float *m, int n) {\n\
          int i = 0;\n\
          for (i = 0; i < n - 16; i += 16) {\n\
            diagonal<<<1, 16>>>(m, n, i);\n\
            inner<<<1, 16>>>(m, n, i);\n\
          }\n\
          diagonal<<<1, 16>>>(m, n, i);\n\
          for (i = 4; i < n; i++) { moved<<<1, 16>>>(m, n, i); i += 2; }\n\
        }\n";
    let u = unit(src);
    let all = |name: &str| -> Vec<String> {
        let k = u.kernels.iter().find(|k| k.name == name).unwrap();
        k.launches.iter().map(|s| s.describe()).collect()
    };
    assert_eq!(
        all("diagonal"),
        [
            "<<<(1, 1, 1), (16, 1, 1)>>>(offset >= 0, offset < n - 16)",
            "<<<(1, 1, 1), (16, 1, 1)>>>(offset >= 0)",
        ]
    );
    assert_eq!(
        all("inner"),
        ["<<<(1, 1, 1), (16, 1, 1)>>>(offset >= 0, offset < n - 16)"]
    );
    // A body that moves the counter leaves the loop's bound unsaid.
    assert!(!all("moved")[0].contains("< n"), "{:?}", all("moved"));
}

#[test]
fn a_size_field_set_from_another_field_is_read_where_it_is_set() {
    let src = "#define DIVISIONS 1024\n\
        __global__ void offsets(unsigned *p, int blocks) { p[threadIdx.x] = 0; }\n\
        __global__ void later(unsigned *p, int blocks) { p[threadIdx.x] = 0; }\n\
        void sort(unsigned *p, int blocks) {\n\
          dim3 threads(32, 1);\n\
          dim3 grid(blocks, 1);\n\
          threads.x = 128;\n\
          grid.x = DIVISIONS / threads.x;\n\
          offsets<<<grid, threads>>>(p, blocks);\n\
          threads.x = 256;\n\
          later<<<grid, threads>>>(p, blocks);\n\
        }\n";
    let u = unit(src);
    let site = |name: &str| first_launch(&u, name);
    assert_eq!(site("offsets"), "<<<(8, 1, 1), (128, 1, 1)>>>");
    // The grid keeps the value it was given, whatever the block becomes.
    assert_eq!(site("later"), "<<<(8, 1, 1), (256, 1, 1)>>>");
}

#[test]
fn fields_set_in_a_chain_of_assignments_all_count() {
    // `threads.x = threads.y = 16` sets both; read as `threads.y == 1`,
    // the block's rows would be lost (and their races with them).
    let src = "__global__ void tiles(float *p) { p[threadIdx.x] = 0; }\n\
        void run(float *p) {\n\
          dim3 threads;\n\
          threads.x = threads.y = 16;\n\
          dim3 grid;\n\
          grid.x = 64 / threads.x;\n\
          grid.y = 80 / threads.y;\n\
          threads.z = grid.z = 1;\n\
          tiles<<<grid, threads>>>(p);\n\
        }\n";
    let u = unit(src);
    assert_eq!(first_launch(&u, "tiles"), "<<<(4, 5, 1), (16, 16, 1)>>>");
}

#[test]
fn launches_in_device_code_are_read_from_the_text() {
    // clang drops launches in device code; their literal and macro sizes
    // join the host's, so a kernel launched one thread wide everywhere is
    // analysed so. One launch it cannot read leaves the kernel symbolic.
    let src = "#define ONE 1\n\
        __global__ void child(int *a) { a[0] = threadIdx.x; }\n\
        __global__ void open(int *a, int n) { a[0] = threadIdx.x; }\n\
        __global__ void parent(int *a, int n) {\n\
          child<<<1, ONE, 0>>>(a);\n\
          child<<<dim3(2), dim3(ONE, 1)>>>(a + 1);\n\
          open<<<1, n>>>(a, n);\n\
        }\n\
        void host(int *a) { child<<<1, 1>>>(a); open<<<1, 1>>>(a, 1); }\n";
    let u = unit(src);
    let k = |name: &str| u.kernels.iter().find(|k| k.name == name).unwrap();
    let launches: Vec<String> = k("child").launches.iter().map(|s| s.describe()).collect();
    assert_eq!(
        launches,
        [
            "<<<(1, 1, 1), (1, 1, 1)>>>",
            "<<<(1, 1, 1), (1, 1, 1)>>>",
            "<<<(2, 1, 1), (1, 1, 1)>>>"
        ]
    );
    let notes = |name: &str| k(name).lowered.as_ref().unwrap().approximations.join("\n");
    assert!(
        !notes("child").contains("device code"),
        "{}",
        notes("child")
    );
    assert!(k("open").launches.is_empty());
    assert!(
        notes("open").contains("launched from device code"),
        "{}",
        notes("open")
    );
}

#[test]
fn device_launch_sizes_from_text() {
    use super::launch::device_site;
    let src = "#define T 0x40u\nk<<<4, T>>>(a);\n  k<8><<<dim3(2, 3), dim3(T, 2, 1), 0, s>>>();\nk<<<(n), 32>>>(a);\n";
    let site = |line, col| device_site(src, "f.cu", line, col).map(|s| (s.grid, s.block));
    assert_eq!(
        site(2, 1),
        Some(([Some(4), Some(1), Some(1)], [Some(64), Some(1), Some(1)]))
    );
    assert_eq!(
        site(3, 3),
        Some(([Some(2), Some(3), Some(1)], [Some(64), Some(2), Some(1)]))
    );
    assert_eq!(site(4, 1), Some(([None; 3], [Some(32), Some(1), Some(1)])));
    // Not at a launch: no site.
    assert_eq!(site(1, 1), None);
}

/// How the first launch of kernel `name` in the unit reads.
fn first_launch(u: &Unit, name: &str) -> String {
    let k = u.kernels.iter().find(|k| k.name == name).unwrap();
    k.launches[0].describe()
}

/// The block widths a unit's launches of kernel `name` give.
fn blocks(u: &Unit, name: &str) -> Vec<Option<u64>> {
    let k = u.kernels.iter().find(|k| k.name == name).unwrap();
    k.launches.iter().map(|s| s.block[0]).collect()
}

#[test]
fn launch_sizes_from_tables_loops_and_callers() {
    let kernels = "__global__ void table(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void looped(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void chosen(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void written(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void escaping(float *a) { a[threadIdx.x] = 0; }\n";
    let src = format!(
        "{kernels}\
        static void run(float *a, int threads) {{ table<<<1, threads * 2>>>(a); }}\n\
        static void run2(float *a, int threads) {{ escaping<<<1, threads>>>(a); }}\n\
        int main() {{\n\
          int sizes[] = {{32, 64}};\n\
          for (int i = 0; i < sizeof(sizes) / sizeof(int); i++) run(0, sizes[i]);\n\
          run(0, 8);\n\
          for (int t = 16; t <= 64; t *= 2) looped<<<1, t>>>(0);\n\
          chosen<<<1, sizes[0] > 1 ? 128 : 256>>>(0);\n\
          int w[] = {{1, 2}};\n\
          w[1] = 3;\n\
          written<<<1, w[0]>>>(0);\n\
          void (*f)(float *, int) = run2;\n\
          run2(0, 32);\n\
          return 0;\n\
        }}\n"
    );
    let u = unit(&src);
    assert_eq!(blocks(&u, "table"), [Some(16), Some(64), Some(128)]);
    assert_eq!(blocks(&u, "looped"), [Some(16), Some(32), Some(64)]);
    assert_eq!(blocks(&u, "chosen"), [Some(128), Some(256)]);
    // An array written after its initialisation, a helper whose address is
    // taken: unknown.
    assert_eq!(blocks(&u, "written"), [None]);
    assert_eq!(blocks(&u, "escaping"), [None]);
    // Several sizes: one of them happens.
    let k = u.kernels[0].lowered.clone().unwrap();
    assert!(
        k.assumes.iter().any(|c| matches!(c, Cond::Or(..))),
        "{:?}",
        k.assumes
    );
    // A helper other files may call (no `main` here, not `static`): its
    // callers in this file are not all of them.
    let src = format!(
        "{kernels}\
        void run(float *a, int threads) {{ table<<<1, threads>>>(a); }}\n\
        void go() {{ run(0, 64); }}\n"
    );
    let u = unit(&src);
    assert_eq!(u.kernels[0].launches[0].block, [None, Some(1), Some(1)]);
    // Branches on the size: a `case` pins an unknown one; a branch the
    // known size never takes launches with the size its guard pins, if
    // any caller takes it.
    let src = format!(
        "{kernels}\
        void run(float *a, int threads) {{\n\
          switch (threads) {{\n\
            case 128: table<<<1, threads>>>(a); break;\n\
            case 256: a[0] = 1; looped<<<1, threads>>>(a); break;\n\
            case 512: a[1] = 2;\n\
            case 1024: escaping<<<1, threads>>>(a); break;\n\
          }}\n\
        }}\n\
        static void pick(float *a, int width) {{\n\
          dim3 block(width, width);\n\
          if (width == 16) chosen<<<1, block>>>(a); else written<<<1, block>>>(a);\n\
        }}\n\
        int main() {{ pick(0, 32); return 0; }}\n"
    );
    let u = unit(&src);
    assert_eq!(blocks(&u, "table"), [Some(128)]);
    assert_eq!(blocks(&u, "looped"), [Some(256)]);
    // Case 512 falls through into case 1024: either size.
    assert_eq!(blocks(&u, "escaping"), [None]);
    assert_eq!(blocks(&u, "chosen"), [Some(16)]);
    assert_eq!(blocks(&u, "written"), [Some(32)]);
    // The same switch written in one macro: its statements share one
    // place in the file, and the case of a launch is found by the tree.
    let src = format!(
        "{kernels}\
        #define RUN(n) switch (n) {{ case 128: table<<<1, n>>>(a); break; case 256: looped<<<1, n>>>(a); break; }}\n\
        void run(float *a, int threads) {{ RUN(threads) }}\n"
    );
    let u = unit(&src);
    assert_eq!(blocks(&u, "table"), [Some(128)]);
    assert_eq!(blocks(&u, "looped"), [Some(256)]);
}

#[test]
fn launch_sizes_through_range_loops_and_benchmark_harnesses() {
    let kernels = "__global__ void table(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void looped(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void escaping(float *a) { a[threadIdx.x] = 0; }\n";
    let harness = "template <class F, class... A> float time(int n, F f, A&&... a) {\n\
          for (int i = 0; i < n; i++) f(std::forward<A>(a)...);\n\
          return 0;\n\
        }\n\
        template <class F, class... A> void keep(F f, A... a) { f(a...); g_saved = (void *)f; }\n";
    let src = format!(
        "#include <utility>\nvoid *g_saved;\n{kernels}{harness}\
        void run(float *a, int threads) {{ table<<<1, threads>>>(a); }}\n\
        void run2(float *a, int threads) {{ looped<<<1, threads>>>(a); }}\n\
        void run3(float *a, int threads) {{ escaping<<<1, threads>>>(a); }}\n\
        int main() {{\n\
          int sizes[] = {{32, 64}};\n\
          for (int threads : sizes) run(0, threads);\n\
          for (int j = 0; j < 2; j++) {{ int threads = sizes[j] * 4; time(10, run, (float *)0, threads); }}\n\
          int more[] = {{128, 256}};\n\
          for (int &threads : more) {{ threads *= 2; run2(0, threads); }}\n\
          keep(run3, (float *)0, 32);\n\
          return 0;\n\
        }}\n"
    );
    let u = unit(&src);
    let blocks = |name: &str| -> Vec<Option<u64>> {
        let k = u.kernels.iter().find(|k| k.name == name).unwrap();
        k.launches.iter().map(|s| s.block[0]).collect()
    };
    // The range `for`, and the harness that calls `run` with the arguments
    // after it; the other `threads` of `main` is another variable.
    assert_eq!(blocks("table"), [Some(32), Some(64), Some(128), Some(256)]);
    // A loop variable that refers into the table (and writes it), a
    // harness that keeps the function: unknown.
    assert_eq!(blocks("looped"), [None]);
    assert_eq!(blocks("escaping"), [None]);
}

#[test]
fn command_line_launch_wins_over_host_code() {
    let src = "__global__ void k(float *a) { a[threadIdx.x % 64] = 0; }\nvoid run(float *a) { k<<<1, 64>>>(a); }\n";
    let opts = FrontendOptions {
        block_dim: Some([128, 1, 1]),
        ..Default::default()
    };
    let k = unit_with(src, &opts).kernels[0].lowered.clone().unwrap();
    assert!(k
        .assumes
        .contains(&Cond::cmp(Rel::Eq, Expr::var("blockDim.x"), Expr::Int(128))));
    assert!(!k
        .assumes
        .contains(&Cond::cmp(Rel::Eq, Expr::var("blockDim.x"), Expr::Int(64))));
}

#[test]
fn gpuverify_annotations_have_their_meaning_or_none() {
    let src = "__global__ void k(int *a, int n) {\n\
          __requires(__implies(n > 0, __is_pow2(n)));\n\
          __requires(__all(n < 100));\n\
          for (int i = 0; __invariant(__write_implies(a, __write_offset_bytes(a) >= 0)), __invariant(__uniform_int(i)), i < n; i++) {\n\
            a[threadIdx.x * n + i] = __other_int(i);\n\
          }\n\
          __assert(__no_read(a));\n\
        }\n";
    let k = kernel(src);
    // Only the kernel's own write: annotations touch no memory.
    let mut acc = Vec::new();
    k.arrays[0].body.accesses(&mut acc);
    assert_eq!(acc.len(), 1, "{}", show(&k));
    assert_eq!(k.assumes.len(), 2, "{:?}", k.assumes);
    // The loop's bound survives its invariants.
    assert!(shape(src).contains("for i in 0..n"), "{}", shape(src));
}

#[test]
fn curand_state_is_read_and_written_in_place() {
    let src = "#include <curand_kernel.h>\n\
        __global__ void own(curandState *s, float *a) { a[threadIdx.x] = curand_uniform(&s[threadIdx.x]); }\n";
    assert_eq!(shape(src).matches("s: ").count(), 1, "{}", shape(src));
    assert!(
        shape(src).contains("rd[tid.x]") && shape(src).contains("wr[tid.x]"),
        "{}",
        shape(src)
    );
}

#[test]
fn long_mixing_chains_become_unknowns_instead_of_growing() {
    // Forty rounds that each use the previous value twice: as expressions
    // they would double every round.
    let mut body = String::from("unsigned int h = threadIdx.x;\n");
    for i in 0..40 {
        body.push_str(&format!("h = (h << 3) ^ (h >> 2) ^ {i}u;\n"));
    }
    let src = format!("__global__ void mix(unsigned int *a) {{\n{body} a[h % 64] = 1;\n}}\n");
    let k = kernel(&src);
    let mut acc = Vec::new();
    k.arrays[0].body.accesses(&mut acc);
    assert_eq!(acc.len(), 1);
    assert!(
        !k.locals.is_empty(),
        "the index went through an unknown: {:?}",
        k.locals
    );
}

#[test]
fn a_pointer_assigned_in_one_branch_is_that_branch_value() {
    // Declared without a value and assigned under a condition: using it
    // where the condition fails would be undefined, so it is `a + i`.
    let s = shape("__global__ void k(float *a, int n) { int i = threadIdx.x; float *p; if (i < n) { p = a + i; } p[0] = 1; }");
    assert_eq!(s, "a: wr[tid.x]; \n");
    // Assigned unknown values on one side, it stays unknown.
    let r = reason("__device__ float *pick(float *a); __global__ void k(float *a, int n) { float *p = a; if (threadIdx.x < n) { p = pick(a); } p[0] = 1; }");
    assert!(r.contains("unknown origin"), "{r}");
}

#[test]
fn casts_change_the_size_of_the_elements_indexes_count() {
    // Through `unsigned int *` over `unsigned short` cells: two cells
    // apart, and each write covers two.
    assert_eq!(
        shape("__global__ void k(unsigned short *a) { ((unsigned int *)a)[threadIdx.x] = 0; }"),
        "a: wr[(tid.x * 2)]; wr[((tid.x * 2) + 1)]; \n"
    );
    // Shared memory carved from bytes.
    assert_eq!(
        shape("__global__ void k() { extern __shared__ char smem[]; float *f = (float *)smem; f[threadIdx.x] = 0; }"),
        "smem: wr[(tid.x * 4)]; wr[((tid.x * 4) + 1)]; wr[((tid.x * 4) + 2)]; wr[((tid.x * 4) + 3)]; \n"
    );
    // Byte arithmetic and back: the same cells.
    assert_eq!(
        shape("__global__ void k(float *a) { *(float *)((char *)a + 4 * threadIdx.x) = 0; }"),
        "a: wr[tid.x]; \n"
    );
    // A narrower view of a parameter: its cells are the parts.
    assert_eq!(
        shape("struct c2 { float x, y; }; __global__ void k(c2 *a) { ((float *)a)[threadIdx.x] = 0; }"),
        "a: wr[tid.x]; \n"
    );
    // Moving by part of a cell, then writing a whole one: two parts.
    assert_eq!(
        shape("struct c2 { float x, y; }; __global__ void k(c2 *a) { float *f = (float *)a + threadIdx.x; *(c2 *)f = c2(); }"),
        "a: wr[tid.x]; wr[(tid.x + 1)]; \n"
    );
    // Of a one-dimensional shared array too, whose subscripts then count
    // its elements in parts.
    assert_eq!(
        shape("struct c2 { float x, y; }; __global__ void k() { __shared__ c2 s[64]; ((float *)s)[threadIdx.x] = 0; }"),
        "s: wr[tid.x]; \n"
    );
    assert_eq!(
        shape("struct c2 { float x, y; }; __global__ void k() { __shared__ c2 s[64]; ((float *)s)[threadIdx.x] = 0; s[threadIdx.x] = c2(); }"),
        "s: wr[tid.x]; wr[(tid.x * 2)]; wr[((tid.x * 2) + 1)]; \n"
    );
    // A row pitch in bytes, then floats again: aligned, so the bytes are
    // whole floats and the row starts at their number.
    assert_eq!(
        shape("__global__ void k(float *a, unsigned pitch) { float *row = (float *)((char *)a + threadIdx.x * pitch); row[2] = 0; }"),
        "a: wr[(((tid.x * pitch) / 4) + 2)]; \n"
    );
}

#[test]
fn kernel_definitions_are_told_from_prototypes() {
    assert!(super::defines_kernel(
        "__global__ void k(int *a) { a[0] = 1; }"
    ));
    assert!(super::defines_kernel(
        "template <int N>\n__global__ void k(float (*a)[N], int n)\n{\n}"
    ));
    assert!(!super::defines_kernel(
        "__global__ void k(int *a, int n);\nint main() { return 0; }"
    ));
    assert!(!super::defines_kernel("int main() { return 0; }"));
    // One definition among prototypes is enough.
    assert!(super::defines_kernel(
        "__global__ void a(int *);\n__global__ void b(int *p) { p[0] = 0; }"
    ));
}

#[test]
fn forward_gotos_skip_to_their_label() {
    // Threads that jump skip the write; the label is where they rejoin.
    assert_eq!(
        shape("__global__ void k(int *a) { if (threadIdx.x > 0) goto L; a[0] = 1; L: a[threadIdx.x + 1] = 2; }"),
        "a: if (!(tid.x > 0)) { wr[0]; } wr[(tid.x + 1)]; \n"
    );
    // Out of a loop to a label after it: the iterations after the jump
    // do not run, and past the loop whether it jumped is unknown.
    let s = shape("__global__ void k(int *a, int n) { for (int i = 0; i < n; i++) { if (a[i] == 0) goto found; a[i] = 1; } a[n] = 2; found: a[n + 1] = 3; }");
    assert!(s.contains("wr[(n + 1)]"), "{s}");
    assert!(s.contains("if (!("), "{s}");
    // Backwards, or into a block: not modelled.
    let r = reason("__global__ void k(int *a) { L: a[threadIdx.x] = 1; if (a[0]) goto L; }");
    assert!(r.contains("goto L before its label"), "{r}");
    let r = reason(
        "__global__ void k(int *a) { if (a[0]) goto L; if (a[1]) { L: a[threadIdx.x] = 1; } }",
    );
    assert!(r.contains("goto L"), "{r}");
}

#[test]
fn pointers_read_from_memory_point_to_buffers_of_their_own() {
    // Each cell of an array of pointers: a buffer indexed by that cell.
    assert_eq!(
        shape(
            "__global__ void k(float **rows) { float *r = rows[blockIdx.x]; r[threadIdx.x] = 0; }"
        ),
        "rows: rd[bid.x]; \nrows[]: wr[bid.x][tid.x]; \n"
    );
    // A pointer field reached through a pointer.
    assert_eq!(
        shape("struct E { char *name; int v; }; __global__ void k(E *e) { e->name[threadIdx.x] = 0; }"),
        "e: rd[0]; \ne.name: wr[0][tid.x]; \n"
    );
    // Fields of a struct parameter one level down are its buffers.
    assert_eq!(
        shape("struct V { float *p; }; struct P { V in; }; __global__ void k(P q) { q.in.p[threadIdx.x] = 0; }"),
        "q.in.p: wr[tid.x]; \n"
    );
    // A `__constant__` table of pointers the host fills: no thread writes
    // it, so each cell is a buffer as a parameter's cell is.
    assert_eq!(
        shape("__constant__ float *bufs[64]; __global__ void k() { float *r = bufs[blockIdx.x] + 1; r[threadIdx.x] = 0; }"),
        "bufs[]: wr[bid.x][(1 + tid.x)]; \n"
    );
    // One with an initializer names arrays the kernel may reach otherwise.
    let r = reason(
        "__device__ float a[4]; __constant__ float *bufs[1] = {a}; __global__ void k() { bufs[0][threadIdx.x] = 0; }",
    );
    assert!(r.contains("pointer of unknown origin"), "{r}");
}

#[test]
fn pointers_merge_at_joins_and_move_by_unknown_offsets() {
    // `p = a` on one side, `p = a + n` on the other: one pointer.
    assert_eq!(
        shape("__global__ void k(float *a, int n) { float *p; if (blockIdx.x > 0) p = a; else p = a + n; p[threadIdx.x] = 0; }"),
        "a: wr[((bid.x > 0 ? 0 : n) + tid.x)]; \n"
    );
    // An offset read from memory: a cell of the thread's own choosing.
    let s = shape("__global__ void k(unsigned *h, uint4 *keys) { uint4 key = keys[threadIdx.x]; atomicAdd(h + (key.x & 15), 1); }");
    assert!(s.contains("h: at[offset"), "{s}");
}

#[test]
fn constant_values_are_the_same_in_every_thread() {
    // A float `__constant__`, math on it and a constant table's cell at a
    // fixed index: one parameter.
    let k = kernel("__constant__ float c; __constant__ int t[2]; __global__ void k(int *a) { int n = ceilf(c) + t[1]; a[threadIdx.x + n] = 0; }");
    assert!(k.locals.is_empty(), "{:?}", k.locals);
    assert!(
        k.unknown_params.iter().any(|p| p == "n"),
        "{:?}",
        k.unknown_params
    );
    // A cell chosen by the thread, or math on a thread's value: its own.
    let k = kernel("__constant__ int t[64]; __global__ void k(int *a, float *f) { int m = t[threadIdx.x] + ceilf(f[threadIdx.x]); a[m] = 0; }");
    assert!(!k.locals.is_empty(), "{}", show(&k));
}

#[test]
fn values_read_at_a_block_address_are_the_blocks() {
    // Read at blockIdx.x from an array the kernel never writes: one value
    // per block.
    let k = kernel("__global__ void k(int *a, const int *sizes) { int m = sizes[blockIdx.x]; a[m + threadIdx.x] = 0; }");
    assert_eq!(k.block_uniform, ["m"]);
    // Written somewhere in the kernel, or read at the thread's own cell:
    // the thread's own.
    let k = kernel("__global__ void k(int *a, int *sizes) { int m = sizes[blockIdx.x]; a[m + threadIdx.x] = 0; sizes[0] = 1; }");
    assert!(k.block_uniform.is_empty(), "{:?}", k.block_uniform);
    let k = kernel(
        "__global__ void k(int *a, const int *sizes) { int m = sizes[threadIdx.x]; a[m] = 0; }",
    );
    assert!(k.block_uniform.is_empty(), "{:?}", k.block_uniform);
}

#[test]
fn atomic_increments_of_one_counter_hand_out_tickets() {
    let grid = |k: &Kernel| k.tickets.iter().map(|t| t.grid).collect::<Vec<_>>();
    // A global counter at a fixed cell: distinct over the grid.
    let k = kernel(
        "__global__ void k(int *q, unsigned *tail) { unsigned s = atomicAdd(tail, 1u); q[s] = 0; }",
    );
    assert_eq!(grid(&k), [true]);
    // A shared counter, or one cell per block: distinct within a block.
    let k = kernel(
        "__global__ void k(int *q) { __shared__ int c; int s = atomicAdd(&c, 2); q[s] = 0; }",
    );
    assert_eq!(grid(&k), [false]);
    let k = kernel(
        "__global__ void k(int *q, int *c) { int s = atomicAdd(&c[blockIdx.x], 1); q[s] = 0; }",
    );
    assert_eq!(grid(&k), [false]);
    // A counter per row: the ticket carries its cell, over the thread's
    // values; one that only adds is never negative.
    let k = kernel(
        "__global__ void k(int *q, int *c, int w) { int r = threadIdx.x / w; int s = atomicAdd(&c[r], 1); q[s] = 0; }",
    );
    assert_eq!(k.tickets.len(), 1, "{:?}", k.tickets);
    let t = &k.tickets[0];
    assert!(t.grid && t.counts_up && t.cell.is_some(), "{t:?}");
    let mut vars = std::collections::BTreeSet::new();
    t.cell.as_ref().unwrap()[0].free_vars(&mut vars);
    assert!(vars.contains("tid.x") && vars.contains("w"), "{t:?}");
    let k = kernel("__global__ void k(int *q, int *c) { int s = atomicSub(c, 1); q[s] = 0; }");
    assert!(
        k.tickets.len() == 1 && !k.tickets[0].counts_up,
        "{:?}",
        k.tickets
    );
    // A counter per row with another atomic beside it on the same array, a
    // step that may be 0, or a counter also moved the other way: none.
    for src in [
        "__global__ void k(int *q, int *c) { int s = atomicAdd(&c[threadIdx.x], 1); atomicAdd(&c[threadIdx.x + 1], 1); q[s] = 0; }",
        "__global__ void k(int *q, int *c, int d) { int s = atomicAdd(c, d); q[s] = 0; }",
        "__global__ void k(int *q, int *c) { int s = atomicAdd(c, 1); q[s] = 0; atomicSub(c, 1); }",
        "__global__ void k(int *q, int *c) { int s = atomicAdd(c, 1); q[s] = 0; atomicMax(c, 7); }",
    ] {
        assert!(kernel(src).tickets.is_empty(), "{src}");
    }
}

#[test]
fn an_array_member_of_a_record_over_floats_moves_along_them() {
    // Records cast over a float array: `det->bbox[1]` is one float past
    // `det`, the cell a record one float further starts at.
    let k = kernel(
        "struct Box { float bbox[4]; };
         __global__ void k(float *out) { Box *det = (Box *)((char *)out + threadIdx.x * sizeof(float));
           det->bbox[0] = 1.0f; det->bbox[1] = 2.0f; }",
    );
    let mut accesses = Vec::new();
    k.array("out").unwrap().body.accesses(&mut accesses);
    let indexes: Vec<String> = accesses
        .iter()
        .map(|a| {
            a.index
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("][")
        })
        .collect();
    assert_eq!(indexes, ["tid.x", "tid.x + 1"], "{indexes:?}");
    // A shared array of records keeps the member as a dimension: its
    // cells are whole records, which never overlap.
    let k = kernel(
        "struct Box { float bbox[4]; };
         __global__ void k() { __shared__ Box s[64]; s[threadIdx.x].bbox[1] = 2.0f; }",
    );
    let mut accesses = Vec::new();
    k.array("s").unwrap().body.accesses(&mut accesses);
    assert_eq!(accesses[0].index.len(), 2, "{accesses:?}");
}

#[test]
fn tickets_of_one_counter_at_several_sites_name_it() {
    // One counter per batch taken in each copy of an unrolled loop: three
    // tickets, each naming the counter, with one cell.
    let k = kernel(
        "__global__ void k(int *q, int *c, int w) { int b = threadIdx.x / w;
           for (int j = 0; j < 3; j++) { int s = atomicAdd(&c[b * 64], 1); q[b * 64 + 1 + s] = j; } }",
    );
    assert_eq!(k.tickets.len(), 3, "{:?}", k.tickets);
    assert!(
        k.tickets
            .iter()
            .all(|t| t.counter.as_deref() == Some("c") && t.cell == k.tickets[0].cell),
        "{:?}",
        k.tickets
    );
    // The traces state that the copies' tickets differ, within a thread
    // and between threads of one cell.
    let traces = crate::analysis::traces(&k, k.array("q").unwrap(), false).expect("traces");
    let stated = |a: &str, b: &str| {
        traces.iter().any(|t| {
            t.assumptions
                .iter()
                .any(|c| c.to_string().contains(&format!("{a} != {b}")))
        })
    };
    let [t0, t1] = [&k.tickets[0].local, &k.tickets[1].local];
    assert!(stated(&format!("{t0}@1"), &format!("{t1}@1")), "{traces:?}");
    assert!(stated(&format!("{t0}@1"), &format!("{t1}@2")), "{traces:?}");
}

#[test]
fn loop_variables_updated_alike_are_the_blocks_at_its_barriers() {
    let control = |src: &str| {
        let k = kernel(src);
        let mut c = crate::analysis::uniform_reads(&k).control;
        c.sort();
        c
    };
    // A flag every thread copies from shared memory after a barrier, and a
    // count stepped alike: the loop's test is the block's.
    let flag = "__global__ void k(float *x, int n) { __shared__ int s; int more = 1; int r = 0; while (more && r < n) { if (threadIdx.x == 0) s = 0; __syncthreads(); if (x[threadIdx.x] > 0) s = 1; __syncthreads(); more = s; r++; __syncthreads(); } }";
    let found = control(flag);
    assert!(found.iter().any(|l| l.starts_with("more")), "{found:?}");
    // A running best taken from a value the block agrees on, skipped alike.
    let best = "__global__ void k(const int *d, int *out, int n) { __shared__ int s; int best = -1; for (int i = 0; i < n; i++) { int v = d[blockIdx.x * n + i]; if (v <= best) continue; if (threadIdx.x == 0) s = v; __syncthreads(); int got = s; __syncthreads(); if (got > best) best = got; } if (threadIdx.x == 0) out[blockIdx.x] = best; }";
    let found = control(best);
    assert!(found.iter().any(|l| l.starts_with("best")), "{found:?}");
    // Updated by a value of the thread's own, or under a condition on one:
    // not the block's.
    let own = "__global__ void k(const int *d, int n) { int best = -1; for (int i = 0; i < n; i++) { int v = d[threadIdx.x * n + i]; if (v > best) best = v; } }";
    assert!(!control(own).iter().any(|l| l.starts_with("best")));
    let skipped = "__global__ void k(const int *d, int n) { __shared__ int s; int best = -1; for (int i = 0; i < n; i++) { if (d[threadIdx.x] > i) continue; if (threadIdx.x == 0) s = i; __syncthreads(); best = s; __syncthreads(); } }";
    assert!(!control(skipped).iter().any(|l| l.starts_with("best")));
}

#[test]
fn a_read_at_an_address_another_read_gives_is_the_blocks_with_it() {
    let uniform = |src: &str| crate::analysis::uniform_reads(&kernel(src));
    // `seed` is read at the block's row, `d` at `seed`: both the block's
    // where the loop's iterations are reached together.
    let chained = "__global__ void k(const int *order, const int *deg, int *out, int n) { __shared__ int s; for (int i = blockIdx.x; i < n; i += gridDim.x) { int seed = order[i]; int d = deg[seed]; if (d > 0) { if (threadIdx.x == 0) s = d; __syncthreads(); out[blockIdx.x] = s; __syncthreads(); } } }";
    let found = uniform(chained);
    let all: Vec<&String> = found.values.iter().chain(&found.control).collect();
    assert!(all.iter().any(|l| l.starts_with('d')), "{found:?}");
    // At the thread's own row, neither is.
    let own = "__global__ void k(const int *order, const int *deg, int *out, int n) { __shared__ int s; for (int i = blockIdx.x; i < n; i += gridDim.x) { int seed = order[i * blockDim.x + threadIdx.x]; int d = deg[seed]; if (d > 0) { if (threadIdx.x == 0) s = d; __syncthreads(); out[blockIdx.x] = s; __syncthreads(); } } }";
    let found = uniform(own);
    let all: Vec<&String> = found.values.iter().chain(&found.control).collect();
    assert!(!all.iter().any(|l| l.starts_with('d')), "{found:?}");
}

#[test]
fn reads_of_a_cell_nobody_writes_meanwhile_are_the_blocks() {
    let uniform = |src: &str| crate::analysis::uniform_reads(&kernel(src));
    let none = crate::analysis::UniformReads::default();
    // Published by thread 0 before a barrier, read after it: the block's.
    let published = "__global__ void k(int *a, int *c) { __shared__ int s; if (threadIdx.x == 0) s = c[0]; __syncthreads(); int m = s; a[m + threadIdx.x] = 0; }";
    assert_eq!(uniform(published).values, ["m"]);
    // Read while thread 0 may still write it, or at the thread's own cell.
    let unsynced = "__global__ void k(int *a, int *c) { __shared__ int s; if (threadIdx.x == 0) s = c[0]; int m = s; a[m + threadIdx.x] = 0; }";
    assert_eq!(uniform(unsynced), none);
    let own = "__global__ void k(int *a, int *c) { __shared__ int s[64]; s[threadIdx.x] = c[threadIdx.x]; __syncthreads(); int m = s[threadIdx.x ^ 1]; a[m] = 0; }";
    assert_eq!(uniform(own), none);
    // At a synchronized loop's row: the block's, for its barriers; where the
    // loop's iterations may run apart (an empty tile loop), not one value
    // for two threads.
    let rows = "__global__ void k(const int *row, float *a, int n) { __shared__ float t[64]; for (int r = 0; r < n; r++) { int e = row[r]; for (int x = 0; x < e; x++) { __syncthreads(); t[threadIdx.x] = a[x]; __syncthreads(); } } }";
    let found = uniform(rows);
    assert!(
        found.values.is_empty() && found.control.len() == 1,
        "{found:?}"
    );
    // A loop each thread starts at its own index: neither.
    let strided = "__global__ void k(const int *row, float *a, int n) { for (int i = threadIdx.x; i < n; i += blockDim.x) { int e = row[i]; for (int x = 0; x < e; x++) { __syncthreads(); } } }";
    assert_eq!(uniform(strided), none);
}

#[test]
fn memcpy_and_memset_access_the_cells_their_bytes_cover() {
    let out = shape(
        "__global__ void k(int *a, const int *b, int n) {
  memcpy(&a[2 * threadIdx.x], &b[threadIdx.x], 2 * sizeof(int));
  __builtin_memset(a, 0, n);
}",
    );
    assert_eq!(
        out,
        "a: wr[(2 * tid.x)]; wr[((2 * tid.x) + 1)]; for byte_cell in 0..((n + 3) / 4) { wr[byte_cell]; } \nb: rd[tid.x]; rd[(tid.x + 1)]; \n"
    );
}

#[test]
fn a_call_without_a_body_only_reads_through_const_parameters() {
    let out = shape(
        "__device__ float sum4(const float *v);
__device__ void fill(float *v);
__global__ void k(float *a, float *b) { sum4(a); fill(b); }",
    );
    assert_eq!(out, "a: rd[offset]; \nb: wr[offset#2]; \n");
}

#[test]
fn stored_values_the_block_shares_are_known_to_be_equal() {
    let value = |src: &str, array: &str| {
        let k = kernel(src);
        let mut accesses = Vec::new();
        k.array(array).unwrap().body.accesses(&mut accesses);
        let write = accesses.iter().find(|a| a.mode == Mode::Write).unwrap();
        write.value.as_ref().map(ToString::to_string)
    };
    // An address of a shared array, stored in shared memory.
    let src = "__global__ void k() { __shared__ int A[4]; __shared__ int *p; p = A + 1; }";
    assert_eq!(value(src, "p").as_deref(), Some("address_of_A + 1"));
    // ... but not in global memory: each block has its own `A`.
    let src = "__global__ void k(int **q) { __shared__ int A[4]; q[0] = A; }";
    assert_eq!(value(src, "q"), None);
    // A cell read at an address the block shares, from an array never
    // written: one variable.
    let src = "__global__ void k(int *out, const int *in) { out[blockIdx.x] = in[blockIdx.x]; }";
    assert!(value(src, "out").is_some());
}

#[test]
fn copies_of_cells_the_kernel_never_writes_store_the_cell() {
    let value = |src: &str| {
        let k = kernel(src);
        let mut accesses = Vec::new();
        k.array("s").unwrap().body.accesses(&mut accesses);
        let write = accesses.iter().find(|a| a.mode == Mode::Write).unwrap();
        write.value.as_ref().map(ToString::to_string)
    };
    let copy = |rhs: &str, more: &str| {
        format!(
            "__constant__ float table[64]; struct P {{ float x; }};
             __global__ void k(const float *in, float *io, const P *ps, int n) {{
                 __shared__ float s[128]; int t = threadIdx.x;
                 s[t] = {rhs}; {more} }}"
        )
    };
    // Through a cast too, from a parameter, a member or a `__constant__`.
    let v = value(&copy("(float)in[n * 128 + t]", ""));
    assert_eq!(v.as_deref(), Some("in[n * 128 + tid.x]"));
    // The field of a one-field struct is its cell; one of two is part.
    assert_eq!(value(&copy("ps[t].x", "")).as_deref(), Some("ps[tid.x]"));
    let two_fields = copy("ps[t].x", "").replace("float x;", "float x; float y;");
    assert_eq!(value(&two_fields), None);
    // A byte view makes the array's cells bytes: a `float` is four.
    let v = value(&copy("((const char *)in)[t]", ""));
    assert_eq!(v.as_deref(), Some("in[tid.x]"));
    let v = value(&copy("in[t]", "float c = ((const char *)in)[t + 1];"));
    assert_eq!(v, None);
    assert_eq!(
        value(&copy("table[t / 2]", "")).as_deref(),
        Some("table[tid.x / 2]")
    );
    // An array the kernel writes, anywhere: the cell may change.
    assert_eq!(value(&copy("io[t]", "io[n] = 0;")), None);
    // A function of the cell and something else, or of two cells.
    assert_eq!(value(&copy("in[t] * threadIdx.y", "")), None);
    assert_eq!(value(&copy("in[t] + in[t + 1]", "")), None);
    // Another `__shared__` array is the block's own.
    let src =
        "__global__ void k(float *out) { __shared__ float s[4], r[4]; s[0] = r[threadIdx.x]; }";
    assert_eq!(value(src), None);
}

#[test]
fn operators_left_unresolved_in_templates_keep_their_meaning() {
    // With some operator templates in scope, clang leaves `m += X[i]`,
    // `out + i` and `*p` in a template as calls to unresolved operators,
    // and `atomicAdd`, `__ldg` on a `T *` as unresolved calls.
    let src = "namespace ns { struct V { float x; }; }
        template <typename A> __device__ ns::V operator+(ns::V a, A b);
        template <typename A> __device__ ns::V &operator+=(ns::V &a, A b);
        template <typename A> __device__ ns::V operator*(A a);
        template <typename T>
        __global__ void acc(const T *X, T *out, int n) {
          T m = 0;
          for (int i = threadIdx.x; i < n; i += blockDim.x) m += X[i];
          out[blockIdx.x] = m;
          *(out + gridDim.x + threadIdx.x) = *(X + threadIdx.x);
          atomicAdd(out + n, m);
          atomicAdd(&out[n + 2], m);
          out[n + 1] = __ldg(X + n);
        }";
    let k = kernel(src);
    let accesses = |array: &str| {
        let mut found = Vec::new();
        k.array(array).unwrap().body.accesses(&mut found);
        found
            .iter()
            .map(|a| {
                let index: Vec<String> = a.index.iter().map(ToString::to_string).collect();
                let value = a.value.as_ref().map(ToString::to_string);
                (a.mode, index.join(","), value)
            })
            .collect::<Vec<_>>()
    };
    let out = accesses("out");
    // The sum is the thread's own, not the 0 it started from: two threads
    // of a block store different values.
    let (mode, index, value) = &out[0];
    assert_eq!((*mode, index.as_str()), (Mode::Write, "bid.x"));
    assert!(value.as_deref().is_some_and(|v| k.is_local(v)), "{out:?}");
    let rest: Vec<(Mode, &str)> = out[1..].iter().map(|(m, i, _)| (*m, i.as_str())).collect();
    assert_eq!(
        rest,
        [
            (Mode::Write, "gridDim.x + tid.x"),
            (Mode::Atomic, "n"),
            (Mode::Atomic, "n + 2"),
            (Mode::Write, "n + 1")
        ]
    );
    let x: Vec<String> = accesses("X").into_iter().map(|(_, i, _)| i).collect();
    assert!(
        x.ends_with(&["tid.x".to_string(), "n".to_string()]),
        "{x:?}"
    );
}

#[test]
fn math_constants_of_glibc_are_defined() {
    // nvcc's host compiler defines `M_PI` and its kin in <math.h>.
    let k = kernel("#include <math.h>\n__global__ void k(float *o) { o[threadIdx.x] = M_SQRT1_2 * M_PI + M_E; }");
    assert!(k.array("o").is_some());
}

#[test]
fn compile_errors_in_called_functions_are_the_kernels() {
    // A helper clang cannot compile (a missing library, say) loses what
    // it does: the kernel is not analysed without it.
    let src = "template <typename T> __device__ void block_sum(T &x) { x = missing::sum(x); }
        template <typename T> __device__ void block_sum(T &x, int) { }
        template <typename T> __global__ void k(T *out) {
          T v = out[threadIdx.x]; block_sum<T>(v); out[threadIdx.x] = v; }
        __device__ void helper(float *p) { p[0] = undeclared; }
        __global__ void plain(float *p) { helper(p); }";
    let u = unit(src);
    for kernel in &u.kernels {
        assert!(kernel.lowered.is_err(), "{}", kernel.name);
        assert!(!kernel.errors.is_empty(), "{}", kernel.name);
    }
    assert_eq!(u.kernels.len(), 2);
}

#[test]
fn floating_constants_are_stored_by_value_and_never_integers() {
    let stored = |src: &str| {
        let k = kernel(src);
        let mut accesses = Vec::new();
        k.array("out").unwrap().body.accesses(&mut accesses);
        accesses
            .iter()
            .filter(|a| a.mode == Mode::Write)
            .map(|a| a.value.as_ref().map(ToString::to_string))
            .collect::<Vec<_>>()
    };
    // Equal constants, written directly, through a local or a `const`
    // global, store equal values; different ones do not.
    let src = "const float one = 1.0f; __global__ void k(float *out) { float v = 1.0f; if (threadIdx.x & 1) out[0] = v; else out[0] = one; out[1] = -1.0f; }";
    let v = stored(src);
    assert!(v.iter().all(Option::is_some), "{v:?}");
    assert_eq!(v[0], v[1]);
    assert_ne!(v[0], v[2]);
    // A host-set `__constant__` is one value, not its initial one.
    let v = stored("__constant__ float c = 1.0f; __global__ void k(float *out) { if (threadIdx.x & 1) out[0] = c; else out[0] = 1.0f; }");
    assert_ne!(v[0], v[1]);
    // Fractional arithmetic on a thread's value is no integer product: its
    // index is the thread's own unknown, not `u * threadIdx.x`.
    for src in [
        "__global__ void k(float *out) { out[(int)(0.5f * threadIdx.x)] = 0; }",
        "__constant__ float s; __global__ void k(float *out) { int i = s * threadIdx.x; out[i] = 0; }",
    ] {
        let k = kernel(src);
        assert!(!k.locals.is_empty(), "{}", show(&k));
    }
}

#[test]
fn an_unsupported_construct_in_a_header_is_named_there() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("h.cuh"),
        "__device__ int lane(int *p) {\n  int r;\n  asm(\"ld.local.u32 %0, [%1];\" : \"=r\"(r) : \"l\"(p));\n  return r;\n}\n",
    )
    .unwrap();
    let src = "#include \"h.cuh\"\n__global__ void k(int *a) {\n  a[lane(a)] = 0;\n}\n";
    let u = parse_source(
        &dir.path().join("k.cu"),
        src.as_bytes(),
        &FrontendOptions::default(),
    );
    let e = u.kernels[0].lowered.as_ref().unwrap_err();
    assert_eq!(e.loc.line, 2, "{e:?}");
    let at = format!("(at {}:3:3)", dir.path().join("h.cuh").display());
    assert!(
        e.reason.starts_with("inline assembly") && e.reason.ends_with(&at),
        "{e:?}"
    );
}

#[test]
fn parameters_take_the_values_of_their_types() {
    let k = kernel("enum E { A = 2, B = 5 }; __global__ void k(int *a, E e, bool b, unsigned char c, short s) { a[e + b + c + s] = 0; }");
    let assumes: Vec<String> = k.assumes.iter().map(ToString::to_string).collect();
    for expected in [
        "e == 2 || e == 5",
        "0 <= b && b <= 1",
        "0 <= c && c <= 255",
        "-32768 <= s && s <= 32767",
    ] {
        assert!(
            assumes.iter().any(|a| a == expected),
            "{expected} not in {assumes:?}"
        );
    }
}

#[test]
fn pointers_kept_in_shared_memory_point_into_their_array() {
    let k = kernel("__global__ void k(float *a, float *b, int *s) { __shared__ float *p; if (threadIdx.x == 0) p = &a[s[blockIdx.x]]; __syncthreads(); p[threadIdx.x] = 0; }");
    assert!(k.array("a").is_some(), "{}", show(&k));
    // Pointers into two arrays kept in one variable: unsupported, named.
    let src = "__global__ void k(float *a, float *b, int c) { __shared__ float *p; p = a; __syncthreads(); p[threadIdx.x] = 0; __syncthreads(); p = b; }";
    let u = unit_with(src, &FrontendOptions::default());
    let e = u.kernels[0].lowered.as_ref().unwrap_err();
    assert!(e.reason.contains("more than one array"), "{e:?}");
}

#[test]
fn a_constant_variable_template_is_read_only() {
    let k = kernel("template <typename T> __constant__ T mask[4];\ntemplate <typename T> __global__ void k(const T *in, T *out) { T s = 0; for (int j = 0; j < 4; j++) s += in[threadIdx.x + j] * mask<T>[j]; out[threadIdx.x] = s; }");
    let names: Vec<&str> = k.arrays.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["in", "out"]);
}

#[test]
fn arrays_in_a_structure_copied_to_a_local_are_the_threads_own() {
    let s = shape("struct P { float acc[3]; }; __global__ void k(P *p) { auto pi = p[threadIdx.x]; pi.acc[0] += 1.0f; p[threadIdx.x] = pi; }");
    assert_eq!(s, "p: rd[tid.x]; wr[tid.x]; \n");
}

#[test]
fn a_pointer_chosen_between_arrays_accesses_each_under_its_condition() {
    let k = kernel("__global__ void k(float *a, float *b, int n) { float *p = threadIdx.x < n ? a : b; p[threadIdx.x] = 0; }");
    let names: Vec<&str> = k.arrays.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    for a in &k.arrays {
        let mut acc = Vec::new();
        a.body.accesses(&mut acc);
        assert_eq!(acc.len(), 1, "{}", a.name);
    }
    // Or a null pointer, which is never dereferenced: the same accesses
    // as through the cell alone.
    assert_eq!(
        shape("__global__ void k(float *a, int n) { float *p = threadIdx.x < n ? a + threadIdx.x : 0; if (p) *p = 0; }"),
        shape("__global__ void k(float *a, int n) { float *p = a + threadIdx.x; if (p) *p = 0; }")
    );
}

#[test]
fn a_pointer_to_the_threads_own_array_or_to_an_image_reads_either() {
    // The border colour or the source pixel: the image is read under the
    // bounds test, and the thread's own array is no protocol's.
    let s = shape("__global__ void k(const unsigned char *src, float *dst, int w) { unsigned char fill[3] = {1, 2, 3}; const unsigned char *p = fill; if (threadIdx.x < w) p = src + 3 * threadIdx.x; dst[threadIdx.x] = p[0] + p[2]; }");
    assert!(s.contains("src: "), "{s}");
    assert!(!s.contains("fill"), "{s}");
    // Writes through it reach the image where the test holds.
    let k = kernel("__global__ void k(float *img, int w) { float own[2]; float *p = own; if (threadIdx.x < w) p = img + threadIdx.x / 2; p[0] = 1.0f; }");
    let mut modes = Vec::new();
    for a in k.arrays.iter().filter(|a| a.name == "img") {
        let mut acc = Vec::new();
        a.body.accesses(&mut acc);
        modes.extend(acc.iter().map(|x| x.mode));
    }
    assert_eq!(modes, [Mode::Write]);
}

#[test]
fn pointers_swapped_in_a_loop_reach_both_arrays() {
    // A run-time count: at the top of an iteration either pointer may be in
    // either array, so the write through `out` reaches both.
    let k = kernel("__global__ void k(float *a, float *b, int steps) { float *in = a, *out = b; for (int t = 0; t < steps; t++) { out[threadIdx.x] = in[threadIdx.x]; float *tmp = in; in = out; out = tmp; } }");
    for a in &k.arrays {
        let mut acc = Vec::new();
        a.body.accesses(&mut acc);
        let modes: Vec<Mode> = acc.iter().map(|x| x.mode).collect();
        assert!(
            modes.contains(&Mode::Write) && modes.contains(&Mode::Read),
            "{}: {modes:?}",
            a.name
        );
    }
}

#[test]
fn a_test_against_a_null_argument_leaves_the_guarded_code_out() {
    // Called with `nullptr`, the helper's guarded read is dead code.
    let s = shape("__device__ int get(const int *m, int i) { return m == nullptr ? 1 : m[i]; }\n__device__ bool on(const int *m, int i) { return m == nullptr || m[i] != 0; }\n__global__ void k(int *out) { out[threadIdx.x] = get(nullptr, threadIdx.x) + on(nullptr, threadIdx.x); }");
    assert_eq!(s, "out: wr[tid.x]; \n");
}

#[test]
fn a_parameter_read_in_parts_of_its_cells_counts_in_parts() {
    // `float *` over a `float2 *` parameter: each float is a cell of its
    // own, and a `float2` access covers two.
    let s = shape("__global__ void k(float2 *io) { float *f = (float *)io; f[2 * threadIdx.x + 1] = 0; io[threadIdx.x] = make_float2(0, 0); }");
    assert_eq!(
        s,
        "io: wr[((2 * tid.x) + 1)]; wr[(tid.x * 2)]; wr[((tid.x * 2) + 1)]; \n"
    );
}

#[test]
fn nested_counted_loops_unroll_within_a_budget() {
    // Three nested loops of 7: the outer copies, the inner ones loops.
    let k = kernel("__global__ void k(float *a) { for (int i = 0; i < 7; i++) for (int j = 0; j < 7; j++) for (int l = 0; l < 7; l++) a[threadIdx.x * 343 + i * 49 + j * 7 + l] = 0; }");
    let s = show(&k);
    assert_eq!(s.matches("for ").count(), 14, "{s}");
    // Loops that halve stay unrolled: their powers of two matter.
    let k = kernel("__global__ void k(float *a) { for (int i = 0; i < 7; i++) for (int j = 0; j < 7; j++) for (int s = 64; s > 0; s >>= 1) a[threadIdx.x ^ s] = i + j; }");
    assert!(show(&k).matches("for ").count() <= 7);
}

#[test]
fn a_value_returned_from_inside_a_loop_is_not_its_counter() {
    // The counter means nothing past the loop: the result is an unknown
    // of the thread, and the write is not under the loop.
    let k = kernel("__device__ int find(const int *a, int n) { for (int i = 0; i < n; i++) if (a[i] == 0) return i; return -1; }\n\
        __global__ void k(const int *a, int *out, int n) { int j = find(a + threadIdx.x * n, n); out[j + 1] = 1; }");
    let s = show(&k);
    let out = s.lines().find(|l| l.starts_with("out:")).unwrap();
    assert!(!out.contains("for "), "{s}");
    assert!(out.contains("result"), "{s}");
}

#[test]
fn a_part_of_a_cell_whose_fields_are_dimensions_is_any_field() {
    // Thread t writes float t, which is `a[t / 2].v[t % 2]`; thread t also
    // writes `a[t].v[1]`, float 2t + 1: threads 1 and 3 meet. The float
    // view is the cell holding it, with its field unknown.
    let s = shape("struct mid { float v[2]; };\n__global__ void k(mid *a) { ((float *)a)[threadIdx.x] = 0; a[threadIdx.x].v[1] = 1; }");
    assert_eq!(s, "a: wr[(tid.x / 2)][part_of_cell]; wr[tid.x][1]; \n");
    // Cells too wide to count in bytes keep their size.
    let s = shape(
        "struct big { float v[32]; };\n__global__ void k(big *a) { ((char *)a)[threadIdx.x] = 0; }",
    );
    assert_eq!(s, "a: wr[(tid.x / 128)]; \n");
}

#[test]
fn cooperative_groups_reduce_header_is_built_in() {
    let k = kernel("#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n\
        __global__ void k(float *out, const float *in) { auto w = cg::tiled_partition<32>(cg::this_thread_block()); float s = cg::reduce(w, in[threadIdx.x], cg::plus<float>{}); if (w.thread_rank() == 0) out[threadIdx.x / 32] = s; }");
    assert!(show(&k).contains("out: "));
}

#[test]
fn views_of_an_open_element_type_in_other_types_are_unsupported() {
    // Counted in elements of the open `T`, a struct of eight of them would
    // be one element: its overlaps would go unseen.
    let view = "template <typename T> __global__ void k(T *a) { struct U { T v[8]; }; \
                *reinterpret_cast<U *>(&a[threadIdx.x * 4]) = U(); }";
    assert!(reason(view).contains("viewed as elements of types of different sizes"));
    // One view of it, const or not, is exact; `void *` is never accessed.
    let k = kernel(
        "template <typename T> __global__ void k(T *a, const T *b, void *c) { a[threadIdx.x] = b[threadIdx.x]; \
         ((float *)c)[threadIdx.x] = 0; }",
    );
    assert!(show(&k).contains("wr[tid.x]"), "{}", show(&k));
}

#[test]
fn fields_of_local_structs_of_an_open_type_are_the_threads_own() {
    let k = kernel(
        "template <typename T> __global__ void k(T *a) { struct U { T v[4]; }; U u[2]; \
         for (int i = 0; i < 4; i++) u[1].v[i] = a[threadIdx.x * 4 + i]; a[threadIdx.x] = u[1].v[0]; }",
    );
    assert!(show(&k).contains("rd[(tid.x * 4"), "{}", show(&k));
}

#[test]
fn a_size_read_from_a_stream_is_not_its_initial_value() {
    // `int n = 0; in >> n;` made the grid `(0 + 127) / 128`, zero blocks,
    // a launch no size satisfies.
    let src = "namespace std { struct istream { istream &operator>>(int &); }; }\n\
        __global__ void k(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = 0; }\n\
        void run(float *a, std::istream &in) {\n\
          int n = 0;\n\
          in >> n;\n\
          k<<<(n + 127) / 128, 128>>>(a, n);\n\
        }\n";
    let u = unit(src);
    let k = u.kernels[0].lowered.clone().unwrap();
    assert!(
        !k.assumes
            .iter()
            .any(|c| format!("{c:?}").contains("Var(\"n\"), Int(0)")),
        "{:?}",
        k.assumes
    );
}

#[test]
fn values_thread_zero_publishes_for_its_block_are_read_as_themselves() {
    let published = |body: &str| {
        let src = format!("__global__ void k(float *out, int n) {{ __shared__ int base; {body} }}");
        let k = kernel(&src);
        let out = k.arrays.iter().find(|a| a.name == "out").unwrap();
        show(&Kernel {
            arrays: vec![out.clone()],
            ..k.clone()
        })
    };
    let read = "__syncthreads(); out[base + threadIdx.x] = 1;";
    // Thread 0 of every block writes it: the block's own base.
    let s = published(&format!(
        "if (threadIdx.x == 0) base = blockIdx.x * n; {read}"
    ));
    assert!(s.contains("wr[((bid.x * n) + tid.x)]"), "{s}");
    let s = published(&format!(
        "if (threadIdx.x % 32 == 0) base = blockIdx.x * n; {read}"
    ));
    assert!(s.contains("bid.x * n"), "{s}");
    // A thread that may not exist, a block that may not write it, a
    // write in a loop, or a second value: each thread's own unknown.
    for body in [
        format!("if (threadIdx.x == 5) base = blockIdx.x * n; {read}"),
        format!("if (blockIdx.x < n) {{ if (threadIdx.x == 0) base = blockIdx.x * n; }} {read}"),
        format!("for (int i = 0; i < n; i++) if (threadIdx.x == 0) base = blockIdx.x * n; {read}"),
        format!("if (threadIdx.x == 0) base = blockIdx.x * n; {read} __syncthreads(); if (threadIdx.x == 0) base = 0; {read}"),
        format!("if (threadIdx.x == 0) base = threadIdx.x + blockIdx.x; {read}"),
    ] {
        let s = published(&body);
        assert!(!s.contains("bid.x * n) + tid.x"), "{body}: {s}");
        assert!(s.contains("stored"), "{body}: {s}");
    }
}

#[test]
fn a_ticket_thread_zero_takes_for_its_block_orders_the_last_block() {
    let src = |take: &str| {
        format!(
            "__global__ void k(float *part, unsigned int *done) {{ __shared__ bool last; \
             {take} __syncthreads(); if (last) part[threadIdx.x] = 0; }}"
        )
    };
    let fenced = "if (threadIdx.x == 0) { part[blockIdx.x] = 1; __threadfence(); \
                  unsigned int t = atomicInc(done, gridDim.x); last = t == gridDim.x - 1; }";
    let k = kernel(&src(fenced));
    assert_eq!(k.tickets.len(), 1, "{:?}", k.tickets);
    assert!(
        k.tickets[0].block && k.tickets[0].phase.is_some(),
        "{:?}",
        k.tickets
    );
    assert!(k.block_uniform.contains(&k.tickets[0].local));
    // Without the fence the ticket is the block's but orders nothing.
    let k = kernel(&src(&fenced.replace("__threadfence();", "")));
    assert!(
        k.tickets[0].block && k.tickets[0].phase.is_none(),
        "{:?}",
        k.tickets
    );
    // Every thread takes one, or a wrap before the last block: no block
    // ticket.
    let every = "unsigned int t = atomicAdd(done, 1); if (threadIdx.x == 0) last = t == 7;";
    assert!(kernel(&src(every)).tickets.iter().all(|t| !t.block));
    let k = kernel(&src(&fenced.replace("gridDim.x)", "2)")));
    assert!(k.tickets.is_empty(), "{:?}", k.tickets);
    // A launch that fixes the grid makes `gridDim.x` its constant: the
    // ticket wraps past the last block still, and a smaller bound does not.
    let launched = |take: &str| {
        format!(
            "{}\nvoid run(float *p, unsigned int *d) {{ k<<<132, 64>>>(p, d); }}\n",
            src(take)
        )
    };
    let k = kernel(&launched(fenced));
    assert!(
        k.tickets.len() == 1 && k.tickets[0].block,
        "{:?}",
        k.tickets
    );
    let k = kernel(&launched(&fenced.replace("gridDim.x)", "64)")));
    assert!(k.tickets.is_empty(), "{:?}", k.tickets);
    // Thread 0 of each row of a two-dimensional block is not one thread.
    let rows = format!("{fenced} part[threadIdx.y] = 2;");
    assert!(kernel(&src(&rows)).tickets.iter().all(|t| !t.block));
}

#[test]
fn a_range_a_group_leader_takes_is_its_members_ticket() {
    let src = |amount: &str, lane: &str| {
        format!(
            "#include <cooperative_groups.h>\n\
             __global__ void k(int *dst, int *count) {{ \
             cooperative_groups::coalesced_group g = cooperative_groups::coalesced_threads(); \
             int r = 0; if (g.thread_rank() == 0) r = atomicAdd(count, {amount}); \
             dst[g.shfl(r, {lane}) + g.thread_rank()] = 1; }}"
        )
    };
    let ranges = |k: &Kernel| k.tickets.iter().filter(|t| t.group.is_some()).count();
    let k = kernel(&src("g.size()", "0"));
    assert_eq!(ranges(&k), 1, "{:?}", k.tickets);
    let t = k.tickets.iter().find(|t| t.group.is_some()).unwrap();
    assert!(t.grid, "{t:?}");
    // From another lane, or a range that is not the group's size: the
    // members' values are unknown.
    assert_eq!(ranges(&kernel(&src("g.size()", "1"))), 0);
    assert_eq!(ranges(&kernel(&src("2", "0"))), 0);
}

#[test]
fn a_range_the_lowest_active_lane_takes_is_the_active_lanes_ticket() {
    let src = |pre: &str, test: &str, from: &str| {
        format!(
            "__global__ void k(int *dst, int *count) {{ {pre} \
             unsigned m = __activemask(); int leader = __ffs(m) - 1; \
             int lane = threadIdx.x % 32; unsigned rank = __popc(m & ((1 << lane) - 1)); \
             int r; if ({test}) r = atomicAdd(count, __popc(m)); \
             dst[__shfl_sync(m, r, {from}) + rank] = 1; }}"
        )
    };
    let ranges = |k: &Kernel| k.tickets.iter().filter(|t| t.group.is_some()).count();
    let flat = "__requires(blockDim.y == 1 && blockDim.z == 1);";
    for test in ["rank == 0", "lane == leader"] {
        let k = kernel(&src(flat, test, "leader"));
        assert_eq!(ranges(&k), 1, "{test}: {:?}", k.tickets);
    }
    // `threadIdx.x % 32` is no lane where blocks have rows; lane 0 need
    // not be active.
    assert_eq!(ranges(&kernel(&src("", "lane == leader", "leader"))), 0);
    assert_eq!(ranges(&kernel(&src(flat, "rank == 0", "0"))), 0);
}

#[test]
fn masks_by_powers_of_two_a_loop_visits_are_remainders() {
    // Sizes double from 2 around barriers that are not at the body's edge:
    // each iteration's size is `2 << e` of one exponent for the block.
    let k = kernel(
        "__global__ void k(unsigned *a, unsigned n) { __shared__ unsigned s[1024]; \
         for (unsigned size = 2; size < n; size <<= 1) { \
           unsigned up = (threadIdx.x & (size / 2)) != 0; \
           for (unsigned stride = size / 2; stride > 0; stride >>= 1) { __syncthreads(); \
             unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1)); \
             if (up) s[pos] = s[pos + stride]; } } }",
    );
    let text = show(&k);
    assert!(!text.contains('&'), "{text}");
    assert!(text.contains("2 << exponent"), "{text}");
    // A parameter may be any number: its mask stays bitwise, unless the
    // kernel requires a power of two.
    let k = kernel(
        "__global__ void k(unsigned *a, unsigned stride) { \
         a[2 * threadIdx.x - (threadIdx.x & (stride - 1))] = 0; }",
    );
    assert!(show(&k).contains('&'), "{}", show(&k));
    // Lowered again as if it were one, for the precondition that proves it.
    let v = k.variants.first().expect("a power-of-two variant");
    assert_eq!(
        v.assumed,
        crate::protocol::Assumed::PowersOfTwo(vec!["stride".into()])
    );
    assert!(!show(&v.kernel).contains('&'), "{}", show(&v.kernel));
    let k = kernel(
        "__global__ void k(unsigned *a, unsigned stride) { __requires(__is_pow2(stride)); \
         a[2 * threadIdx.x - (threadIdx.x & (stride - 1))] = 0; }",
    );
    let body = show(&k);
    let body = &body[body.find("array").unwrap_or(0)..];
    assert!(!body.contains('&') && body.contains('%'), "{body}");
    assert!(k.variants.is_empty());
}

#[test]
fn variables_a_loop_steps_once_per_iteration_are_inductions() {
    let src = |body: &str| {
        format!(
            "__global__ void k(float *a, int n, int w) {{ int off = blockIdx.x * w; \
             for (int i = 0; i < n; i++) {{ {body} }} }}"
        )
    };
    let stepped = |body: &str| {
        let k = kernel(&src(body));
        let text = show(&k);
        !k.locals.iter().any(|l| l.starts_with("off")) && text.contains("i * w")
    };
    assert!(stepped("a[off + threadIdx.x] = 0; off += w;"));
    assert!(stepped("off = off + w; a[off + threadIdx.x] = 0;"));
    assert!(stepped(
        "a[off + threadIdx.x] = 0; off += w; if (a[0] > 0) continue;"
    ));
    // Skipped by a `continue`, stepped twice, stepped only sometimes, or by
    // a value the loop changes: the offset is unknown at the top.
    assert!(!stepped(
        "if (a[0] > 0) continue; a[off + threadIdx.x] = 0; off += w;"
    ));
    assert!(!stepped("a[off + threadIdx.x] = 0; off += w; off += w;"));
    assert!(!stepped(
        "a[off + threadIdx.x] = 0; if (a[1] > 0) off += w;"
    ));
    assert!(!stepped("a[off + threadIdx.x] = 0; off += w; w += 1;"));
}

#[test]
fn unsigned_template_arguments_keep_their_values() {
    // The signed reading of `true` is -1, and of `0xFFFFFFFFu` too.
    let u = unit(
        "template <bool B, unsigned M> __global__ void k(int *a) { a[threadIdx.x * (B + 1) + (M & 1)] = 0; }\n\
         void h(int *a) { k<true, 0xFFFFFFFFu><<<1, 32>>>(a); }",
    );
    let k = &u.kernels[0];
    assert_eq!(k.name, "k<1, 4294967295>");
    let lowered = k.lowered.as_ref().expect("lowered");
    assert!(
        show(lowered).contains("(tid.x * 2) + 1"),
        "{}",
        show(lowered)
    );
}

#[test]
fn shared_arrays_are_told_apart_by_declaration() {
    // Two helpers' `static __shared__` arrays of one name, two instances of
    // one template, and a parameter of that name: four arrays. Every
    // `extern __shared__` array is the one dynamic shared memory.
    let k = kernel(
        "__device__ float a(float v) { static __shared__ float s[32]; s[threadIdx.x % 32] = v; return s[0]; }\n\
         __device__ float b(float v) { static __shared__ float s[32]; s[threadIdx.x % 32] = v; return s[1]; }\n\
         template <int N> __device__ float c(float v) { __shared__ float s[32]; s[threadIdx.x % 32] = v; return s[N]; }\n\
         __device__ void d(float v) { extern __shared__ float tail[]; tail[threadIdx.x] = v; }\n\
         __global__ void k(float *s) {\n\
           extern __shared__ float dyn[];\n\
           float v = a(1.f) + b(2.f) + c<1>(3.f) + c<2>(4.f) + c<1>(5.f);\n\
           d(v); dyn[threadIdx.x + 1] = v; s[threadIdx.x] = v;\n\
         }",
    );
    let names: Vec<&str> = k.arrays.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        ["s", "dyn", "s#2", "s#3", "s#4", "s#5"],
        "{}",
        show(&k)
    );
}

#[test]
fn warp_matrix_loads_and_stores_share_the_tile_out_among_lanes() {
    // 16x16 cells over 32 lanes: lane l takes row l / 2 and the 8 cells
    // from column (l % 2) * 8; a column-major layout swaps the two.
    let k = kernel(
        "#include <mma.h>\n\
         using namespace nvcuda;\n\
         __global__ void k(const half *a, float *c) {\n\
           wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;\n\
           wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;\n\
           wmma::load_matrix_sync(fa, a, 24);\n\
           wmma::mma_sync(acc, fa, fa, acc);\n\
           wmma::store_matrix_sync(c, acc, 40, wmma::mem_row_major);\n\
         }",
    );
    let shown = show(&k);
    let access = |name: &str| {
        let mut out = Vec::new();
        k.arrays
            .iter()
            .find(|a| a.name == name)
            .unwrap()
            .body
            .accesses(&mut out);
        assert_eq!(out.len(), 1, "{shown}");
        out[0].clone()
    };
    let (load, store) = (access("a"), access("c"));
    assert_eq!((load.mode, store.mode), (Mode::Read, Mode::Write));
    // The cell loop's variable: the index's one name that is no builtin.
    fn fold(e: &Expr, env: &dyn Fn(&str) -> i64) -> i64 {
        match e {
            Expr::Int(v) => *v,
            Expr::Var(v) => env(v),
            Expr::Bin(op, a, b) => {
                let (a, b) = (fold(a, env), fold(b, env));
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div => a / b,
                    Op::Mod => a % b,
                    _ => panic!("{op:?}"),
                }
            }
            Expr::Ite(..) => panic!("{e:?}"),
        }
    }
    // Lane 3 of a one-warp block, its cell 5: row 1, column 13.
    let env = |v: &str| match v {
        "tid.x" => 3,
        "tid.y" | "tid.z" => 0,
        "blockDim.x" => 32,
        "blockDim.y" | "blockDim.z" => 1,
        v if v.starts_with("tile_cell") => 5,
        v => panic!("{v} in {shown}"),
    };
    assert_eq!(fold(&load.index[0], &env), 13 * 24 + 1, "{shown}");
    assert_eq!(fold(&store.index[0], &env), 40 + 13, "{shown}");
}

#[test]
fn a_ticket_counter_beside_partial_sums_stays_a_ticket() {
    // Atomics on other cells of the counter's array leave its count alone
    // when they cannot reach its cell: `i < C` never reaches `2 * C`, but
    // `C + i` reaches `2 * C - 1`.
    let src = |counter: &str| {
        format!(
            "__global__ void k(float *out, float *scratch, int C) {{\n\
               __shared__ unsigned int flag;\n\
               for (int i = threadIdx.x; i < C; i += blockDim.x) {{\n\
                 atomicAdd(&scratch[i], 1.0f);\n\
                 atomicAdd(&scratch[C + i], 2.0f);\n\
               }}\n\
               __threadfence();\n\
               __syncthreads();\n\
               if (threadIdx.x == 0) flag = atomicAdd((unsigned int *)(scratch + {counter}), 1);\n\
               __syncthreads();\n\
               if (flag == gridDim.x - 1) out[threadIdx.x] = scratch[threadIdx.x];\n\
             }}"
        )
    };
    let beside = kernel(&src("2 * C"));
    assert!(
        beside.tickets.iter().any(|t| t.block),
        "{:?}",
        beside.tickets
    );
    let within = kernel(&src("2 * C - 1"));
    assert!(within.tickets.is_empty(), "{:?}", within.tickets);
}

#[test]
fn a_variable_every_iteration_sets_leaves_the_loop_with_the_last_value() {
    // After the loop, `f` is the last iteration's (`tid == n - 1`) when
    // the loop runs, and its value before the loop (0) when it does not.
    let k = kernel(
        "__global__ void k(int *a, int n) {\n\
           int f = 0;\n\
           for (int i = 0; i < n; i++) { f = 0; if (threadIdx.x == i) f = 1; __syncthreads(); }\n\
           if (f) a[threadIdx.x] = 1;\n\
         }",
    );
    let shown = show(&k);
    assert!(shown.contains("n - 1"), "{shown}");
    // A value made in the loop (a read) stands for another one in each
    // iteration: unknown after it.
    let k = kernel(
        "__global__ void k(int *a, const int *b, int n) {\n\
           int f = 0;\n\
           for (int i = 0; i < n; i++) { f = b[i]; __syncthreads(); }\n\
           a[f] = 1;\n\
         }",
    );
    let shown = show(&k);
    assert!(!shown.contains("n - 1"), "{shown}");
}

#[test]
fn a_groups_asynchronous_copy_is_shared_out_and_its_wait_is_a_barrier() {
    let k = kernel(
        "#include <cooperative_groups.h>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(const float *in, float *out) {\n\
           __shared__ float t[128];\n\
           cg::thread_block b = cg::this_thread_block();\n\
           cg::memcpy_async(b, t, in, sizeof(float) * 128);\n\
           cg::wait(b);\n\
           out[threadIdx.x] = t[0];\n\
         }",
    );
    let shown = show(&k);
    let t = k.arrays.iter().find(|a| a.name == "t").unwrap();
    let inp = k.arrays.iter().find(|a| a.name == "in").unwrap();
    assert!(t.body.has_sync(), "{shown}");
    let mut accesses = Vec::new();
    t.body.accesses(&mut accesses);
    assert_eq!(accesses[0].mode, Mode::Write, "{shown}");
    let mut reads = Vec::new();
    inp.body.accesses(&mut reads);
    assert_eq!(reads.len(), 1, "{shown}");
    assert_eq!(reads[0].mode, Mode::Read, "{shown}");
    assert!(shown.contains("copy_step"), "{shown}");
}

#[test]
fn asynchronous_copies_are_copies_where_issued_and_a_block_barrier_is_a_barrier() {
    // A thread's own copies: libcu++'s through a pipeline (with its byte
    // count wrapped in an alignment promise), and the runtime's primitive.
    let copies = [
        (
            "<cuda/pipeline>",
            "auto p = cuda::make_pipeline();\n\
             p.producer_acquire();\n\
             cuda::memcpy_async(&t[threadIdx.x], &in[threadIdx.x], cuda::aligned_size_t<4>(sizeof(float)), p);\n\
             p.producer_commit();\n\
             p.consumer_wait();",
        ),
        (
            "<cuda_pipeline.h>",
            "__pipeline_memcpy_async(&t[threadIdx.x], &in[threadIdx.x], sizeof(float));\n\
             __pipeline_commit();\n\
             __pipeline_wait_prior(0);",
        ),
    ];
    for (header, copy) in copies {
        let k = kernel(&format!(
            "#include {header}\n\
             __global__ void k(const float *in, float *out) {{\n\
               __shared__ float t[128];\n\
               {copy}\n\
               __syncthreads();\n\
               out[threadIdx.x] = t[127 - threadIdx.x];\n\
             }}"
        ));
        let shown = show(&k);
        let array = |name: &str| k.arrays.iter().find(|a| a.name == name).unwrap();
        let mut writes = Vec::new();
        array("t").body.accesses(&mut writes);
        let modes: Vec<Mode> = writes.iter().map(|a| a.mode).collect();
        assert_eq!(modes, [Mode::Write, Mode::Read], "{header}: {shown}");
        let mut reads = Vec::new();
        array("in").body.accesses(&mut reads);
        assert_eq!(reads.len(), 1, "{header}: {shown}");
        assert_eq!(reads[0].mode, Mode::Read, "{header}: {shown}");
        // One cell each: the byte count is known.
        assert!(!shown.contains("byte_cell"), "{header}: {shown}");
        assert!(
            k.approximations.is_empty(),
            "{header}: {:?}",
            k.approximations
        );
    }
    // A block's copy whose completion a block-scoped barrier tracks: the
    // group's members share the cells, and arrive_and_wait is the barrier.
    let k = kernel(
        "#include <cuda/barrier>\n\
         #include <cooperative_groups.h>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(const float *in, float *out) {\n\
           __shared__ float t[128];\n\
           __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n\
           cg::thread_block b = cg::this_thread_block();\n\
           if (b.thread_rank() == 0) init(&bar, b.size());\n\
           b.sync();\n\
           cuda::memcpy_async(b, t, in, sizeof(float) * 128, bar);\n\
           bar.arrive_and_wait();\n\
           out[threadIdx.x] = t[0];\n\
         }",
    );
    let shown = show(&k);
    let t = k.arrays.iter().find(|a| a.name == "t").unwrap();
    assert!(t.body.has_sync(), "{shown}");
    assert!(shown.contains("copy_step"), "{shown}");
    // Split in two, the barrier is at the wait; an access between the
    // arrival and the wait is noted as an approximation.
    for (between, approximated) in [("", false), ("t[threadIdx.x] = 1.0f;", true)] {
        let k = kernel(&format!(
            "#include <cuda/barrier>\n\
             __global__ void k(float *out) {{\n\
               __shared__ float t[128];\n\
               __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n\
               if (threadIdx.x == 0) init(&bar, blockDim.x);\n\
               __syncthreads();\n\
               auto token = bar.arrive();\n\
               {between}\n\
               bar.wait(std::move(token));\n\
               out[threadIdx.x] = t[0];\n\
             }}"
        ));
        let shown = show(&k);
        let out = k.arrays.iter().find(|a| a.name == "out").unwrap();
        let mut syncs = 0;
        fn count(s: &crate::protocol::Stmt, n: &mut usize) {
            match s {
                crate::protocol::Stmt::Sync(_) => *n += 1,
                crate::protocol::Stmt::Seq(items) => items.iter().for_each(|i| count(i, n)),
                _ => {}
            }
        }
        count(&out.body, &mut syncs);
        assert_eq!(syncs, 2, "{shown}");
        assert_eq!(
            !k.approximations.is_empty(),
            approximated,
            "{:?}",
            k.approximations
        );
    }
    // A block-scoped pipeline: making it synchronizes the group (its state
    // is the library's, no access of the kernel's), and the stage passes
    // between the block's threads at acquire and wait.
    let k = kernel(
        "#include <cooperative_groups.h>\n\
         #include <cuda/pipeline>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(int *out, const int *in) {\n\
           __shared__ int t[128];\n\
           __shared__ cuda::pipeline_shared_state<cuda::thread_scope::thread_scope_block, 1> state;\n\
           auto block = cg::this_thread_block();\n\
           auto pipe = cuda::make_pipeline(block, &state);\n\
           pipe.producer_acquire();\n\
           cuda::memcpy_async(block, t, in, sizeof(int) * 128, pipe);\n\
           pipe.producer_commit();\n\
           pipe.consumer_wait();\n\
           out[threadIdx.x] = t[127 - threadIdx.x];\n\
           pipe.consumer_release();\n\
         }",
    );
    let shown = show(&k);
    assert!(k.arrays.iter().all(|a| a.name != "state"), "{shown}");
    let t = k.arrays.iter().find(|a| a.name == "t").unwrap();
    let mut accesses = Vec::new();
    t.body.accesses(&mut accesses);
    assert_eq!(accesses.len(), 2, "{shown}");
    assert!(shown.contains("sync"), "{shown}");
    assert_eq!(
        k.approximations,
        ["a block-scoped cuda::pipeline's acquire and wait are taken as the block's barrier"]
    );
}

#[test]
fn fragments_sized_by_a_kernel_templates_parameters_take_the_instances_sizes() {
    let u = unit(
        "#include <mma.h>\n\
         using namespace nvcuda;\n\
         template <int WM, int WN, int WK>\n\
         __global__ void k(float *c, int n) {\n\
           wmma::fragment<wmma::accumulator, WM, WN, WK, float> acc;\n\
           wmma::fill_fragment(acc, 0.0f);\n\
           wmma::store_matrix_sync(c + blockIdx.x * WM * n, acc, n, wmma::mem_row_major);\n\
         }\n\
         void run(float *c, int n) { k<16, 16, 16><<<4, 32>>>(c, n); }",
    );
    let k = u.kernels[0].lowered.clone().expect("lowered");
    let shown = show(&k);
    // The tile's cells, not a write at an unknown place.
    assert!(shown.contains("tile_cell"), "{shown}");
    assert!(!shown.contains("offset"), "{shown}");
}

/// The values `k`'s writes store, in the protocol's text form.
fn stored_values(k: &Kernel) -> Vec<String> {
    fn walk(s: &Stmt, out: &mut Vec<String>) {
        match s {
            Stmt::Access(a) if a.mode == Mode::Write => {
                out.push(a.value.as_ref().map_or("?".into(), |v| v.to_string()));
            }
            Stmt::Seq(items) => items.iter().for_each(|i| walk(i, out)),
            Stmt::If { then, els, .. } => {
                walk(then, out);
                walk(els, out);
            }
            Stmt::For { body, .. } => walk(body, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    k.arrays.iter().for_each(|a| walk(&a.body, &mut out));
    out
}

#[test]
fn warp_collectives_store_one_value_per_group() {
    let k = kernel(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float butterfly(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(__shfl_xor_sync(0xffffffff, v, o), v);
  return v;
}
__global__ void k(const float *x, float *s, float *t, float *u) {
  float v = x[threadIdx.x];
  s[threadIdx.x / 32] = butterfly(v);
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  t[threadIdx.x / 8] = cg::reduce(tile, v, cg::plus<float>());
  u[threadIdx.x / 32] = __shfl_sync(0xffffffff, v, 3);
}",
    );
    let stored = stored_values(&k);
    // One group of 32, one of 8, one of 32; the y and z axes the kernel
    // never names are left out of the groups' numbers.
    assert_eq!(stored.len(), 3, "{stored:?}");
    assert!(
        stored[0].starts_with("__collective") && stored[0].ends_with("[tid.x / 32]"),
        "{stored:?}"
    );
    assert!(stored[1].ends_with("[tid.x / 8]"), "{stored:?}");
    assert!(stored[2].ends_with("[tid.x / 32]"), "{stored:?}");
    let names: std::collections::BTreeSet<&str> =
        stored.iter().map(|s| &s[..s.find('[').unwrap()]).collect();
    assert_eq!(names.len(), 3, "each call its own: {stored:?}");
}

#[test]
fn shuffles_that_leave_lanes_different_values_store_unknowns() {
    for body in [
        // Only lane 0 ends with the sum.
        "for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);",
        // Not commutative: partners compute v - w and w - v.
        "for (int o = 16; o > 0; o /= 2) v = v - __shfl_xor_sync(0xffffffff, v, o);",
        // Offsets 16 and 8 only: four groups of 8 lanes.
        "for (int o = 16; o > 4; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);",
        // Another value mixed in per lane.
        "for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o) * threadIdx.x;",
    ] {
        let k = kernel(&format!(
            "__global__ void k(const float *x, float *s) {{
  float v = x[threadIdx.x];
  {body}
  s[threadIdx.x / 32] = v;
  s[32 + threadIdx.x / 32] = __shfl_sync(0xffffffff, v, threadIdx.x % 4);
}}"
        ));
        assert_eq!(stored_values(&k), ["?", "?"], "{body}");
    }
    // Each iteration of a loop around a collective is its own execution.
    let k = kernel(
        "__global__ void k(const float *x, float *s, int n) {
  for (int i = 0; i < n; i++) s[threadIdx.x / 32] = __shfl_sync(0xffffffff, x[i * 32 + threadIdx.x], 0);
}",
    );
    let stored = stored_values(&k);
    assert!(stored[0].contains("[tid.x / 32][i"), "{stored:?}");
}

#[test]
fn host_code_on_the_wider_runtime_api_parses_with_the_built_in_headers() {
    // Graphs, pools, priorities, 3D copies, texture objects, pointer
    // attributes, complex numbers and one-element vectors: host code that
    // does not parse may hide the launches after it.
    let u = unit(
        "#include <cuComplex.h>
#include <curand.h>
__global__ void k(cuFloatComplex *a, uchar1 *b) {
  a[threadIdx.x] = cuCmulf(a[threadIdx.x], make_cuFloatComplex(1.0f, 0.0f));
  b[threadIdx.x].x = (unsigned char)__double2int_ru(__drcp_rn(2.0)) + __vabs4(3u);
}
int main() {
  cudaStream_t s; cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, 0);
  cudaGraph_t g; cudaGraphExec_t ge;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&ge, g, NULL, NULL, 0);
  cudaMemPool_t pool; cudaDeviceGetDefaultMemPool(&pool, 0);
  unsigned long long threshold = ~0ull;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  cudaPitchedPtr pp; cudaExtent ext = make_cudaExtent(4, 4, 4); cudaMalloc3D(&pp, ext);
  cudaTextureDesc td; td.filterMode = cudaFilterModeLinear; td.addressMode[0] = cudaAddressModeClamp;
  cudaPointerAttributes pa; cudaPointerGetAttributes(&pa, pp.ptr);
  int v; cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0);
  curandGenerator_t gen; curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_MRG32K3A);
  cuFloatComplex *a; uchar1 *b;
  k<<<4, 64, 0, s>>>(a, b);
  cudaGraphLaunch(ge, s);
  return 0;
}",
    );
    assert!(u.diagnostics.is_empty(), "{:?}", u.diagnostics);
    assert_eq!(u.kernels.len(), 1);
}

#[test]
fn the_precompiled_prelude_parses_as_the_textual_one() {
    let src = concat!(
        "#include <cstdio>\n",
        "__global__ void k(float *a, int n) {\n",
        "  __shared__ float t[64];\n",
        "  t[threadIdx.x] = sqrtf(a[threadIdx.x]) + std::pow(a[0], 2.0f);\n",
        "  __syncthreads();\n",
        "  if (threadIdx.x < n) a[threadIdx.x] = t[63 - threadIdx.x];\n",
        "}\n",
        "int main() { printf(\"%d\", 1); k<<<1, 64>>>(0, 64); }\n",
    );
    let path = Path::new("/tmp/drfscan-test/k.cu");
    let plain = FrontendOptions::default();
    let inv = invocation(path, src.as_bytes(), None, &plain);
    let pch = precompiled::prelude(&inv.forced, &inv.args, &inv.unsaved)
        .expect("the built-in prelude precompiles");
    assert!(pch.fits(&inv.search));
    assert!(pch.inputs.iter().any(|(p, _)| p.ends_with("cmath")));
    // A directory holding `include/stdio.h` (a tail of `/usr/include/stdio.h`
    // that no `#include <stdio.h>` finds) might shadow a header the prelude
    // read: its units get the textual prelude, and parse the same.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("include")).unwrap();
    std::fs::write(dir.path().join("include/stdio.h"), "#error never read\n").unwrap();
    let shadowed = FrontendOptions {
        include_dirs: vec![dir.path().to_path_buf()],
        ..FrontendOptions::default()
    };
    let inv = invocation(path, src.as_bytes(), None, &shadowed);
    assert!(!pch.fits(&inv.search));
    let (a, b) = (unit_with(src, &plain), unit_with(src, &shadowed));
    assert!(
        a.diagnostics.is_empty() && b.diagnostics.is_empty(),
        "{:?} {:?}",
        a.diagnostics,
        b.diagnostics
    );
    let lowered = |u: &Unit| show(u.kernels[0].lowered.as_ref().unwrap());
    assert_eq!(lowered(&a), lowered(&b));
    // Both depend on the system's headers for the unit cache.
    for u in [&a, &b] {
        assert!(u.includes.iter().any(|(p, _)| p.ends_with("cmath")));
    }
}

#[test]
fn a_project_header_named_like_a_system_one_is_read_as_before() {
    // `#include <stdlib.h>` in the prelude finds a project's own
    // `stdlib.h` on its include path, as with nvcc's headers.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("stdlib.h"), "#define PROJECT_CELLS 7\n").unwrap();
    let opts = FrontendOptions {
        include_dirs: vec![dir.path().to_path_buf()],
        ..FrontendOptions::default()
    };
    let u = unit_with("__global__ void k(int *a) { a[PROJECT_CELLS] = 0; }", &opts);
    assert!(u.diagnostics.is_empty(), "{:?}", u.diagnostics);
    assert!(show(u.kernels[0].lowered.as_ref().unwrap()).contains("[7]"));
}

#[test]
fn a_builds_forced_include_comes_after_the_precompiled_prelude() {
    // No include guard: read twice (inside the precompiled prelude and
    // again after it), its definition would be one too many.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("pre.h"), "__device__ int pre_cells = 3;\n").unwrap();
    let src = "__global__ void k(int *a) { a[threadIdx.x * pre_cells] = 0; }\n";
    std::fs::write(dir.path().join("k.cu"), src).unwrap();
    let db = dir.path().join("compile_commands.json");
    let entry = format!(
        r#"[{{"directory": "{}", "file": "k.cu", "command": "nvcc -include pre.h -c k.cu"}}]"#,
        dir.path().display()
    );
    std::fs::write(&db, entry).unwrap();
    let opts = FrontendOptions {
        compile_commands: commands::CompileCommands::load(&db).unwrap(),
        ..FrontendOptions::default()
    };
    let u = parse_source(&dir.path().join("k.cu"), src.as_bytes(), &opts);
    assert!(u.diagnostics.is_empty(), "{:?}", u.diagnostics);
    assert!(u.kernels[0].lowered.is_ok());
    let inv = invocation(&dir.path().join("k.cu"), src.as_bytes(), None, &opts);
    let pch = precompiled::prelude(&inv.forced, &inv.args, &inv.unsaved).unwrap();
    assert!(pch.fits(&inv.search));
    assert!(!pch.inputs.iter().any(|(p, _)| p.ends_with("pre.h")));
}

#[test]
fn a_kept_precompiled_prelude_is_reused_until_it_goes_stale() {
    use std::os::unix::fs::MetadataExt;
    let src = "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n";
    let inv = invocation(
        Path::new("/tmp/drfscan-test/k.cu"),
        src.as_bytes(),
        None,
        &FrontendOptions::default(),
    );
    let store = tempfile::tempdir().unwrap();
    let build = || precompiled::build_in(store.path(), &inv.forced, &inv.args, &inv.unsaved);
    let first = build().unwrap();
    let kept: Vec<PathBuf> = std::fs::read_dir(store.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let pch = kept[0].join("prelude.pch");
    let listed = kept[0].join("inputs");
    let file_of = || std::fs::metadata(&pch).unwrap().ino();
    let built = file_of();
    // Another process with the same flags takes the kept file.
    let second = build().unwrap();
    assert_eq!(file_of(), built);
    assert_eq!(second.inputs, first.inputs);
    // A file the prelude read that changed since: built anew.
    let text = std::fs::read_to_string(&listed).unwrap();
    let hash = &first.inputs[0].1;
    std::fs::write(
        &listed,
        text.replacen(hash.as_str(), &"0".repeat(hash.len()), 1),
    )
    .unwrap();
    build().unwrap();
    assert_ne!(file_of(), built);
    assert_eq!(std::fs::read_to_string(&listed).unwrap(), text);
    // A file clang cannot load: built anew.
    let rebuilt = file_of();
    std::fs::write(&pch, b"not a precompiled header").unwrap();
    let last = build().unwrap();
    assert_ne!(file_of(), rebuilt);
    assert_eq!(last.inputs, first.inputs);
    assert!(std::fs::metadata(&pch).unwrap().len() > 1000);
}

#[test]
fn local_arrays_sized_by_template_parameters_are_private() {
    // In the template clang gives `acc[i]` no type; the declaration's
    // three dimensions still make `acc[i][j]` an array and `acc[i][j][0]`
    // a cell of the thread's own.
    let k = kernel(
        "template <int M, int N>\n\
         __global__ void k(const unsigned *in, unsigned *out) {\n\
           unsigned acc[M][N][2];\n\
           for (int i = 0; i < M; ++i)\n\
             for (int j = 0; j < N; ++j) { acc[i][j][0] = in[threadIdx.x]; acc[i][j][1] = 0; }\n\
           unsigned *row = acc[1][0];\n\
           out[threadIdx.x] = acc[0][1][1] + row[1];\n\
         }",
    );
    let shown = show(&k);
    let names: Vec<&str> = k.arrays.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["in", "out"], "{shown}");
}

#[test]
fn a_function_template_called_in_a_pattern_takes_the_written_arguments() {
    // `column<B, 3>` inside the kernel template `k<64>`: the helper's
    // value parameters are 64 and 3 for the call, and its default (`R =
    // 2`) where none is written. With `half`'s operators in scope the
    // sum is an unresolved `operator+`; the shared address stays one.
    let k = kernel(
        "#include <cuda_fp16.h>\n\
         template <int S, int T, int R = 2> __device__ int column(int i) { return i % (S >> T) * R; }\n\
         template <int B> __global__ void k(float *out) {\n\
           extern __shared__ float s[];\n\
           unsigned base = __cvta_generic_to_shared(s);\n\
           unsigned at = base + column<B, 3>(threadIdx.x) * sizeof(float);\n\
           asm volatile(\"cp.async.ca.shared.global [%0], [%1], 4;\\n\" :: \"r\"(at), \"l\"(out));\n\
         }\n\
         void run(float *o) { k<64><<<1, 8>>>(o); }",
    );
    let shown = show(&k);
    assert!(shown.contains("s: wr[((tid.x % 8) * 2)]"), "{shown}");
    // A built-in type argument has no cursor: `column<float, B, 3>` shows
    // two, so none is matched to a parameter by position (`S` would take
    // 3, and `R` its default); all three stay open.
    let k = kernel(
        "template <typename T, int S, int R = 2> __device__ int column(int i) { return i % S * R; }\n\
         template <int B> __global__ void k(float *out) { out[column<float, B, 3>(threadIdx.x)] = 0; }\n\
         void run(float *o) { k<64><<<1, 8>>>(o); }",
    );
    let shown = show(&k);
    assert!(!shown.contains("% 3") && !shown.contains("* 2"), "{shown}");
}

#[test]
fn of_overloaded_function_templates_the_one_that_takes_the_arguments_is_called() {
    // Two `put`s: an integer stride or a table of indices. The call in
    // the pattern is unresolved; only the first takes an integer.
    let k = kernel(
        "template <int N> __device__ void put(float *s, int stride) { for (int i = 0; i < N; i++) s[i * stride] = 0; }\n\
         template <int N> __device__ void put(float *s, const int *at) { for (int i = 0; i < N; i++) s[at[i]] = 0; }\n\
         template <int M> __global__ void k(float *out) { put<M>(&out[threadIdx.x], 64); }\n\
         void run(float *o) { k<2><<<1, 64>>>(o); }",
    );
    let shown = show(&k);
    assert!(
        shown.contains("wr[tid.x]") && shown.contains("wr[(tid.x + 64)]"),
        "{shown}"
    );
    // Arities tell them apart too; a default counts as optional.
    let k = kernel(
        "template <int M> __device__ void put(float *s, int a, int b = 1) { s[a * b] = 0; }\n\
         template <int M> __device__ void put(float *s) { s[0] = 1; }\n\
         template <int M> __global__ void k(float *out) { put<M>(out, threadIdx.x); }\n\
         void run(float *o) { k<2><<<1, 64>>>(o); }",
    );
    let shown = show(&k);
    assert!(shown.contains("wr[tid.x]"), "{shown}");
}

#[test]
fn a_launch_a_pinned_guard_keeps_from_every_caller_runs_with_the_pinned_size() {
    // `main` passes 32, so `k<16>`'s launch is on a path never taken;
    // were it taken, `block` would be 16.
    let src = "template <int T> __global__ void k(float *p) { p[threadIdx.x] = 0; }\n\
        static void run(int block, float *p) {\n\
          if (block == 16) k<16><<<1, block>>>(p);\n\
          else if (block > 64) k<64><<<1, block>>>(p);\n\
          else k<32><<<1, block>>>(p);\n\
        }\n\
        int main() { run(32, 0); return 0; }\n";
    let u = unit(src);
    assert_eq!(blocks(&u, "k<16>"), [Some(16)]);
    assert_eq!(blocks(&u, "k<32>"), [Some(32)]);
    // A guard that pins nothing leaves no launch to analyse under.
    assert!(blocks(&u, "k<64>").is_empty(), "{:?}", blocks(&u, "k<64>"));
}

#[test]
fn accesses_under_a_spin_lock_carry_it_while_the_lowering_follows_it() {
    let src = |body: &str| {
        format!(
            "__device__ void take(int *m) {{ while (atomicCAS(m, 0, 1) != 0); __threadfence(); }}\n\
             __device__ void give(int *m) {{ __threadfence(); atomicExch(m, 0); }}\n\
             __global__ void k(int *locks, float *bins, const int *keys) {{\n\
               int b = keys[blockIdx.x * blockDim.x + threadIdx.x];\n\
               {body}\n\
             }}\n"
        )
    };
    let text = |body: &str| crate::protocol::print::print(&kernel(&src(body)));
    let locked = text("take(&locks[b]); bins[b] += 1; give(&locks[b]);");
    assert!(locked.contains("wr[b] lock locks[b]"), "{locked}");
    // Taken in one branch only, given back without a fence first, taken
    // without the fence, never given back, or its cell written while
    // held: no access keeps a lock.
    for body in [
        "if (b > 3) take(&locks[b]); bins[b] += 1; if (b > 3) give(&locks[b]);",
        "take(&locks[b]); bins[b] += 1; atomicExch(&locks[b], 0);",
        "while (atomicCAS(&locks[b], 0, 1) != 0); bins[b] += 1; give(&locks[b]);",
        "take(&locks[b]); bins[b] += 1;",
        "take(&locks[b]); bins[b] += 1; locks[b] = 0; give(&locks[b]);",
    ] {
        let t = text(body);
        assert!(t.contains("wr[b]") && !t.contains(" lock "), "{body}\n{t}");
    }
}

#[test]
fn variables_stepped_once_per_turn_of_an_uncounted_loop_are_inductions() {
    // `k` is its start plus `iter` strides in every turn of the endless
    // loop; not a fresh unknown of each thread.
    let k = kernel(
        "__global__ void k(float *a, int n) {\n\
           int k = blockIdx.x * blockDim.x + threadIdx.x;\n\
           while (1) { if (k - (int)threadIdx.x >= n) break; a[k] = 0; k += blockDim.x * gridDim.x; }\n\
         }",
    );
    let text = crate::protocol::print::print(&k);
    assert!(
        text.contains("wr[bid.x * blockDim.x + tid.x + iter * (blockDim.x * gridDim.x)]"),
        "{text}"
    );
    // Stepped twice, or only on turns that differ: unknown.
    for body in [
        "if (k >= n) break; a[k] = 0; k += 4; k += 4;",
        "if (k >= n) break; a[k] = 0; if (k % 3 == 0) k += 4;",
    ] {
        let k = kernel(&format!(
            "__global__ void k(float *a, int n) {{ int k = threadIdx.x; while (1) {{ {body} }} }}"
        ));
        let text = crate::protocol::print::print(&k);
        assert!(!text.contains("iter *"), "{body}\n{text}");
    }
    // Stepped on the turns a condition the loop does not change allows.
    let k = kernel(
        "__global__ void k(float *a, int n) { int k = threadIdx.x; while (1) { if (k >= n) break; a[k] = 0; if (n > 3) k += 4; } }",
    );
    let text = crate::protocol::print::print(&k);
    assert!(text.contains("n > 3 ? iter * 4 : 0"), "{text}");
}

#[test]
fn range_based_for_walks_the_cells_of_an_array() {
    let out = shape(
        "__global__ void k(int *out) {
  __shared__ int s[4];
  __shared__ int big[64];
  for (int &v : s) v = threadIdx.x;
  int t = 0;
  for (int v : big) { if (v < 0) break; t += v; }
  int regs[2];
  regs[0] = 1;
  regs[1] = 2;
  for (int r : regs) out[r] = t;
}",
    );
    // Four cells unrolled, sixty-four a counted loop over the hidden
    // iterator, a thread's own array walked like any other (its cells,
    // filled alike by every thread, read as values named after it).
    assert!(out.contains("s: wr[0]; wr[1]; wr[2]; wr[3]; \n"), "{out}");
    assert!(out.contains("big: for v#index in 0..64 {"), "{out}");
    assert!(out.contains("rd[v#index]"), "{out}");
    assert!(
        out.contains("out: wr[regs.elem]; wr[regs.elem#2]; \n"),
        "{out}"
    );
}

#[test]
fn launch_values_are_known_while_lowering() {
    // The block size and an argument every launch passes as one constant:
    // the halving loop is unrolled from 4, and the doubling `offset` it
    // carries is a constant in every copy instead of each thread's unknown.
    let out = shape(
        "__global__ void k(int *a, int n) {
  int offset = 1;
  for (int d = blockDim.x; d > 1; d >>= 1) {
    __syncthreads();
    if (threadIdx.x < d / 2) a[offset * threadIdx.x] = 0;
    offset *= 2;
  }
  a[n] = 1;
}
void host(int *a) { k<<<1, 4>>>(a, 9); k<<<1, 4>>>(a, 9); }",
    );
    assert_eq!(
        out,
        "a: sync; if (tid.x < 2) { wr[tid.x]; } sync; if (tid.x < 1) { wr[(2 * tid.x)]; } wr[9]; \n"
    );
    // An argument two launches pass differently stays a parameter.
    let out = shape(
        "__global__ void k(int *a, int n) { a[n] = 1; }
void host(int *a) { k<<<1, 4>>>(a, 9); k<<<1, 4>>>(a, 8); }",
    );
    assert_eq!(out, "a: wr[n]; \n");
}

#[test]
fn unresolved_pointer_steps_move_the_pointer() {
    // With some `operator+=` and `operator++` in scope, clang leaves each
    // step of a `T *` in a template an unresolved operator call: the steps
    // still move the pointer, and a loop's step is an induction.
    let out = shape(
        "struct V { float x; };
__device__ void operator+=(V &a, V b) { a.x += b.x; }
__device__ V &operator++(V &a) { return a; }
__device__ V &operator--(V &a) { return a; }
template <typename T> __global__ void k(T *a, int n) {
  T *p = a;
  p += threadIdx.x;
  for (int r = 0; r < n; ++r) { *p = 0; p += 64; }
  T *q = a;
  *q++ = 1;
  *++q = 2;
  --q;
  *q = 3;
}",
    );
    assert_eq!(
        out,
        "a: for r in 0..n { wr[(tid.x + (r * 64))]; } wr[0]; wr[2]; wr[1]; \n",
    );
}

#[test]
fn file_scope_axioms_are_every_kernels_assumptions() {
    // GPUVerify's `__axiom` at file scope; one inside a function stays
    // without effect, as before, and still compiles.
    let k = kernel(
        "__axiom(blockDim.x == 64);
namespace ns { __axiom(gridDim.x >= 2); }
__global__ void k(int *a, int n) { __axiom(n == 3); a[threadIdx.x] = n; }",
    );
    assert!(
        k.assumes
            .contains(&Cond::cmp(Rel::Eq, Expr::var("blockDim.x"), Expr::Int(64))),
        "{:?}",
        k.assumes
    );
    assert!(k
        .assumes
        .contains(&Cond::cmp(Rel::Ge, Expr::var("gridDim.x"), Expr::Int(2))));
    assert!(!k.assumes.iter().any(|c| {
        let mut vars = std::collections::BTreeSet::new();
        c.free_vars(&mut vars);
        vars.contains("n")
    }));
}

#[test]
fn an_instantiation_sizes_the_types_its_template_leaves_dependent() {
    // Member types of a traits argument and `sizeof(T)` take the sizes
    // the instantiation gives them: `params.x` is counted in halves, a
    // pair is two of them, and `T` is a 4-byte `float` for the `float4`
    // view.
    let out = shape(
        "#include <cuda_fp16.h>
struct Fp16 { using Type = __half; using Type2 = __half2; };
struct Io { using IOTraits = Fp16; };
struct Params { void *x; };
template <typename Traits_> __global__ void k(Params params) {
  using IOTraits = typename Traits_::IOTraits;
  using IOType = typename IOTraits::Type;
  using IOType2 = typename IOTraits::Type2;
  const IOType *base = reinterpret_cast<const IOType *>(params.x);
  IOType2 v = *reinterpret_cast<const IOType2 *>(&base[4 * threadIdx.x]);
  reinterpret_cast<IOType2 *>(params.x)[threadIdx.x] = v;
}
void run(Params p) { k<Io><<<1, 32>>>(p); }",
    );
    assert!(
        out.contains("rd[(4 * tid.x)]; rd[((4 * tid.x) + 1)]; "),
        "{out}"
    );
    assert!(
        out.contains("wr[(tid.x * 2)]; wr[((tid.x * 2) + 1)]; "),
        "{out}"
    );
    let out = shape(
        "template <typename T> __global__ void k(T *a) {
  constexpr int V = 16 / sizeof(T);
  reinterpret_cast<float4 *>(a)[threadIdx.x] = make_float4(0, 0, 0, 0);
  a[threadIdx.x * V] = 1;
}
void run(float *a) { k<float><<<1, 32>>>(a); }",
    );
    assert!(out.contains("wr[(tid.x * 4)]; "), "{out}");
}

#[test]
fn a_kernel_named_by_a_local_variable_is_launched_through_it() {
    // `auto kernel = k<T, 1>; kernel<<<…>>>`: the launch is the kernel's,
    // in a host template or not, and an attribute query on the variable
    // lets no address escape.
    let src = "template <typename T, int N> __global__ void k(T *a) { a[threadIdx.x] = 0; }\n\
        template <typename T> void run(T *a) {\n\
          auto kernel = k<T, 1>;\n\
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);\n\
          kernel<<<1, 64>>>(a);\n\
        }\n\
        void go(float *a) { auto kernel = &k<float, 2>; kernel<<<2, dim3(32, 4)>>>(a); }\n";
    let u = unit(src);
    let blocks = |name: &str| {
        let k = u.kernels.iter().find(|k| k.name == name).unwrap();
        k.launches.iter().map(|s| s.block).collect::<Vec<_>>()
    };
    assert_eq!(blocks("k<T, 1>"), vec![[Some(64), Some(1), Some(1)]]);
    assert_eq!(blocks("k<float, 2>"), vec![[Some(32), Some(4), Some(1)]]);
    // A variable that goes anywhere else lets the kernel's address escape.
    let src = "__global__ void k(int *a) { a[threadIdx.x] = 0; }\n\
        void keep(void (*)(int *));\n\
        void go(int *a) { auto kernel = k; keep(kernel); kernel<<<1, 64>>>(a); }\n";
    let u = unit(src);
    assert!(u.kernels[0].launches.is_empty());
}

#[test]
fn kernels_stored_in_a_pointer_local_are_launched_through_it() {
    // `kernel = &a; … kernel = b; if (kernel == &a) …; kernel<<<…>>>`: the
    // launch is a launch of each kernel the pointer may hold.
    let src = "__global__ void a(int *p) { p[threadIdx.x] = 0; }\n\
        __global__ void b(int *p) { p[threadIdx.x] = 1; }\n\
        __global__ void c(int *p) { p[threadIdx.x] = 2; }\n\
        int go(int *p, int k) {\n\
          void (*kernel)(int *) = nullptr;\n\
          int same = 0;\n\
          switch (k) { case 0: kernel = &a; break; default: kernel = b; }\n\
          if (kernel == &a) same++;\n\
          kernel<<<4, dim3(32, 8)>>>(p);\n\
          c<<<1, 16>>>(p);\n\
          return same;\n\
        }\n";
    let u = unit(src);
    let blocks = |name: &str| {
        let k = u.kernels.iter().find(|k| k.name == name).unwrap();
        k.launches.iter().map(|s| s.block).collect::<Vec<_>>()
    };
    assert_eq!(blocks("a"), vec![[Some(32), Some(8), Some(1)]]);
    assert_eq!(blocks("b"), vec![[Some(32), Some(8), Some(1)]]);
    assert_eq!(blocks("c"), vec![[Some(16), Some(1), Some(1)]]);
    // A pointer that also holds a host function, or is passed on, may be
    // launched anywhere: the kernels' addresses escape.
    for (extra, holds) in [("kernel = host;", "host"), ("keep(kernel);", "keep")] {
        let src = format!(
            "__global__ void a(int *p) {{ p[threadIdx.x] = 0; }}\n\
            void host(int *p) {{}}\n\
            void keep(void (*)(int *));\n\
            void go(int *p) {{ void (*kernel)(int *); kernel = a; {extra} kernel<<<1, 64>>>(p); }}\n"
        );
        let u = unit(&src);
        assert!(u.kernels[0].launches.is_empty(), "{holds}");
    }
}

#[test]
fn launch_sizes_stored_one_array_element_at_a_time_are_read() {
    // `size_t local[2]; local[0] = 16; local[1] = 4; dim3 b(local[0],
    // local[1])`, unless some store has an index that is not a constant or
    // the array goes somewhere it could be changed.
    let blocks = |body: &str| {
        let src = format!(
            "__global__ void k(int *p) {{ p[threadIdx.x] = 0; }}\n\
            void fill(size_t *);\n\
            void go(int *p, int i) {{ size_t local[2]; {body} dim3 b(local[0], local[1]); k<<<1, b>>>(p); }}\n"
        );
        let u = unit(&src);
        u.kernels[0]
            .launches
            .iter()
            .map(|s| s.block)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        blocks("local[0] = 16; local[1] = 4;"),
        vec![[Some(16), Some(4), Some(1)]]
    );
    assert_eq!(
        blocks("local[0] = 16; local[1] = 4; local[i] = 8;"),
        vec![[None, None, Some(1)]]
    );
    assert_eq!(
        blocks("local[0] = 16; local[1] = 4; fill(local);"),
        vec![[None, None, Some(1)]]
    );
    assert_eq!(
        blocks("local[0] = 16; local[1] = 4; local[1] = 8;"),
        vec![[Some(16), None, Some(1)]]
    );
}

#[test]
fn a_launch_size_set_in_its_own_branch_is_read() {
    // The arm of an `if` that holds the launch runs on the way to it; the
    // other arm, and an `if` the launch is not in, may not.
    let src = "__global__ void a(int *p) { p[threadIdx.x] = 0; }\n\
        __global__ void b(int *p) { p[threadIdx.x] = 1; }\n\
        __global__ void c(int *p) { p[threadIdx.x] = 2; }\n\
        void go(int *p, int n) {\n\
          size_t local;\n\
          if (n > 4) { local = 64; dim3 block(local); a<<<1, block>>>(p); }\n\
          else { local = 128; b<<<1, local>>>(p); }\n\
          if (n > 8) local = 32;\n\
          c<<<1, local>>>(p);\n\
        }\n";
    let u = unit(src);
    let blocks = |name: &str| {
        let k = u.kernels.iter().find(|k| k.name == name).unwrap();
        k.launches.iter().map(|s| s.block).collect::<Vec<_>>()
    };
    assert_eq!(blocks("a"), vec![[Some(64), Some(1), Some(1)]]);
    assert_eq!(blocks("b"), vec![[Some(128), Some(1), Some(1)]]);
    assert_eq!(blocks("c"), vec![[None, Some(1), Some(1)]]);
}

#[test]
fn a_flag_cleared_under_conditions_guards_as_their_negations() {
    // `bool valid = true; if (x >= n) valid = false; … if (valid)`: the
    // store is under `!(x >= n) && …`, not under a choice compared with 0.
    let out = shape(
        "__global__ void k(int *a, int n, int m) {
  bool valid = true;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n) valid = false;
  if (threadIdx.y >= m) valid = false;
  if (valid) a[x] = 1;
}",
    );
    assert!(!out.contains("?"), "{out}");
    assert!(out.contains("!(tid.y >= m)"), "{out}");
    assert!(
        out.contains("!(((bid.x * blockDim.x) + tid.x) >= n)"),
        "{out}"
    );
}

#[test]
fn a_primary_template_whose_getter_returns_null_leaves_it_to_specializations() {
    // The older SDK idiom: the primary template's getter calls an
    // undefined function and returns NULL; with `T` open, the getter is
    // the specializations' dynamic shared memory.
    let out = shape(
        "template <typename T> struct Smem {
  __device__ T *get() { extern __device__ void never(void); never(); return NULL; }
};
template <> struct Smem<float> {
  __device__ float *get() { extern __shared__ float f[]; return f; }
};
template <> struct Smem<int> {
  __device__ int *get() { extern __shared__ int i[]; return i; }
};
template <typename T> __global__ void k(T *out) {
  Smem<T> m;
  T *s = m.get();
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}",
    );
    assert!(out.contains("wr[tid.x]"), "{out}");
}

#[test]
fn a_pointer_stepped_by_a_counted_loop_leaves_it_at_its_last_step() {
    // `for (y = 0; y < h; y++) p += w;` leaves `p` at `x + h * w` when the
    // loop ran, at `x` otherwise: no unknown offset after the loop.
    let out = shape(
        "__global__ void k(float *p, int w, int h) {
  p += threadIdx.x;
  for (int y = 0; y < h; y++) { *p = 0; p += w; }
  p -= w;
  *p = 1;
}",
    );
    assert!(!out.contains("offset"), "{out}");
    assert!(
        out.contains("wr[((0 < h ? ((tid.x + ((h - 1) * w)) + w) : tid.x) - w)]"),
        "{out}"
    );
}

#[test]
fn a_pointer_stepped_by_a_nested_counted_loop_is_an_induction_of_the_outer() {
    // im2col's column pointer: each run of the inner loop moves it `kw`
    // steps, so iteration `i` of the outer one starts it `i * kw` steps on.
    let out = shape(
        "__global__ void k(float *p, int n, int kh, int kw) {
  p += threadIdx.x;
  for (int i = 0; i < kh; ++i)
    for (int j = 0; j < kw; ++j) { *p = 0; p += n; }
}",
    );
    assert!(!out.contains("offset"), "{out}");
    assert!(
        out.contains("wr[((tid.x + (i * (kw * n))) + (j * n))]"),
        "{out}"
    );
    // An inner loop that may not run steps nothing: its trip count is
    // taken only where it runs.
    let out = shape(
        "__global__ void k(float *p, int n, int kh, int lo, int hi) {
  p += threadIdx.x;
  for (int i = 0; i < kh; ++i)
    for (int j = lo; j < hi; ++j) { *p = 0; p += n; }
}",
    );
    assert!(out.contains("(lo < hi ?"), "{out}");
    // One that may end early, or whose bound the outer loop changes,
    // leaves the pointer unknown at the top of the outer loop.
    for (inner, extra) in [
        (
            "for (int j = 0; j < kw; ++j) { if (p[0] > 0) break; *p = 0; p += n; }",
            "",
        ),
        (
            "for (int j = 0; j < kw; ++j) { *p = 0; p += n; }",
            "kw += 1;",
        ),
        ("for (int j = 0; j < kw; ++j) { *p = 0; p += n; j++; }", ""),
    ] {
        let out = shape(&format!(
            "__global__ void k(float *p, int n, int kh, int kw) {{
  p += threadIdx.x;
  for (int i = 0; i < kh; ++i) {{ {inner} {extra} }}
}}"
        ));
        assert!(out.contains("offset"), "{inner} {extra}: {out}");
    }
}

#[test]
fn a_variable_stepped_under_an_invariant_condition_is_an_induction() {
    // `if (tid == 0) { a[i] = 0; i += 64; }` in a counted loop: where the
    // condition holds, `i` is its start plus the count times 64.
    let out = shape(
        "__global__ void k(float *a, int n) {
  int i = blockIdx.x;
  for (int r = 0; r < n; r++) {
    if (threadIdx.x == 0) { a[i] = 0; i += 64; }
  }
}",
    );
    // The store under the condition takes the arm where it holds.
    assert!(
        out.contains("if (tid.x == 0) { wr[(bid.x + (r * 64))]; }"),
        "{out}"
    );
    // A condition the loop changes, or that reads memory other threads
    // may change, is no invariant: `i` is unknown there.
    for cond in ["i < 100", "go"] {
        let out = shape(&format!(
            "__global__ void k(float *a, int n) {{
  __shared__ int go;
  int i = blockIdx.x;
  for (int r = 0; r < n; r++) {{
    if ({cond}) {{ a[i] = 0; i += 64; }}
  }}
}}"
        ));
        assert!(!out.contains("(r * 64)"), "{cond}: {out}");
    }
}

#[test]
fn dependent_calls_reach_explicit_specializations_and_conversions() {
    // `SharedMemory<U>` whose specializations each return an `extern
    // __shared__` array: the block's dynamic shared memory, its element
    // type open. `U(n)` converts `n`; it is not a call through `n`.
    let out = shape(
        "template <typename T> struct SharedMemory;
template <> struct SharedMemory<float> {
  __device__ float *get() { extern __shared__ float f[]; return f; }
};
template <> struct SharedMemory<double> {
  __device__ double *get() { extern __shared__ double d[]; return d; }
};
template <typename U> __global__ void k(U *out, int n) {
  SharedMemory<U> shared;
  U *buf = shared.get();
  buf[threadIdx.x] = U(n);
  out[threadIdx.x] = buf[0] / U(n);
}",
    );
    assert!(out.contains("f: wr[tid.x]; rd[0]; "), "{out}");
}

#[test]
fn byte_moves_add_up_before_they_are_rounded_to_cells() {
    // Two moves by byte counts no cell is known to divide, then a view as
    // `float *`: one access at the sum of the bytes, in cells.
    let out = shape(
        "__global__ void k(const float *x, float *d, int nb0, int nb1) {
  d[threadIdx.x] = *(const float *)((const char *)x + blockIdx.x * nb1 + threadIdx.x * nb0);
}",
    );
    assert!(
        out.contains("x: rd[(((bid.x * nb1) + (tid.x * nb0)) / 4)]; "),
        "{out}"
    );
}

#[test]
fn built_in_half_headers_declare_the_toolkits_value_functions() {
    // Rounding, saturating and NaN-aware arithmetic, comparisons and
    // conversions of half and bfloat16 pairs, a union of half pairs, and
    // `float(x)` of a template's open type: all compile and are values.
    let k = kernel(
        "#include <cuda_fp16.h>
#include <cuda_bf16.h>
typedef union { int2 i2; half2 h2[2]; } half4;
template <typename S> __device__ float widen(S x) { return float(x); }
__global__ void k(half2 *a, __nv_bfloat162 *b, int2 *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  half2 h = __h2div(a[i], __habs2(a[i]));
  __nv_bfloat162 c = __hmax2_nan(b[i], __lowhigh2highlow(b[i]));
  int n = __half2int_rd(__low2half(h)) + __bfloat162int_rz(__low2bfloat16(c));
  half4 p;
  p.h2[0] = __shfl_up_sync(0xffffffff, h, 1);
  if (__hbgt2(h, h)) p.h2[1] = __hfma2_relu(h, h, h);
  q[i] = p.i2;
  b[i] = c;
  a[i] = __float2half2_rn(widen(n));
}",
    );
    assert_eq!(k.arrays.len(), 3);
}

#[test]
fn calls_of_open_function_objects_that_may_hold_memory_are_unsupported() {
    // An object of the template's type that holds a pointer (from the
    // instantiation) may write anything it reaches; one holding values
    // only, or built in the kernel from nothing, is a call without effects
    // beyond its pointer arguments.
    let src = "template <typename F> __global__ void k(int n, F f) { f(n); }
struct Holds { int *p; __device__ void operator()(int i) const { p[0] = i; } };
struct Plain { int s; __device__ int operator()(int i) const { return s * i; } };
void run(int *p) { k<<<1, 32>>>(1, Holds{p}); k<<<1, 32>>>(1, Plain{2}); }";
    let u = unit(src);
    let by = |name: &str| u.kernels.iter().find(|k| k.name == name).unwrap();
    let held = by("k<Holds>").lowered.clone().unwrap_err();
    assert!(held.reason.contains("may hold pointers"), "{}", held.reason);
    assert!(by("k<Plain>").lowered.is_ok());
    let out = shape(
        "template <typename R> __global__ void g(float *out, const int *ix) { R read; out[threadIdx.x] = read(ix[threadIdx.x]); }",
    );
    assert!(out.contains("out: wr[tid.x]; "), "{out}");
}

#[test]
fn a_pointer_every_block_publishes_in_shared_memory_is_read_back() {
    // All threads, or thread 0 before a barrier, store the block's part of
    // `out` in a `__shared__` pointer: reads of it are that pointer, not
    // one at a place of the block's own that blocks may share.
    for store in ["", "if (threadIdx.x == 0) "] {
        let src = format!(
            "__global__ void k(float *out) {{\n\
               __shared__ float *region;\n\
               {store}region = out + blockIdx.x * 64;\n\
               __syncthreads();\n\
               region[threadIdx.x] = 1.0f;\n\
             }}"
        );
        let out = show(&kernel(&src));
        assert!(
            out.contains("out: sync; wr[((bid.x * 64) + tid.x)]"),
            "{out}"
        );
    }
    // A pointer stored in a loop, or two different ones, stay apart from
    // the block's: the place is the kernel's own unknown.
    let src = "__global__ void k(float *out, int n) {\n\
        __shared__ float *region;\n\
        if (threadIdx.x == 0) region = out + blockIdx.x * 64;\n\
        __syncthreads();\n\
        region[threadIdx.x] = 1.0f;\n\
        __syncthreads();\n\
        if (threadIdx.x == 0) region = out + n;\n\
        __syncthreads();\n\
        region[threadIdx.x] = 2.0f;\n\
      }";
    let out = show(&kernel(src));
    assert!(out.contains("region.offset"), "{out}");
}

#[test]
fn a_launch_size_a_constant_times_a_host_value_is_a_multiple_of_it() {
    // `grid.x = 4 * regions` with `regions` computed on the host: the
    // grid is a whole number of fours, whatever `regions` is.
    let src = "__global__ void k(float *p) { p[blockIdx.x] = 0; }\n\
        void run(float *p, int w) {\n\
          int regions = (w + 3) / 4;\n\
          dim3 grid;\n\
          grid.x = 4 * regions;\n\
          k<<<grid, 64>>>(p);\n\
          k<<<dim3(regions * 8), 64>>>(p);\n\
        }\n";
    let u = unit(src);
    let k = &u.kernels[0];
    let shown: Vec<String> = k.launches.iter().map(|s| s.describe()).collect();
    assert_eq!(
        shown,
        [
            "<<<(4 * regions, 1, 1), (64, 1, 1)>>>",
            "<<<(regions * 8, 1, 1), (64, 1, 1)>>>"
        ]
    );
    let lowered = k.lowered.clone().unwrap();
    let assumed: Vec<String> = lowered.assumes.iter().map(|c| c.to_string()).collect();
    let assumed = assumed.join("\n");
    assert!(assumed.contains("gridDim.x % 4 == 0"), "{assumed}");
    assert!(assumed.contains("gridDim.x % 8 == 0"), "{assumed}");
}

#[test]
fn structures_stored_whole_record_their_fields() {
    // `out[b] = s` and `out[b] = make_float2(…)`: the store's value is the
    // structure's fields, so equal structures make a benign pair; a copy
    // of one input cell stores that cell.
    let k = kernel(
        "__global__ void k(float2 *out, float2 *copy, const float2 *in, int n) {\n\
           float2 s;\n\
           s.x = n;\n\
           s.y = 2 * n;\n\
           out[blockIdx.x] = s;\n\
           out[blockIdx.x + n] = make_float2(n, 1.0f);\n\
           copy[blockIdx.x] = in[blockIdx.x];\n\
         }",
    );
    let text = crate::protocol::print::print(&k);
    assert!(text.contains("wr[bid.x] = {n, 2 * n}"), "{text}");
    assert!(text.contains("wr[bid.x + n] = {n, "), "{text}");
    assert!(text.contains("wr[bid.x] = in[bid.x]"), "{text}");
    // A field the kernel does not know leaves the value out.
    let k = kernel(
        "__global__ void k(float2 *out, const float *in) {\n\
           float2 s;\n\
           s.x = in[threadIdx.x];\n\
           s.y = 0;\n\
           out[blockIdx.x] = s;\n\
         }",
    );
    let text = crate::protocol::print::print(&k);
    assert!(
        text.contains("wr[bid.x]") && !text.contains("wr[bid.x] ="),
        "{text}"
    );
}

#[test]
fn writes_through_the_address_of_a_local_change_it() {
    // `*q = x` with `q = &a` makes `a` that value; a pointer to it passed
    // to a function without a body, or the variable bound to a `T &`
    // parameter of one, leaves it unknown.
    let out = shape(
        "__global__ void k(int *out) {\n\
           int a = 0;\n\
           int *q = &a;\n\
           *q = threadIdx.x;\n\
           out[a] = 1;\n\
         }",
    );
    assert!(out.contains("wr[tid.x]"), "{out}");
    for call in ["set(&a)", "set_ref(a)"] {
        let out = shape(&format!(
            "__device__ void set(int *v);\n\
             __device__ void set_ref(int &v);\n\
             __global__ void k(int *out) {{\n\
               int a = 0;\n\
               {call};\n\
               out[a] = 1;\n\
             }}"
        ));
        assert!(!out.contains("wr[0]"), "{call}: {out}");
    }
    // A pointer variable set through its address points where it was set
    // to, and anywhere after a function without a body sets it.
    let out = shape(
        "__global__ void k(float *a, float *b) {\n\
           float *p = a;\n\
           float **pp = &p;\n\
           *pp = b;\n\
           p[threadIdx.x] = 1.0f;\n\
         }",
    );
    assert!(
        out.starts_with("b: wr[tid.x]") && !out.contains("a:"),
        "{out}"
    );
    let r = reason(
        "__device__ void pick(float **out, float *from);\n\
         __global__ void k(float *a, float *b) {\n\
           float *p = a + threadIdx.x;\n\
           pick(&p, b);\n\
           p[0] = 1.0f;\n\
         }",
    );
    assert!(r.contains("unknown origin"), "{r}");
}

#[test]
fn a_dependent_call_of_several_overloads_runs_each_on_a_branch() {
    // `put(out, v, i)` with `T *out`: clang leaves the call between the
    // overloads, each of which the instantiation may pick.
    let out = shape(
        "__device__ void put(float *o, float v, int at) { o[at] = v; }\n\
         __device__ void put(int *o, int v, int at) { o[at + 1] = v; }\n\
         template <typename T> __global__ void k(T *out) {\n\
           put(out, (T)1, threadIdx.x);\n\
         }",
    );
    assert!(out.contains("overload"), "{out}");
    assert!(
        out.contains("wr[tid.x]") && out.contains("wr[(tid.x + 1)]"),
        "{out}"
    );
    assert!(!out.contains("offset"), "{out}");
}

#[test]
fn answers_written_through_pointers_in_a_loop_are_no_loop_variable_after_it() {
    // `*row = r` inside the loop of an inlined helper, and `keep(&last, j)`
    // in the kernel's own loop: after the loop the variable holds a value
    // of some iteration, never the loop variable itself.
    for src in [
        "__device__ void find(int n, int *row) {\n\
           for (int r = 0; r < n; r++) if (r * r == blockIdx.x) *row = r;\n\
         }\n\
         __global__ void k(int *out, int n) {\n\
           int row = 0;\n\
           find(n, &row);\n\
           out[row] = 1;\n\
         }",
        "__device__ void keep(int *d, int v) { *d = v; }\n\
         __global__ void k(int *out, int n) {\n\
           int last = 0;\n\
           for (int j = 0; j < n; j++) keep(&last, j);\n\
           out[last] = 1;\n\
         }",
    ] {
        let k = kernel(src);
        for a in &k.arrays {
            assert_eq!(k.unbound_variable(a), None, "{}", show(&k));
        }
        let out = show(&k);
        assert!(!out.contains("wr[0]"), "{out}");
    }
}

#[test]
fn a_helper_template_copying_whole_cells_records_the_cell_copied() {
    // `E` of the helper is deduced from the kernel's `T`, known under an
    // instantiation and open without one: either way an element of `src`
    // is one whole cell, and the store records which.
    let helper = "template <int n, typename E>\n\
                  __device__ void load(E (&dst)[n], const E *src, int i) { dst[i] = src[i + 1]; }\n";
    for (kernel_src, host) in [
        (
            "template <typename T> __global__ void k(const T *xs) {\n\
            __shared__ T tile[32];\n\
            load<32>(tile, xs, threadIdx.x);\n\
          }\n",
            "void run(const float *x) { k<float><<<1, 32>>>(x); }\n",
        ),
        (
            "template <typename T> __global__ void k(const T *xs) {\n\
            __shared__ T tile[32];\n\
            load<32>(tile, xs, threadIdx.x);\n\
          }\n",
            "",
        ),
    ] {
        let k = kernel(&format!("{helper}{kernel_src}{host}"));
        let text = crate::protocol::print::print(&k);
        assert!(text.contains("wr[tid.x] = xs[tid.x + 1]"), "{text}");
    }
}

#[test]
fn a_statement_expression_is_its_statements_then_its_last_value() {
    let k = kernel(
        "__global__ void k(int *out, int n) {\n\
           int m = ({ int a = n; int b = 4; a < b ? a : b; });\n\
           out[m + threadIdx.x] = 1;\n\
         }",
    );
    let text = crate::protocol::print::print(&k);
    assert!(text.contains("wr[(n < 4 ? n : 4) + tid.x]"), "{text}");
}

#[test]
fn pointers_swapped_through_their_addresses_are_read_back() {
    // `swap(&p, &q)` reads each pointer through its address and stores the
    // other there: after the call each points where the other did.
    let out = shape(
        "__device__ void swap(float **a, float **b) { float *t = *a; *a = *b; *b = t; }\n\
         __global__ void k(float *x, float *y) {\n\
           float *p = x;\n\
           float *q = y;\n\
           swap(&p, &q);\n\
           p[threadIdx.x] = 1.0f;\n\
         }",
    );
    assert!(
        out.starts_with("y: wr[tid.x]") && !out.contains("x:"),
        "{out}"
    );
}

#[test]
fn a_function_object_of_an_open_type_is_one_of_the_programs() {
    // The instantiation giving `Op` is in the translation unit: if none of
    // its function objects of one parameter may hold memory, the call
    // writes nothing; if one may (a pointer field, a capturing lambda),
    // the call may write anything.
    let kernel_src = "template <typename Op>\n\
                      __global__ void k(float *out, const float *in, Op op) {\n\
                        out[threadIdx.x] = op(in[threadIdx.x]);\n\
                      }\n";
    let plain =
        "struct Twice { float k; __device__ float operator()(float v) const { return k * v; } };\n";
    let out = shape(&format!("{plain}{kernel_src}"));
    assert!(out.contains("out: wr[tid.x]"), "{out}");
    for holding in [
        "struct Lookup { float *t; __device__ float operator()(float v) const { return t[0] * v; } };\n",
        "void host(float *p) { auto f = [=] __device__ (float v) { return p[0] * v; }; (void)f; }\n",
    ] {
        let r = reason(&format!("{plain}{holding}{kernel_src}"));
        assert!(r.contains("may hold pointers"), "{holding}: {r}");
    }
}

#[test]
fn managed_variables_are_device_memory() {
    let out = shape(
        "__managed__ int flag;\n\
         __global__ void k(int *out) { out[threadIdx.x] = flag; flag = 1; }",
    );
    assert!(
        out.contains("flag: wr[0]") || out.contains("flag: rd[0]"),
        "{out}"
    );
}

#[test]
fn surface_reads_and_writes_are_accesses_by_row_and_byte() {
    // A `float` at byte 4·x of row y covers four byte cells; the read
    // through a pointer stores into the thread's own variable.
    let k = kernel(
        "__global__ void k(cudaSurfaceObject_t s) {
  int x = threadIdx.x; int y = blockIdx.x;
  float v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(v, s, x * 4, y);
  surf3Dwrite((unsigned char)x, s, x, y, 2);
}",
    );
    let body = show(&k);
    let s = body
        .lines()
        .find(|l| l.starts_with("s: "))
        .expect("the surface is an array");
    assert!(s.contains("rd[bid.x][(tid.x * 4)]"), "{body}");
    assert!(s.contains("wr[bid.x][((tid.x * 4) + 3)]"), "{body}");
    assert!(s.contains("wr[2][bid.x][tid.x]"), "{body}");
    assert!(
        !s.contains("wr[2][bid.x][(tid.x + 1)]"),
        "a byte covers one cell: {body}"
    );
    assert_eq!(
        k.arrays.iter().find(|a| a.name == "s").unwrap().scope,
        Scope::Global
    );
}

#[test]
fn a_shift_every_thread_runs_bounds_its_amount() {
    let k =
        kernel("__global__ void k(float *a, int s) { a[(blockIdx.x << s) + threadIdx.x] = 0; }");
    assert!(
        k.assumes
            .iter()
            .any(|c| c.to_string() == "s >= 0 && s < 32"),
        "{:?}",
        k.assumes
    );
    // Under a guard the shift says nothing of the other branch; by a
    // thread's own value it is no fact of the kernel.
    let guarded = kernel(
        "__global__ void k(float *a, int s) { if (s < 40) a[(blockIdx.x << s) + threadIdx.x] = 0; }",
    );
    assert!(guarded.assumes.is_empty(), "{:?}", guarded.assumes);
    let own =
        kernel("__global__ void k(unsigned *a) { a[threadIdx.x] = 1u << (threadIdx.x % 32); }");
    assert!(own.assumes.is_empty(), "{:?}", own.assumes);
}

#[test]
fn launches_through_a_wrapper_are_read_at_its_calls() {
    // The wrapper launches its kernel parameter with sizes that are its
    // parameters or their fields; each call is a launch of the kernel it
    // passes, read there: a constructor's field, braces in field order, a
    // size passed as is.
    let src = "struct P { dim3 g; dim3 b; int s; P(const dim3 &g_, const dim3 &b_, int s_) : g(g_), b(b_), s(s_) {} };\n\
        struct Q { dim3 g; dim3 b; };\n\
        template <class K, class... A> static void go(K k, const P &p, A... a) { k<<<p.g, p.b, p.s>>>(a...); }\n\
        template <class K, class... A> static void go_q(K k, Q q, A... a) { k<<<q.g, q.b>>>(a...); }\n\
        template <class K, class... A> static void go_sized(K k, dim3 g, dim3 b, A... a) { k<<<g, b>>>(a...); }\n\
        __global__ void one(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void two(float *a) { a[threadIdx.x] = 0; }\n\
        __global__ void three(float *a) { a[threadIdx.x] = 0; }\n\
        void run(float *a, int n) {\n\
          const P p(n, dim3(32, 4), 0);\n\
          go(one, p, a);\n\
          Q q = {dim3(n), dim3(64)};\n\
          go_q(two, q, a);\n\
          go_sized(three, dim3(n), dim3(128), a);\n\
        }\n";
    let u = unit(src);
    let by = |name: &str| u.kernels.iter().find(|k| k.name == name).unwrap();
    assert_eq!(by("one").launches.len(), 1, "{:?}", by("one").launches);
    assert_eq!(by("one").launches[0].block, [Some(32), Some(4), Some(1)]);
    assert_eq!(by("two").launches[0].block, [Some(64), Some(1), Some(1)]);
    assert_eq!(by("three").launches[0].block, [Some(128), Some(1), Some(1)]);
    assert_eq!(by("three").launches[0].grid, [None, Some(1), Some(1)]);
}

#[test]
fn the_size_of_an_instantiation_s_parameter_pack_picks_a_constexpr_branch() {
    // Launched with one extra operand, then with none: the fold over the
    // pack is lowered only where the pack has members.
    let src = "template <typename... Extra>\n__global__ void k(float *out, Extra... extra) {\n  if constexpr (sizeof...(Extra) > 0) { out[threadIdx.x + 1] = 0; } else { out[threadIdx.x] = 0; }\n}\nvoid run(float *o, int *x) { k<<<1, 32>>>(o); k<int *><<<1, 32>>>(o, x); }";
    let u = unit(src);
    let mut shapes: Vec<(String, String)> = u
        .kernels
        .iter()
        .map(|k| (k.name.clone(), show(k.lowered.as_ref().expect("lowered"))))
        .collect();
    shapes.sort();
    assert_eq!(
        shapes,
        [
            ("k<>".to_string(), "out: wr[tid.x]; \n".to_string()),
            (
                "k<int *>".to_string(),
                "out: wr[(tid.x + 1)]; \n".to_string()
            ),
        ]
    );
}

#[test]
fn a_plain_global_named_in_a_kernel_is_device_memory() {
    // GPUVerify's convention: no `__device__`, still the device's array.
    let s = shape("int counts[64];\n__global__ void k() { counts[threadIdx.x] = 1; }");
    assert_eq!(s, "counts: wr[tid.x]; \n");
    assert!(super::host_variable_in_device_code(
        "k.cu:2:23: error: reference to __host__ variable 'counts' in __global__ function"
    ));
    assert!(!super::host_variable_in_device_code(
        "k.cu:2:23: error: reference to __global__ function 'k' in __global__ function"
    ));
}

#[test]
fn a_local_of_a_kernel_template_declared_without_a_value_is_no_global() {
    // Its declaration's parent is the function template, not a function.
    let u = unit("template <int N>\n__global__ void k(int *out) { int *p, n; p = out + threadIdx.x; n = N; *p = n; }\nvoid run(int *o) { k<3><<<1, 32>>>(o); }");
    let shapes: Vec<String> = u
        .kernels
        .iter()
        .map(|k| show(k.lowered.as_ref().expect("lowered")))
        .collect();
    assert_eq!(shapes, ["out: wr[tid.x]; \n"]);
}

#[test]
fn a_sized_extern_shared_array_is_shared_memory() {
    // nvcc reads it as dynamic shared memory; clang drops `__shared__`
    // from it and says why, which is not the kernel's error.
    let s =
        shape("__global__ void k() { extern __shared__ float t[4][32]; t[0][threadIdx.x] = 1; }");
    assert_eq!(s, "t: wr[0][tid.x]; \n");
    assert!(super::sized_extern_shared(
        "k.cu:1:47: error: __shared__ variable 't' cannot be 'extern'"
    ));
    assert!(!super::sized_extern_shared(
        "k.cu:1:47: error: __shared__ variable 't' cannot have an initializer"
    ));
}

#[test]
fn thirty_two_bit_parameters_keep_their_ranges() {
    let u = unit("__global__ void k(int *a, int n, unsigned m, long long q, short s) { a[n + m + q + s] = 1; }");
    let k = u.kernels[0].lowered.as_ref().expect("lowered");
    let ranges: Vec<(&str, i64, i64)> = k
        .word_ranges
        .iter()
        .map(|(p, lo, hi)| (p.as_str(), *lo, *hi))
        .collect();
    assert_eq!(
        ranges,
        [
            ("n", i32::MIN.into(), i32::MAX.into()),
            ("m", 0, u32::MAX.into())
        ]
    );
}

#[test]
fn a_parameter_field_first_read_in_a_branch_is_one_value_after_it() {
    let k = kernel(
        "struct P { int c; float *buf; };
         __global__ void k(P p) {
           if (threadIdx.x == 0) { p.buf[p.c] = 0; }
           p.buf[threadIdx.x + p.c] = 1;
         }",
    );
    assert_eq!(k.params, ["p.c"]);
    assert_eq!(
        show(&k),
        "p.buf: if (tid.x == 0) { wr[p.c]; } wr[(tid.x + p.c)]; \n"
    );
    // Assigned on one branch only, it is the input on the other.
    let k = kernel(
        "struct P { int c; int n; float *buf; };
         __global__ void k(P p) {
           if (p.n > 3) { p.c = 5; }
           p.buf[threadIdx.x + p.c] = 1;
         }",
    );
    assert_eq!(show(&k), "p.buf: wr[(tid.x + (p.n > 3 ? 5 : p.c))]; \n");
}

#[test]
fn a_structure_field_a_loop_assigns_is_no_value_of_one_iteration() {
    // Stepped once per iteration: an induction, as a plain variable is.
    let k = kernel(
        "struct C { int i; int j; };
         __global__ void k(float *a, int n) {
           C c; c.i = threadIdx.x; c.j = 7;
           for (int r = 0; r < n; ++r) { c.i += 32; }
           a[c.i + c.j] = 1;
         }",
    );
    assert!(show(&k).contains("(n - 1) * 32"), "{}", show(&k));
    assert!(k.locals.is_empty(), "{:?}", k.locals);
    // Halved: unknown after the loop; the untouched field keeps its value.
    let k = kernel(
        "struct C { int i; int j; };
         __global__ void k(float *a, int n) {
           C c; c.i = threadIdx.x; c.j = 7;
           for (int r = 0; r < n; ++r) { c.i /= 2; }
           a[c.i + c.j] = 1;
         }",
    );
    assert_eq!(k.locals, ["c.i#2"]);
    assert_eq!(show(&k), "a: wr[(c.i#2 + 7)]; \n");
    // A parameter's field first read in the loop is forgotten too.
    let k = kernel(
        "struct P { int c; float *buf; };
         __global__ void k(P p, int n) {
           for (int r = 0; r < n; ++r) { p.c += 1; }
           p.buf[threadIdx.x + p.c] = 1;
         }",
    );
    assert_eq!(show(&k), "p.buf: wr[(tid.x + p.c#2)]; \n");
}

#[test]
fn a_member_function_of_a_base_class_template_is_inlined_on_an_open_object() {
    // The pattern calls `a.data()` on a dependent object whose class
    // template is named through an alias and inherits `data()`.
    let s = shape(
        "template <typename T> struct Base { T *data_; __device__ T *data() const { return data_; } };
         template <typename T, typename I> struct Acc : Base<T> { I n; };
         template <typename T> using Acc32 = Acc<T, int>;
         template <typename T> __global__ void k(Acc32<T> a) { a.data()[threadIdx.x] = 1; }
         void run(Acc32<float> a) { k<float><<<1, 32>>>(a); }",
    );
    assert_eq!(s, "a.data_: wr[tid.x]; \n");
}

#[test]
fn a_template_local_pointer_assigned_on_one_branch_is_that_branch_value() {
    // A local of a template pattern declared without a value is no input:
    // the merge keeps what the assigning branch made of it.
    let s = shape(
        "template <int D> __global__ void k(const float *a, const float *b, float *o, int n) {
           const float *x;
           if (threadIdx.x < n) { x = a + threadIdx.x; } else { if (D == 0) { x = b; } }
           o[threadIdx.x] = *x;
         }",
    );
    assert!(s.contains("a: "), "{s}");
    assert!(s.contains("b: "), "{s}");
}

#[test]
fn explicit_instantiations_name_the_instances_analysed() {
    let u = unit(
        "#define W 8
         template <typename T> struct Pair { T a, b; };
         template <typename T, int N, bool B> __global__ void k(T *p) { p[threadIdx.x % N] = T(); }
         template __global__ void k<Pair<float>, W, true>(Pair<float> *);
         extern template __global__ void k<int, -1, false>(int *);
         template __global__ void k(double *);",
    );
    let names: Vec<&str> = u.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["k<Pair<float>, 8, 1>", "k<int, -1, 0>"]);
    let k = u.kernels[0].lowered.as_ref().expect("lowered");
    assert_eq!(show(k), "p: wr[(tid.x % 8)]; \n");
}

#[test]
fn written_template_arguments_are_types_literals_or_macros() {
    let toks =
        |s: &str| -> Vec<(String, u32)> { s.split(' ').map(|t| (t.to_string(), 0)).collect() };
    let macros: std::collections::HashMap<&str, &str> = [("TILE", "32"), ("Z", "0")].into();
    // Parameters: a type and a value.
    let parse = |text: &str| {
        let tu = clang::Tu::parse(
            "/tmp/drfscan-test/w.cu",
            &[
                "-x".into(),
                "cuda".into(),
                "--cuda-device-only".into(),
                "-nocudainc".into(),
            ],
            &[(
                "/tmp/drfscan-test/w.cu".into(),
                b"template <typename T, int N> void f();".to_vec(),
            )],
        )
        .expect("parses");
        let t = tu
            .root()
            .children()
            .into_iter()
            .find(|c| c.spelling() == "f")
            .expect("f");
        launch::written_args(&toks(text), &t.template_params(), &macros)
    };
    assert_eq!(
        parse("unsigned int , TILE >"),
        Some(vec![Err("unsigned int".into()), Ok(32)])
    );
    assert_eq!(
        parse("V < float > , Z > ("),
        Some(vec![Err("V<float>".into()), Ok(0)])
    );
    assert_eq!(parse("float , 2 * TILE >"), None);
    assert_eq!(parse("float , 1 , 2 >"), None);
}

#[test]
fn reads_through_a_conversion_operator_keep_their_place() {
    // `(float)h` over a `__half` calls the type's conversion operator,
    // whose member reference is implicit and has no place of its own.
    let k = kernel(
        "#include <cuda_fp16.h>\n\
         __global__ void k(__half *a) {\n\
           float x = (float)a[threadIdx.x + 1];\n\
           a[threadIdx.x] = __float2half(x);\n\
         }",
    );
    let mut acc = Vec::new();
    k.arrays[0].body.accesses(&mut acc);
    assert_eq!(acc[0].mode, Mode::Read);
    assert_eq!(acc[0].loc, Loc::new(3, 18), "{acc:?}");
}

#[test]
fn a_step_by_an_integer_intrinsic_under_a_flag_is_an_induction() {
    // `__mul24` touches no memory: the step is the loop's own, taken where
    // `active` holds, and the store under `active` takes that arm.
    let k = kernel(
        "__global__ void k(int n, int w, float *out) {\n\
           int g = threadIdx.x;\n\
           int g0 = 0;\n\
           int active = threadIdx.x < w;\n\
           for (int z = 0; z < n; z++) {\n\
             if (active) { g0 = g; g = g + __mul24(w, 8); }\n\
             if (active) out[g0] = 1.0f;\n\
           }\n\
         }",
    );
    let s = show(&k);
    assert!(s.contains("wr[(tid.x + (z * (w * 8)))]"), "{s}");
}

#[test]
fn launch_bounds_bound_each_axis_of_a_block_the_launch_leaves_open() {
    let bound = |text: &str| {
        let value = |n: &str| match n {
            "N" => Some(64),
            "BLOCK" => Some(128),
            _ => None,
        };
        launch::launch_bound(&launch::text_tokens(text), &value)
    };
    assert_eq!(
        bound("__global__ void __launch_bounds__(256) k(int *a)"),
        Some(256)
    );
    assert_eq!(bound("__launch_bounds__(N * (2 + 2), 1) k("), Some(256));
    assert_eq!(bound("__launch_bounds__(BLOCK / 2 - 32)"), Some(32));
    assert_eq!(bound("__launch_bounds__(threads) k("), None);
    assert_eq!(bound("__global__ void k(int *a)"), None);
    let src = "#define BLOCK 128\n\
               __global__ void __launch_bounds__(BLOCK) k(float *a) { a[threadIdx.x] = 1; }\n";
    let k = kernel(src);
    for d in ["blockDim.x", "blockDim.y", "blockDim.z"] {
        let c = Cond::cmp(Rel::Le, Expr::var(d), Expr::Int(128));
        assert!(k.assumes.contains(&c), "{d}: {:?}", k.assumes);
    }
    // A launch that fixes the block says more.
    let launched = format!("{src}void run(float *a) {{ k<<<4, 64>>>(a); }}\n");
    let k = kernel(&launched);
    let c = Cond::cmp(Rel::Le, Expr::var("blockDim.x"), Expr::Int(128));
    assert!(!k.assumes.contains(&c), "{:?}", k.assumes);
}

#[test]
fn a_case_ending_in_break_never_falls_through() {
    // Many cases with loops and barriers: their fall-through conditions
    // would grow past the size that makes them an unknown of the thread.
    let cases: String = (0..12)
        .map(|k| {
            format!(
                "case {k}: for (int i = threadIdx.x; i < n; i += blockDim.x) \
                 if (a[i] > {k}) s[threadIdx.x] += a[i]; __syncthreads(); \
                 if (threadIdx.x == 0) a[{k}] = s[0]; break;\n"
            )
        })
        .collect();
    let k = kernel(&format!(
        "__global__ void k(float *a, int n) {{ __shared__ float s[256];\n\
           switch (blockIdx.x) {{\n{cases}}} }}"
    ));
    assert!(
        !k.locals.iter().any(|l| l.starts_with("falls_through")),
        "{:?}",
        k.locals
    );
}

#[test]
fn a_pointer_parameter_tested_for_null_is_one_value_for_the_launch() {
    let k = kernel(
        "__global__ void k(float *out, float *opt) {
  if (opt) { __syncthreads(); }
  if (opt != nullptr) { out[threadIdx.x] = 1; }
  if (opt == 0) { __syncthreads(); }
}",
    );
    assert_eq!(
        show(&k),
        "out: if (opt.set != 0) { sync; } if (opt.set != 0) { wr[tid.x]; } if (opt.set == 0) { sync; } \n"
    );
    assert!(k.params.contains(&"opt.set".to_string()));
    // A pointer read from memory is each thread's own.
    let k = kernel(
        "__global__ void k(float **ptrs) {
  float *p = ptrs[threadIdx.x];
  if (p) { p[0] = 1; }
}",
    );
    assert!(
        !k.params.iter().any(|p| p.ends_with(".set")),
        "{:?}",
        k.params
    );
}

#[test]
fn a_structure_copied_from_memory_or_set_from_a_brace_list_has_its_fields() {
    // Copied whole from a cell the block shares: each field is one value
    // for the block, not each thread's own unknown.
    let k = kernel(
        "__global__ void k(const uint2 *__restrict__ r, int *out) {
  uint2 range = r[blockIdx.x];
  out[range.y * 64 + threadIdx.x] = range.x;
}",
    );
    assert!(
        k.locals.iter().any(|l| l.starts_with("range.field")),
        "{:?}",
        k.locals
    );
    assert!(!show(&k).contains("wr[(range.y"), "{}", show(&k));
    let k = kernel(
        "__global__ void k(int *out) {
  uint2 pix = { blockIdx.x * 16 + threadIdx.x, blockIdx.y * 16 + threadIdx.y };
  int2 pad = { 5 };
  out[pix.y * 1024 + pix.x + pad.y] = pad.x;
}",
    );
    assert_eq!(
        show(&k),
        "out: wr[((((bid.y * 16) + tid.y) * 1024) + ((bid.x * 16) + tid.x))]; \n"
    );
}

#[test]
fn a_cub_block_collective_fixes_the_block_shape() {
    let k = kernel(
        "#include <cub/cub.cuh>
__global__ void k(float *y) {
  typedef cub::BlockReduce<float, 256> R;
  __shared__ typename R::TempStorage temp;
  float s = R(temp).Sum(y[threadIdx.x]);
  if (threadIdx.x == 0) y[blockIdx.x] = s;
}",
    );
    for (d, n) in [("blockDim.x", 256), ("blockDim.y", 1), ("blockDim.z", 1)] {
        let c = Cond::cmp(Rel::Eq, Expr::var(d), Expr::Int(n));
        assert!(k.assumes.contains(&c), "{:?}", k.assumes);
    }
}

#[test]
fn the_axes_a_kernel_never_names_are_listed() {
    let k = kernel(
        "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *out, int W) {
  auto b = cg::this_thread_block();
  out[(blockIdx.y * 16 + b.thread_index().y) * W + blockIdx.x * 16 + threadIdx.x] = 1;
}",
    );
    assert_eq!(k.unnamed_axes, vec!["blockDim.z".to_string()]);
    let k = kernel("__global__ void k(float *out) { out[threadIdx.x] = 1; }");
    assert_eq!(
        k.unnamed_axes,
        vec!["blockDim.y".to_string(), "blockDim.z".to_string()]
    );
}

#[test]
fn a_known_read_only_table_reads_as_its_cells() {
    let k = kernel(
        "__constant__ int kStep[3] = {0, 64, 128};
const int kSign[2] = {1, -1};
__global__ void k(float *out) {
  for (int d = 0; d < 3; ++d)
    out[kStep[d] + threadIdx.x] = kSign[1];
}",
    );
    assert_eq!(
        show(&k),
        "out: wr[tid.x]; wr[(64 + tid.x)]; wr[(128 + tid.x)]; \n"
    );
    // An array of pointers to `const` is no `const` array: its cells are
    // written.
    let k = kernel(
        "__device__ const float *rows[4];
__global__ void k(const float *a) { rows[threadIdx.x % 4] = a; }",
    );
    assert!(show(&k).starts_with("rows: wr["), "{}", show(&k));
    // A table the host may copy to stays unknown.
    let k = kernel(
        "__constant__ int kStep[3] = {0, 64, 128};
__global__ void k(float *out, int d) { out[kStep[d] + threadIdx.x] = 1; }
void set(const int *h) { cudaMemcpyToSymbol(kStep, h, sizeof(int) * 3); }",
    );
    assert_eq!(show(&k), "out: wr[(uniform + tid.x)]; \n");
}

#[test]
fn an_assignment_through_a_returned_reference_writes_the_cell() {
    let shown = shape(
        "__device__ float &slot(float *p, int b) { return p[b]; }
struct Row { float *p; __device__ float &operator[](int i) { return p[i]; } };
__global__ void k(float *a, float *o) {
  slot(a, threadIdx.x + 1) = 1.0f;
  Row r{o + 2};
  r[threadIdx.x] += 2.0f;
}",
    );
    assert!(shown.contains("wr[(tid.x + 1)]"), "{shown}");
    assert!(!shown.contains("rd[(tid.x + 1)]"), "{shown}");
    // A compound assignment reads the cell, then writes it.
    assert!(shown.contains("rd[(2 + tid.x)]"), "{shown}");
    assert!(shown.contains("wr[(2 + tid.x)]"), "{shown}");
    // A place the function's `return` does not name is no silent no-op.
    let why = reason(
        "__device__ float &pick(float *p, int b);
__global__ void k(float *a) { pick(a, threadIdx.x) = 1.0f; }",
    );
    assert!(why.contains("reference a call returns"), "{why}");
}

#[test]
fn temporaries_keep_the_fields_their_constructors_give() {
    // Made by a base class's constructor, returned by value, and used at
    // once (`m[y][x]`, `make(p)[i]`), or made with a braced list.
    let shown = shape(
        "template <typename T> struct Base {
  __device__ Base(T *d, int s) : d_(d), s_(s) {}
protected:
  T *d_; int s_;
};
template <typename T> struct Row : public Base<T> {
  __device__ Row(T *d, int s) : Base<T>(d, s) {}
  __device__ T &operator[](int x) { return this->d_[x * this->s_]; }
};
template <typename T> struct Mat {
  T *d_; int cols_;
  __device__ Row<T> operator[](int y) { return Row<T>(d_ + y * cols_, 1); }
};
__device__ Row<float> make(float *p) { return Row<float>(p, 2); }
__global__ void k(float *a, float *b, float *c, int n) {
  Mat<float> m{a, n};
  m[blockIdx.x][threadIdx.x] = 1.0f;
  make(b)[threadIdx.x] = 2.0f;
  Row<float>{c, 3}[threadIdx.x] = 3.0f;
}",
    );
    assert!(shown.contains("wr[((bid.x * n) + tid.x)]"), "{shown}");
    assert!(shown.contains("wr[(tid.x * 2)]"), "{shown}");
    assert!(shown.contains("wr[(tid.x * 3)]"), "{shown}");
}

#[test]
fn a_constant_pointer_the_host_sets_is_a_buffer_of_its_own() {
    let shown = shape(
        "__constant__ float *d_buf;
__global__ void k(int n) { if (threadIdx.x < n) d_buf[threadIdx.x] = 1.0f; }",
    );
    assert!(shown.contains("d_buf[]: "), "{shown}");
    assert!(shown.contains("wr[0][tid.x]"), "{shown}");
    // One it initialises may name an array the kernel reaches directly.
    let why = reason(
        "__device__ float pool[64];
__constant__ float *d_buf = pool;
__global__ void k() { d_buf[threadIdx.x] = 1.0f; }",
    );
    assert!(why.contains("unknown origin"), "{why}");
}

#[test]
fn an_increment_that_never_wraps_hands_out_tickets() {
    let k = kernel(
        "__global__ void k(int *q, unsigned *tail) { unsigned s = atomicInc(tail, 0xffffffff); q[s] = 0; }",
    );
    assert_eq!(k.tickets.len(), 1);
    assert!(k.tickets[0].grid);
    // One that wraps early gives a slot two threads may share.
    let k = kernel(
        "__global__ void k(int *q, unsigned *tail) { unsigned s = atomicInc(tail, 3u); q[s] = 0; }",
    );
    assert!(k.tickets.is_empty());
}

#[test]
fn an_assignment_to_a_choice_writes_the_place_chosen() {
    let shown = shape(
        "__global__ void k(float *a, float *b, int c) {
  (threadIdx.x < c ? a[threadIdx.x] : b[0]) = 1.0f;
  (c, a[threadIdx.x + 1]) = 2.0f;
}",
    );
    assert!(
        shown.contains("a: if (tid.x < c) { wr[tid.x]; }"),
        "{shown}"
    );
    assert!(
        shown.contains("b: if (tid.x < c) { } else { wr[0]; }"),
        "{shown}"
    );
    assert!(shown.contains("wr[0]"), "{shown}");
    assert!(shown.contains("wr[(tid.x + 1)]"), "{shown}");
    // A choice of locals makes both unknown; the kernel is still analysed.
    let shown = shape(
        "__global__ void k(float *a, int c) { int u = 1, w = 2; (c ? u : w) = 3; a[u + w] = 0; }",
    );
    assert!(!shown.contains("wr[3]"), "{shown}");
}

#[test]
fn a_private_array_every_thread_fills_alike_reads_as_the_blocks() {
    let alike = |body: &str| {
        let src = format!(
            "__global__ void k(const int *c, int *o, int n) {{ int e[4]; {body} o[threadIdx.x] = e[1]; }}"
        );
        let k = kernel(&src);
        let mut uniform = k.block_uniform.clone();
        uniform.extend(k.control_uniform.iter().cloned());
        uniform.iter().any(|l| l.starts_with("e.elem"))
    };
    // Copied from memory no thread writes, at the block's addresses, in a
    // loop every thread runs alike.
    assert!(alike(
        "for (int i = 0; i < 4; i++) e[i] = c[blockIdx.x * 4 + i];"
    ));
    assert!(alike(
        "for (int i = 0; i < n; i++) e[i & 3] = c[blockIdx.x + i];"
    ));
    assert!(alike("for (int i = 0; i < 4; i++) e[i] = 7 * i;"));
    // The thread's own values, stores only some threads make, a loop that
    // runs differently per thread or that a thread may leave early, an
    // initializer of the thread's own, or a source the kernel writes.
    for body in [
        "for (int i = 0; i < 4; i++) e[i] = c[threadIdx.x + i];",
        "for (int i = 0; i < 4; i++) e[i] = 0; if (threadIdx.x == 0) e[1] = 5;",
        "for (int i = 0; i < 4; i++) e[i] = 0; for (int i = 0; i < threadIdx.x; i++) e[1] = i;",
        "e[1] = 0; for (int i = 0; i < n; i++) { e[i & 3] = c[blockIdx.x]; if (i == threadIdx.x) break; }",
        "int f[2] = {(int)threadIdx.x, 0}; e[1] = f[0];",
        "for (int i = 0; i < 4; i++) e[i] = c[blockIdx.x * 4 + i]; o[blockIdx.x] = 1; ((int *)c)[0] = 2;",
    ] {
        assert!(!alike(body), "{body}");
    }
}

#[test]
fn what_host_code_asserts_or_exits_on_before_a_launch_holds_in_it() {
    let u = unit(
        "#include <assert.h>\n\
         #include <stdlib.h>\n\
         __global__ void k(float *x, int c, int n) { x[blockIdx.x * c + threadIdx.x] = 0; }\n\
         void asserted(float *x, int c, int n) { assert(c % 8 == 0 && n >= c); k<<<n, 64>>>(x, c, n); }\n\
         void exits(float *x, int c, int n) { if (c < 64 || n % 4) { exit(1); } k<<<n, 64>>>(x, c, n); }\n\
         void returns(float *x, int c, int n) { if (!(c >= 64)) return; k<<<n, 64>>>(x, c, n); }\n\
         void later(float *x, int c, int n) { k<<<n, 64>>>(x, c, n); assert(c == 1); }\n\
         void branch(float *x, int c, int n) { if (c > 1) { k<<<n, 64>>>(x, c, n); } else { exit(1); } }\n\
         void changed(float *x, int c, int n) { assert(c >= 64); c = c / 2; k<<<n, 64>>>(x, c, n); }",
    );
    let sites: Vec<String> = u.kernels[0].launches.iter().map(|s| s.describe()).collect();
    let sites = sites.join("\n");
    assert!(sites.contains("(c % 8 == 0, n >= c)"), "{sites}");
    assert!(sites.contains("(c >= 64, n % 4 == 0)"), "{sites}");
    assert!(sites.contains("(c >= 64)"), "{sites}");
    // After the launch, in a branch beside it, or before the value
    // changes: nothing.
    assert!(
        !sites.contains("c == 1") && !sites.contains("c <= 1"),
        "{sites}"
    );
    assert_eq!(
        sites.matches("c >= 64").count(),
        2,
        "the assertion before `c = c / 2` says nothing of the launch: {sites}"
    );
    // The analysis assumes each with its launch.
    let k = u.kernels[0].lowered.clone().unwrap();
    let assumed: Vec<String> = k.assumes.iter().map(|c| c.to_string()).collect();
    let assumed = assumed.join("\n");
    assert!(
        assumed.contains("c % 8 : 0 - (0 - c) % 8) == 0 && n >= c"),
        "{assumed}"
    );
}

#[test]
fn a_block_that_returns_inside_a_loop_meets_a_barrier_on_its_way_out() {
    // Thread 0 resets the count at the top of each round: without a
    // barrier where the block returns, the read of the count would share
    // an interval with the next round's reset, and not be the block's.
    let src = "__global__ void k(const int *work, unsigned *done, int n) {\n\
        __shared__ unsigned count;\n\
        while (1) {\n\
          if (threadIdx.x == 0) count = 0;\n\
          __syncthreads();\n\
          if (work[threadIdx.x] > n) atomicAdd(&count, 1u);\n\
          __syncthreads();\n\
          if (count == 0) return;\n\
          __syncthreads();\n\
        }\n\
      }";
    let k = kernel(src);
    let count = show(&k);
    let count = count.lines().find(|l| l.starts_with("count:")).unwrap();
    assert_eq!(count.matches("sync").count(), 4, "{count}");
    let uniform = crate::analysis::uniform_reads(&k);
    assert_eq!(uniform.values.len(), 1, "{uniform:?}");
    // With nothing synchronized after the return, a returning block has no
    // barrier to meet.
    let k = kernel(&src.replace(
        "if (count == 0) return;\n__syncthreads();",
        "if (count == 0) return;",
    ));
    let count = show(&k);
    let count = count.lines().find(|l| l.starts_with("count:")).unwrap();
    assert_eq!(count.matches("sync").count(), 2, "{count}");
}

#[test]
fn a_block_that_breaks_out_of_an_uncounted_loop_meets_a_barrier_but_at_the_last_trip() {
    // Thread 0 publishes the next tile at the top of each trip; the block
    // leaves once the tiles run out. The trip it breaks at is the loop's
    // last, so a thread that breaks earlier meets a barrier instead of the
    // next trip's publication, and the read of the tile is the block's.
    let src = "__global__ void k(float *out, unsigned *next, unsigned tiles) {\n\
        __shared__ unsigned tile;\n\
        while (1) {\n\
          if (threadIdx.x == 0) tile = atomicAdd(next, 1u);\n\
          __syncthreads();\n\
          if (tile >= tiles) break;\n\
          out[threadIdx.x] += 1.0f;\n\
          __syncthreads();\n\
        }\n\
      }";
    let k = kernel(src);
    let shown = show(&k);
    let tile = shown.lines().find(|l| l.starts_with("tile:")).unwrap();
    // The loop's two barriers and the one on the way out, under the test
    // that the trip is not the last.
    assert_eq!(tile.matches("sync").count(), 3, "{tile}");
    assert!(tile.contains("iterations - 1"), "{tile}");
    let uniform = crate::analysis::uniform_reads(&k);
    assert_eq!(uniform.values.len(), 1, "{uniform:?}");
    // A counted loop's last trip is not the one a block breaks at: it is
    // lowered again as a loop of unknown trip count whose test holds at
    // each trip, and meets the same barrier.
    let k = kernel(
        &src.replace("while (1) {", "for (int r = 0; r < n; r++) {")
            .replace("unsigned tiles)", "unsigned tiles, int n)"),
    );
    let shown = show(&k);
    let tile = shown.lines().find(|l| l.starts_with("tile:")).unwrap();
    assert_eq!(tile.matches("sync").count(), 3, "{tile}");
    assert!(
        tile.contains("iterations - 1") && tile.contains("< n"),
        "{tile}"
    );
    assert_eq!(crate::analysis::uniform_reads(&k).values.len(), 1);
    // A loop unrolled into copies is exact about breaks already.
    let k = kernel(&src.replace("while (1) {", "for (int r = 0; r < 4; r++) {"));
    let shown = show(&k);
    let tile = shown.lines().find(|l| l.starts_with("tile:")).unwrap();
    assert!(!tile.contains("iterations"), "{tile}");
    // Nor a `break` out of a `switch` inside the loop.
    let k = kernel(&src.replace(
        "if (tile >= tiles) break;",
        "switch (tile) { case 0: break; default: out[0] = 0; }",
    ));
    let shown = show(&k);
    let tile = shown.lines().find(|l| l.starts_with("tile:")).unwrap();
    assert_eq!(tile.matches("sync").count(), 2, "{tile}");
}

#[test]
fn a_ticket_published_in_a_loop_is_read_as_the_block_s() {
    // Thread 0 takes a tile at the top of each trip and publishes its
    // column; the block reads it after a barrier in the same trip.
    let src = "__device__ unsigned next;\n\
      __global__ void k(float *out, int w, unsigned tiles) {\n\
        __shared__ unsigned tile, col;\n\
        while (1) {\n\
          if (threadIdx.x == 0) { tile = atomicAdd(&next, 1u); col = tile % w; }\n\
          __syncthreads();\n\
          if (tile >= tiles) break;\n\
          out[col * blockDim.x + threadIdx.x] = 1.0f;\n\
          __syncthreads();\n\
        }\n\
      }";
    let k = kernel(src);
    assert_eq!(k.ticket_reads.len(), 2, "{:?}", k.ticket_reads);
    // Both reads stand for one ticket: the column is that ticket's.
    assert_eq!(k.ticket_reads[0].ticket, k.ticket_reads[1].ticket);
    let values: Vec<String> = k.ticket_reads.iter().map(|r| r.value.to_string()).collect();
    let t = &k.ticket_reads[0].ticket;
    assert!(values.contains(&t.to_string()), "{values:?}");
    assert!(values.iter().any(|v| v.contains('%')), "{values:?}");
    // Another thread writing the column, a counter per block, or a
    // value that is no ticket: nothing read is the block's ticket.
    for changed in [
        src.replace(
            "__syncthreads();\nif (tile",
            "if (threadIdx.x == 1) col = 0;\n__syncthreads();\nif (tile",
        ),
        src.replace(
            "__shared__ unsigned tile, col;",
            "__shared__ unsigned tile, col, next;",
        )
        .replace("__device__ unsigned next;", ""),
        src.replace("atomicAdd(&next, 1u)", "next"),
    ] {
        assert_ne!(changed, src);
        let k = kernel(&changed);
        let col = k
            .ticket_reads
            .iter()
            .filter(|r| r.value.to_string().contains('%'));
        assert_eq!(col.count(), 0, "{changed}\n{:?}", k.ticket_reads);
    }
}

#[test]
fn values_of_unsigned_types_are_never_negative() {
    // A tile published in an `unsigned` shared variable and read in a loop
    // (a local of its own per read), and an `unsigned` local from memory a
    // thread reads for itself: neither is ever negative. A signed one may be.
    let src = "__global__ void k(float *out, const unsigned *starts, const int *shift, int n) {\n\
        __shared__ unsigned tile;\n\
        for (int r = 0; r < n; r++) {\n\
          if (threadIdx.x == 0) tile = starts[r];\n\
          __syncthreads();\n\
          unsigned start = starts[threadIdx.x];\n\
          int s = shift[threadIdx.x];\n\
          out[16 * (tile % 4) + start + s] = 0.0f;\n\
          __syncthreads();\n\
        }\n\
      }";
    let k = kernel(src);
    let natural: Vec<String> = k
        .assumes
        .iter()
        .filter_map(|c| match c {
            Cond::Cmp(Rel::Ge, Expr::Var(v), Expr::Int(0)) => Some(v.clone()),
            _ => None,
        })
        .collect();
    assert!(
        natural.iter().any(|v| v.starts_with("stored")),
        "{natural:?}"
    );
    assert!(
        natural.iter().any(|v| v.starts_with("start")),
        "{natural:?}"
    );
    assert!(
        !natural.iter().any(|v| v.starts_with("s#") || v == "s"),
        "{natural:?}"
    );
    assert!(natural.iter().all(|v| k.locals.contains(v)), "{natural:?}");
}

#[test]
fn a_counter_leaves_its_loop_at_its_bound_or_its_start() {
    // `i` after the loop is `max(0, n)` and `j` is `min(n, 2)`; after a
    // loop that may break out, the counter is any number.
    let src = "__global__ void k(int *a, const int *b, int n) {\n\
        int i;\n\
        for (i = 0; i < n; i++) a[threadIdx.x * 64 + i] = 0;\n\
        a[threadIdx.x * 64 + i] = 1;\n\
        int j;\n\
        for (j = n; j > 2; j--) a[j] = 0;\n\
        a[j] = 1;\n\
        for (i = 0; i < n; i++) { if (b[i] == 0) break; }\n\
        a[i] = 2;\n\
      }";
    let k = kernel(src);
    let shown = show(&k);
    let a = shown.lines().find(|l| l.starts_with("a:")).unwrap();
    assert!(a.contains("(0 max n)") || a.contains("(n max 0)"), "{a}");
    assert!(a.contains("(n min 2)") || a.contains("(2 min n)"), "{a}");
    assert_eq!(
        a.matches(" max ").count() + a.matches(" min ").count(),
        2,
        "{a}"
    );
}

#[test]
fn host_only_functions_device_code_calls_are_taken_as_host_device() {
    let src = "
inline float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
struct Pair { float2 v; Pair(float2 x) : v(x) {} float2 get() const { return v; } };
float twice(float x) { return x + x; }
__global__ void k(float2 *p) {
  Pair q(p[threadIdx.x] + p[threadIdx.x + 64]);
  p[threadIdx.x] = q.get();
  p[threadIdx.x].x = twice(p[threadIdx.x].x);
}
int main() { float2 *p; k<<<4, 64>>>(p); return 0; }
";
    let u = unit(src);
    assert_eq!(u.kernels.len(), 1);
    let k = &u.kernels[0];
    assert!(k.errors.is_empty(), "{:?}", k.errors);
    assert!(k.lowered.is_ok(), "{:?}", k.lowered);
    // `main` stays host code: its launch is read.
    assert_eq!(k.launches.len(), 1, "{:?}", k.launches);
    assert_eq!(k.launches[0].block[0], Some(64));
    assert!(
        u.notes.iter().any(|n| n.contains("`__host__ __device__`")),
        "{:?}",
        u.notes
    );
    // Lines keep their numbers.
    assert_eq!(k.loc.line, 5);
}

#[test]
fn a_resolved_conversion_to_a_pointer_is_inlined_as_a_member_function() {
    // Outside templates, `SharedMemory<float>()` used as a `float *` is a
    // call of the resolved `operator float *`: its body gives the array.
    let k = kernel(
        "template <typename T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int words_[]; return (T *)words_; }
};
__device__ void load(const float *p) {
  float *s = SharedMemory<float>();
  s[threadIdx.x] = p[threadIdx.x];
}
__global__ void k(const float *p) { load(p); }",
    );
    assert_eq!(k.array("words_").map(|a| a.scope), Some(Scope::Shared));
}

#[test]
fn a_signed_offset_below_zero_is_divided_as_c_truncates() {
    // `-1 / 2` is 0 in C: the quotient of a halo offset is the negated
    // quotient of its negation below zero, not the protocol's floor.
    let k = kernel(
        "__global__ void k(int *out) {
  out[(2 * (int)threadIdx.x - 1) / 2] = 1;
  out[64 + ((int)threadIdx.x - 3) % 4] = 2;
  out[128 + (int)threadIdx.x / 2] = 3;
}",
    );
    let shown = show(&k);
    assert!(
        shown.contains("(((2 * tid.x) - 1) >= 0 ? (((2 * tid.x) - 1) / 2) : (0 - ((0 - ((2 * tid.x) - 1)) / 2)))"),
        "{shown}"
    );
    assert!(
        shown.contains("((tid.x - 3) >= 0 ? ((tid.x - 3) % 4) : (0 - ((0 - (tid.x - 3)) % 4)))"),
        "{shown}"
    );
    // A dividend that is never negative keeps the plain quotient.
    assert!(shown.contains("wr[(128 + (tid.x / 2))]"), "{shown}");
}
