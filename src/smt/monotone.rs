//! Products by a launch size, made linear for the solver: the facts of
//! multiplication by a positive number that comparisons of thread indices
//! need (`b * B + t >= q * B` with `0 <= t < B` holds exactly when `b >= q`).
//!
//! Z3 takes seconds, or gives up, on such questions when the block size is
//! symbolic, though each needs only one case split: whether one cofactor of
//! `B` exceeds another. Stating that split as a lemma for each pair of
//! cofactors, and a quotient and remainder by a launch size as two fresh
//! names that recompose the dividend, leaves linear steps. Every lemma is a
//! theorem of the encoding for sizes of at least 1, so the answer is the
//! same, only sooner.

use crate::protocol::{builtin, Cond, Expr, Op, Rel};
use std::collections::BTreeMap;

/// At most this many cofactors of one size get pairwise lemmas.
const MAX_COFACTORS: usize = 12;

/// `conds` with each quotient and remainder by a launch size (or a product
/// of them) named, and the monotonicity lemmas of the products by each
/// launch size appended. Names made here start with `%`, which no source
/// name does.
pub fn linearized(conds: &[Cond]) -> Vec<Cond> {
    let mut names = Names::default();
    let mut out: Vec<Cond> = conds.iter().map(|c| names.cond(c)).collect();
    out.append(&mut names.facts);
    let mut cofactors: BTreeMap<String, Vec<Expr>> = BTreeMap::new();
    for c in &out {
        c.each_expr(&mut |e| collect_products(e, &mut cofactors));
    }
    for (size, xs) in cofactors {
        let b = Expr::var(&size);
        let mut xs = xs;
        xs.truncate(MAX_COFACTORS);
        xs.push(Expr::Int(0));
        let product = |x: &Expr| match x {
            Expr::Int(0) => Expr::Int(0),
            x => Expr::bin(Op::Mul, x.clone(), b.clone()),
        };
        for (i, x) in xs.iter().enumerate() {
            for y in &xs[i + 1..] {
                for (hi, lo) in [(x, y), (y, x)] {
                    // hi >= lo + 1 implies hi * B >= lo * B + B.
                    out.push(Cond::or(
                        Cond::cmp(Rel::Le, hi.clone(), lo.clone()),
                        Cond::cmp(Rel::Ge, Expr::sub(product(hi), product(lo)), b.clone()),
                    ));
                }
            }
        }
    }
    out
}

/// Whether `e` is a launch size or a product of them: a divisor that is
/// never 0.
pub(super) fn positive_size(e: &Expr) -> bool {
    match e {
        Expr::Var(v) => builtin::is_dim(v),
        Expr::Bin(Op::Mul, a, b) => positive_size(a) && positive_size(b),
        _ => false,
    }
}

/// The cofactors of each launch size in `e`'s products (`X` of `X * B`).
fn collect_products(e: &Expr, out: &mut BTreeMap<String, Vec<Expr>>) {
    match e {
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Bin(op, a, b) => {
            if *op == Op::Mul {
                for (x, size) in [(a, b), (b, a)] {
                    if let (Expr::Var(s), false) = (&**size, matches!(**x, Expr::Int(_))) {
                        if builtin::is_dim(s) {
                            let xs = out.entry(s.clone()).or_default();
                            if !xs.contains(x) {
                                xs.push((**x).clone());
                            }
                        }
                    }
                }
            }
            collect_products(a, out);
            collect_products(b, out);
        }
        Expr::Ite(_, a, b) => {
            collect_products(a, out);
            collect_products(b, out);
        }
    }
}

/// Fresh names for quotients and remainders, and what defines them.
#[derive(Default)]
struct Names {
    /// `(dividend, divisor)` to its quotient's and remainder's names.
    made: BTreeMap<(Expr, Expr), (String, String)>,
    facts: Vec<Cond>,
}

impl Names {
    fn cond(&mut self, c: &Cond) -> Cond {
        match c {
            Cond::Bool(_) => c.clone(),
            Cond::Cmp(r, a, b) => Cond::Cmp(*r, self.expr(a), self.expr(b)),
            Cond::And(a, b) => Cond::and(self.cond(a), self.cond(b)),
            Cond::Or(a, b) => Cond::or(self.cond(a), self.cond(b)),
            Cond::Not(a) => Cond::not(self.cond(a)),
            // A dividend may name the bound variable: no fresh name
            // outside the quantifier can stand for it.
            Cond::Forall { .. } => c.clone(),
        }
    }

