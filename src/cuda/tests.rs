//! Front-end tests on small inline kernels: parse, lower, and look at the
//! protocol's shape.

use super::*;
use crate::protocol::{Cond, Expr, Mode, Op, Rel, Stmt};
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
    u.kernels[0].lowered.clone().unwrap_or_else(|e| panic!("unsupported: {e:?}"))
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
            Stmt::Seq(items) => items.iter().for_each(|i| s(i, out)),
            Stmt::If { cond, then, els, .. } => {
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
            Stmt::For { var, lo, hi, body, .. } => {
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

#[test]
fn dump_first_iter() {
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
    assert_eq!(show(&k), "a: wr[(tid.x + 1)]; for x in 0..n { if (x > 0) { wr[tid.x]; } sync; } \n");
    assert_eq!(k.params, vec!["n".to_string()]);
}

#[test]
#[ignore]
fn dump_ast() {
    let src = std::env::var("DUMP_SRC").unwrap_or_default();
    let mut args: Vec<String> = ["-x", "cuda", "--cuda-device-only", "-nocudalib", "-nocudainc", "-std=c++17", "-w"].iter().map(|s| s.to_string()).collect();
    args.push(format!("-I{}", prelude::DIR));
    args.push("-include".into());
    args.push(prelude::forced());
    let mut unsaved = vec![("/tmp/d.cu".to_string(), src.into_bytes())];
    unsaved.extend(prelude::files());
    let tu = clang::Tu::parse("/tmp/d.cu", &args, &unsaved).unwrap();
    fn walk(n: &clang::Node, d: usize) {
        for c in n.children() {
            if c.pos().file != "/tmp/d.cu" { continue; }
            println!("{}{} {:?} ty={} bin={} un={} ref={:?} toks={:?}", "  ".repeat(d), c.kind(), c.spelling(), c.ty().spelling(), c.binop(), c.unop(), c.referenced().map(|r| (r.kind(), r.spelling())), c.tokens().iter().map(|t| t.0.clone()).collect::<Vec<_>>());
            walk(&c, d + 1);
        }
    }
    walk(&tu.root(), 0);
}
