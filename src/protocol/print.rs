//! Printing protocols in the text format of [`super::parse`]: the output
//! parses back to the same kernel, up to locations and the block normal form
//! of [`super::parse::flatten`].

use super::{Access, ArrayProtocol, Cond, Expr, Kernel, Loc, Op, Rel, Scope, Stmt};
use std::fmt::{self, Write};

/// The whole kernel: declarations, assumptions, then one block per array.
pub fn print(k: &Kernel) -> String {
    let mut out = String::new();
    for note in &k.approximations {
        let _ = writeln!(out, "# approximation: {note}");
    }
    if !k.params.is_empty() {
        let _ = writeln!(out, "params {};", k.params.join(" "));
    }
    if !k.locals.is_empty() {
        let _ = writeln!(out, "locals {};", k.locals.join(" "));
    }
    for c in &k.assumes {
        let _ = writeln!(out, "assume {c};");
    }
    for (i, a) in k.arrays.iter().enumerate() {
        if i > 0 || !out.is_empty() {
            out.push('\n');
        }
        if a.scope == Scope::Global {
            out.push_str("global ");
        }
        let _ = write!(out, "array {} ", a.name);
        block(&mut out, &a.body, 0);
        out.push('\n');
    }
    out
}

/// One statement, `indent` levels (two spaces each) deep, one line per
/// simple statement.
pub fn print_stmt(s: &Stmt, indent: usize) -> String {
    let mut out = String::new();
    stmt(&mut out, s, indent);
    out
}

/// The kernel with every location set to [`Loc::NONE`], for comparing
/// protocols that came from different texts.
pub fn strip_locs(k: &Kernel) -> Kernel {
    Kernel {
        arrays: k
            .arrays
            .iter()
            .map(|a| ArrayProtocol {
                body: strip_stmt(&a.body),
                loc: Loc::NONE,
                ..a.clone()
            })
            .collect(),
        ..k.clone()
    }
}

fn strip_stmt(s: &Stmt) -> Stmt {
    match s {
        Stmt::Skip => Stmt::Skip,
        Stmt::Access(a) => Stmt::Access(Access {
            loc: Loc::NONE,
            ..a.clone()
        }),
        Stmt::Sync(_) => Stmt::Sync(Loc::NONE),
        Stmt::GridSync(_) => Stmt::GridSync(Loc::NONE),
        Stmt::WarpSync(_) => Stmt::WarpSync(Loc::NONE),
        Stmt::Seq(items) => Stmt::Seq(items.iter().map(strip_stmt).collect()),
        Stmt::If {
            cond, then, els, ..
        } => Stmt::If {
            cond: cond.clone(),
            then: Box::new(strip_stmt(then)),
            els: Box::new(strip_stmt(els)),
            loc: Loc::NONE,
        },
        Stmt::For {
            var, lo, hi, body, ..
        } => Stmt::For {
            var: var.clone(),
            lo: lo.clone(),
            hi: hi.clone(),
            body: Box::new(strip_stmt(body)),
            loc: Loc::NONE,
        },
    }
}

fn pad(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// A statement that fits on one line inside `{ … }`.
fn simple(s: &Stmt) -> Option<String> {
    match s {
        Stmt::Skip => Some("skip".into()),
        Stmt::Sync(_) => Some("sync".into()),
        Stmt::GridSync(_) => Some("grid_sync".into()),
        Stmt::WarpSync(_) => Some("warp_sync".into()),
        Stmt::Access(a) => {
            let mut line = match a.mode {
                super::Mode::Read => "rd",
                super::Mode::Write => "wr",
                super::Mode::Atomic => "atomic",
            }
            .to_string();
            for e in &a.index {
                let _ = write!(line, "[{e}]");
            }
            if let Some(v) = &a.value {
                let _ = write!(line, " = {v}");
            }
            if let Some(l) = &a.lock {
                let _ = write!(line, " lock {}", l.array);
                for e in &l.index {
                    let _ = write!(line, "[{e}]");
                }
            }
            Some(line)
        }
        _ => None,
    }
}

fn stmt(out: &mut String, s: &Stmt, indent: usize) {
    if let Some(line) = simple(s) {
        pad(out, indent);
        out.push_str(&line);
        out.push_str(";\n");
        return;
    }
    match s {
        Stmt::Seq(items) => items.iter().for_each(|s| stmt(out, s, indent)),
        Stmt::For {
            var, lo, hi, body, ..
        } => {
            pad(out, indent);
            let _ = write!(out, "for {var} in {}..{} ", Bound(lo), Bound(hi));
            block(out, body, indent);
            out.push('\n');
        }
        Stmt::If { .. } => {
            pad(out, indent);
            if_chain(out, s, indent);
            out.push('\n');
        }
        Stmt::Skip | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) | Stmt::Access(_) => {}
    }
}