    fn expr(&mut self, e: &Expr) -> Expr {
        match e {
            Expr::Int(_) | Expr::Var(_) => e.clone(),
            Expr::Bin(op @ (Op::Div | Op::Mod), a, b) if positive_size(b) => {
                let a = self.expr(a);
                let b = (**b).clone();
                let n = self.made.len();
                let (q, r) = self
                    .made
                    .entry((a.clone(), b.clone()))
                    .or_insert_with(|| (format!("%q{n}"), format!("%r{n}")))
                    .clone();
                if !self.facts.iter().any(|f| mentions(f, &q)) {
                    let (qv, rv) = (Expr::var(&q), Expr::var(&r));
                    self.facts.push(Cond::cmp(
                        Rel::Eq,
                        a,
                        Expr::add(Expr::bin(Op::Mul, qv, b.clone()), rv.clone()),
                    ));
                    self.facts
                        .push(Cond::cmp(Rel::Ge, rv.clone(), Expr::Int(0)));
                    self.facts.push(Cond::cmp(Rel::Lt, rv, b));
                }
                Expr::var(if *op == Op::Div { &q } else { &r })
            }
            Expr::Bin(op, a, b) => Expr::bin(*op, self.expr(a), self.expr(b)),
            Expr::Ite(c, a, b) => Expr::Ite(
                Box::new(self.cond(c)),
                Box::new(self.expr(a)),
                Box::new(self.expr(b)),
            ),
        }
    }
}

fn mentions(c: &Cond, var: &str) -> bool {
    let mut vars = std::collections::BTreeSet::new();
    c.free_vars(&mut vars);
    vars.contains(var)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::satisfiable;

    fn v(n: &str) -> Expr {
        Expr::var(n)
    }
    fn range(x: &str, size: &str) -> Cond {
        Cond::and(
            Cond::cmp(Rel::Ge, v(x), Expr::Int(0)),
            Cond::cmp(Rel::Lt, v(x), v(size)),
        )
    }

    #[test]
    fn a_block_of_whole_sizes_agrees_on_a_bound_check() {
        // Two threads of one block disagree on `b * B + t >= n`, `n` a
        // multiple of `B`: Z3 alone spends seconds here.
        let bd = "blockDim.x";
        let idx = |t: &str| Expr::add(Expr::bin(Op::Mul, v("bid.x"), v(bd)), v(t));
        let conds = vec![
            Cond::cmp(Rel::Ge, v(bd), Expr::Int(1)),
            Cond::cmp(Rel::Ge, v("n"), Expr::Int(0)),
            Cond::cmp(Rel::Ge, v("bid.x"), Expr::Int(0)),
            range("t1", bd),
            range("t2", bd),
            Cond::cmp(Rel::Eq, Expr::bin(Op::Mod, v("n"), v(bd)), Expr::Int(0)),
            Cond::cmp(Rel::Ge, idx("t1"), v("n")),
            Cond::cmp(Rel::Lt, idx("t2"), v("n")),
        ];
        assert_eq!(satisfiable(&linearized(&conds), 2_000), Some(false));
        // Without the multiple, they do disagree.
        let mut open = conds.clone();
        open.remove(5);
        assert_eq!(satisfiable(&linearized(&open), 2_000), Some(true));
    }

    #[test]
    fn quotients_by_a_size_are_named_once() {
        let q = Expr::bin(Op::Div, v("n"), v("blockDim.x"));
        let r = Expr::bin(Op::Mod, v("n"), v("blockDim.x"));
        let out = linearized(&[Cond::cmp(Rel::Eq, Expr::add(q, r), Expr::Int(3))]);
        assert_eq!(
            out[0],
            Cond::cmp(Rel::Eq, Expr::add(v("%q0"), v("%r0")), Expr::Int(3))
        );
        // One definition: `n == %q0 * B + %r0`, `%r0` within `0..B`.
        assert_eq!(out.iter().filter(|c| mentions(c, "%r0")).count() >= 3, true);
        // By a constant, nothing to name.
        let by_four = Cond::cmp(
            Rel::Eq,
            Expr::bin(Op::Div, v("n"), Expr::Int(4)),
            Expr::Int(1),
        );
        assert_eq!(linearized(&[by_four.clone()])[0], by_four);
    }
}