/// `if (c) {…} else if (d) {…} else {…}`, without the final newline.
fn if_chain(out: &mut String, s: &Stmt, indent: usize) {
    let Stmt::If {
        cond, then, els, ..
    } = s
    else {
        return;
    };
    let _ = write!(out, "if ({cond}) ");
    block(out, then, indent);
    match els.as_ref() {
        Stmt::Skip => {}
        Stmt::If { .. } => {
            out.push_str(" else ");
            if_chain(out, els, indent);
        }
        els => {
            out.push_str(" else ");
            block(out, els, indent);
        }
    }
}

/// `{ … }` for a body at `indent`, without the final newline.
fn block(out: &mut String, body: &Stmt, indent: usize) {
    match body {
        Stmt::Skip => out.push_str("{}"),
        Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) | Stmt::Access(_) => {
            let _ = write!(out, "{{ {} }}", simple(body).unwrap_or_default());
        }
        _ => {
            out.push_str("{\n");
            stmt(out, body, indent + 1);
            pad(out, indent);
            out.push('}');
        }
    }
}

/// A loop bound: a conditional expression gets parentheses so the `..`
/// stands out.
struct Bound<'a>(&'a Expr);

impl fmt::Display for Bound<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expr(f, self.0, PREC_BINARY)
    }
}

const PREC_ITE: u8 = 1;
/// Loosest binary operator (`|`): comparison operands need at least this.
const PREC_BINARY: u8 = 2;
const PREC_ATOM: u8 = 9;

fn op_prec(op: Op) -> u8 {
    match op {
        Op::BitOr => 2,
        Op::BitXor => 3,
        Op::BitAnd => 4,
        Op::Shl | Op::Shr => 5,
        Op::Add | Op::Sub => 6,
        Op::Mul | Op::Div | Op::Mod => 7,
        Op::Min | Op::Max => PREC_ATOM,
    }
}

pub(crate) fn op_str(op: Op) -> &'static str {
    match op {
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
    }
}

fn expr_prec(e: &Expr) -> u8 {
    match e {
        Expr::Int(_) | Expr::Var(_) => PREC_ATOM,
        Expr::Bin(op, _, _) => op_prec(*op),
        Expr::Ite(..) => PREC_ITE,
    }
}

/// Prints `e` in a context that needs precedence at least `min`.
fn expr(f: &mut fmt::Formatter<'_>, e: &Expr, min: u8) -> fmt::Result {
    let paren = expr_prec(e) < min;
    if paren {
        f.write_str("(")?;
    }
    match e {
        Expr::Int(n) => write!(f, "{n}")?,
        Expr::Var(v) => f.write_str(v)?,
        Expr::Bin(op @ (Op::Min | Op::Max), a, b) => {
            write!(f, "{}(", op_str(*op))?;
            expr(f, a, 0)?;
            f.write_str(", ")?;
            expr(f, b, 0)?;
            f.write_str(")")?;
        }
        Expr::Bin(op, a, b) => {
            // Left-associative: the right operand needs strictly tighter.
            let p = op_prec(*op);
            expr(f, a, p)?;
            write!(f, " {} ", op_str(*op))?;
            expr(f, b, p + 1)?;
        }
        Expr::Ite(c, a, b) => {
            cond(f, c, 0)?;
            f.write_str(" ? ")?;
            expr(f, a, PREC_BINARY)?;
            f.write_str(" : ")?;
            expr(f, b, 0)?;
        }
    }
    if paren {
        f.write_str(")")?;
    }
    Ok(())
}

pub(crate) fn rel_str(r: Rel) -> &'static str {
    match r {
        Rel::Eq => "==",
        Rel::Ne => "!=",
        Rel::Lt => "<",
        Rel::Le => "<=",
        Rel::Gt => ">",
        Rel::Ge => ">=",
    }
}

fn cond_prec(c: &Cond) -> u8 {
    match c {
        Cond::Or(..) => 1,
        Cond::And(..) => 2,
        Cond::Not(_) => 3,
        Cond::Cmp(..) => 4,
        Cond::Bool(_) | Cond::Forall { .. } => 5,
    }
}

fn cond(f: &mut fmt::Formatter<'_>, c: &Cond, min: u8) -> fmt::Result {
    let paren = cond_prec(c) < min;
    if paren {
        f.write_str("(")?;
    }
    match c {
        Cond::Bool(b) => write!(f, "{b}")?,
        Cond::Cmp(r, a, b) => {
            expr(f, a, PREC_BINARY)?;
            write!(f, " {} ", rel_str(*r))?;
            expr(f, b, PREC_BINARY)?;
        }
        Cond::And(a, b) => {
            cond(f, a, 2)?;
            f.write_str(" && ")?;
            cond(f, b, 3)?;
        }
        Cond::Or(a, b) => {
            cond(f, a, 1)?;
            f.write_str(" || ")?;
            cond(f, b, 2)?;
        }
        Cond::Not(a) => {
            f.write_str("!")?;
            // `!(x < y)`, not `!x < y`, which reads as C's `(!x) < y`.
            let min = if matches!(**a, Cond::Not(_)) { 3 } else { 5 };
            cond(f, a, min)?;
        }
        Cond::Forall { var, lo, hi, body } => {
            write!(f, "(forall {var} in ")?;
            expr(f, lo, 0)?;
            f.write_str("..")?;
            expr(f, hi, 0)?;
            f.write_str(": ")?;
            cond(f, body, 0)?;
            f.write_str(")")?;
        }
    }
    if paren {
        f.write_str(")")?;
    }
    Ok(())
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expr(f, self, 0)
    }
}

impl fmt::Display for super::Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            super::Value::Expr(e) => expr(f, e, 0),
            super::Value::Read { array, index } => {
                f.write_str(array)?;
                index.iter().try_for_each(|i| write!(f, "[{i}]"))
            }
            super::Value::Fields(fields) => {
                let fields: Vec<String> = fields.iter().map(|e| e.to_string()).collect();
                write!(f, "{{{}}}", fields.join(", "))
            }
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        cond(f, self, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse;

    fn assume(src: &str) -> Cond {
        parse(&format!("params a b c; {src}"))
            .unwrap()
            .assumes
            .remove(0)
    }

    #[test]
    fn minimal_parentheses() {
        for text in [
            "a + b * c == (a + b) * c",
            "a - (b - c) != a - b - c",
            "a | b & c < (a | b) & c",
            "(a < b ? a : b) >= min(a, -3)",
            "!(a == 0) || a > b && b > c",
            "(a > 0 || b > 0) && !!(c < 1)",
            "a < (b > 0 ? (c > 0 ? 1 : 2) : c > 1 ? 3 : 4)",
            "0 - a == -9223372036854775808",
            "tid.x + bid.y * blockDim.z <= gridDim.x << 2",
        ] {
            let c = assume(&format!("assume {text}"));
            assert_eq!(c.to_string(), text);
        }
        assert_eq!(assume("assume ((a)) == (((b)))").to_string(), "a == b");
        assert_eq!(assume("assume -a == tid").to_string(), "0 - a == tid.x");
    }

    #[test]
    fn statements_print_one_per_line() {
        let k = parse(
            "params N; global array A { for i in 0..N { if (tid == i) { wr[i] } else if (i > 1) { rd[i][0] } else \
             { atomic[0]; sync } } skip }",
        )
        .unwrap();
        let expected = "\
params N;

global array A {
  for i in 0..N {
    if (tid.x == i) { wr[i] } else if (i > 1) { rd[i][0] } else {
      atomic[0];
      sync;
    }
  }
}
";
        assert_eq!(print(&k), expected);
        assert_eq!(
            print_stmt(&k.arrays[0].body, 2),
            expected
                .lines()
                .skip(3)
                .take(6)
                .map(|l| format!("  {l}\n"))
                .collect::<String>()
        );
    }

    #[test]
    fn strip_locs_clears_every_location() {
        let k =
            strip_locs(&parse("array A { sync; for i in 0..1 { if (true) { wr[i] } } }").unwrap());
        assert_eq!(k.arrays[0].loc, Loc::NONE);
        let Stmt::Seq(items) = &k.arrays[0].body else {
            panic!()
        };
        assert_eq!(items[0], Stmt::Sync(Loc::NONE));
        let Stmt::For { loc, body, .. } = &items[1] else {
            panic!()
        };
        let Stmt::If {
            loc: if_loc, then, ..
        } = body.as_ref()
        else {
            panic!()
        };
        let Stmt::Access(a) = then.as_ref() else {
            panic!()
        };
        assert_eq!([*loc, *if_loc, a.loc], [Loc::NONE; 3]);
    }
}
