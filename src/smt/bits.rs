//! Bitwise operations whose operands share no one bit. `a | b` and
//! `a ^ b` are then `a + b`, and `a & b` is 0: exactly, in two's
//! complement, since no bit position carries. Packed indexes are written
//! this way (`(t & ~63) | ((t & 15) << 2) | ((t >> 4) & 3)`, a bank
//! spreading permutation; `(row << 5) | lane`), and as sums they stay in
//! linear arithmetic instead of bit-vector conversions, which Z3 takes
//! seconds over.
//!
//! `imp::simplify` has joined such fields already where the expression
//! alone shows them apart; here the bounds that a trace's assumptions give
//! variables count too (`0 <= tid.x < blockDim.x` with the block's width
//! fixed), which the launch, `__requires` or the options set.

use crate::protocol::{fixed_value, Cond, Expr, Op, Rel};
use std::collections::HashMap;

/// The bits a variable's value may have set, from its bounds.
#[derive(Default)]
pub struct Bounds(HashMap<String, u64>);

impl Bounds {
    /// The variables that `assumptions` keep within `0 <= v < n` (or
    /// `<= n`) for a constant `n`, or an `n` fixed by another assumption.
    pub fn new(assumptions: &[Cond]) -> Bounds {
        let mut below: HashMap<String, i64> = HashMap::new();
        let mut nonneg: Vec<String> = Vec::new();
        let value = |e: &Expr| match e {
            Expr::Int(n) => Some(*n),
            Expr::Var(v) => fixed_value(assumptions, v),
            _ => None,
        };
        let mut visit = |c: &Cond| {
            let mut stack = vec![c];
            while let Some(c) = stack.pop() {
                match c {
                    Cond::And(a, b) => {
                        stack.push(a);
                        stack.push(b);
                    }
                    Cond::Cmp(rel, a, b) => {
                        let (var, rel, bound) = match (a, b) {
                            (Expr::Var(v), e) => (v, *rel, e),
                            (e, Expr::Var(v)) => (v, rel.flip(), e),
                            _ => continue,
                        };
                        let Some(n) = value(bound) else { continue };
                        // `v < n`, `v <= n`, `v >= 0`, `v > -1`.
                        let limit = match rel {
                            Rel::Lt => Some(n),
                            Rel::Le => n.checked_add(1),
                            Rel::Ge if n >= 0 => {
                                nonneg.push(var.clone());
                                None
                            }
                            Rel::Gt if n >= -1 => {
                                nonneg.push(var.clone());
                                None
                            }
                            _ => None,
                        };
                        if let Some(limit) = limit {
                            let at = below.entry(var.clone()).or_insert(limit);
                            *at = (*at).min(limit);
                        }
                    }
                    _ => {}
                }
            }
        };
        for c in assumptions {
            visit(c);
        }
        let masks = below
            .into_iter()
            .filter(|(v, n)| *n >= 1 && nonneg.contains(v))
            .map(|(v, n)| (v, smear((n - 1) as u64)))
            .collect();
        Bounds(masks)
    }

    /// The bits `e`'s value may have set ([`crate::imp::possible_bits`]):
    /// the top bit stands for every bit from there on.
    pub fn may_be_one(&self, e: &Expr) -> u64 {
        crate::imp::possible_bits_with(e, &|v| self.0.get(v).copied())
    }

    /// `e` with each bitwise operation on operands without a common one
    /// bit written as a sum (or 0), innermost first; `None` when none is.
    pub fn rewrite(&self, e: &Expr) -> Option<Expr> {
        match e {
            Expr::Int(_) | Expr::Var(_) => None,
            Expr::Ite(c, a, b) => {
                let (ra, rb) = (self.rewrite(a), self.rewrite(b));
                if ra.is_none() && rb.is_none() {
                    return None;
                }
                Some(Expr::Ite(
                    c.clone(),
                    Box::new(ra.unwrap_or_else(|| (**a).clone())),
                    Box::new(rb.unwrap_or_else(|| (**b).clone())),
                ))
            }
            Expr::Bin(op, a, b) => {
                let (ra, rb) = (self.rewrite(a), self.rewrite(b));
                let changed = ra.is_some() || rb.is_some();
                let a = ra.unwrap_or_else(|| (**a).clone());
                let b = rb.unwrap_or_else(|| (**b).clone());
                // A constant operand is linear already.
                let both = !matches!(a, Expr::Int(_)) && !matches!(b, Expr::Int(_));
                let bitwise = matches!(op, Op::BitAnd | Op::BitOr | Op::BitXor);
                if both && bitwise && self.may_be_one(&a) & self.may_be_one(&b) == 0 {
                    return Some(match op {
                        Op::BitAnd => Expr::Int(0),
                        _ => Expr::add(a, b),
                    });
                }
                changed.then(|| Expr::bin(*op, a, b))
            }
        }
    }
}

/// Every bit at or below the highest one of `m`.
fn smear(m: u64) -> u64 {
    if m == 0 {
        0
    } else {
        u64::MAX >> m.leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse;

    fn expr(s: &str) -> Expr {
        let k = parse(&format!("params t, u, r; assume {s} == 0")).expect("an expression");
        match &k.assumes[0] {
            Cond::Cmp(_, e, _) => e.clone(),
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn a_bank_spreading_permutation_is_a_sum() {
        let b = Bounds::new(&[]);
        let e = expr("(t & -64) | ((t & 15) << 2) | ((t >> 4) & 3)");
        let r = b.rewrite(&e).expect("rewritten");
        assert_eq!(r, expr("(t & -64) + ((t & 15) << 2) + ((t >> 4) & 3)"));
    }

    #[test]
    fn products_and_quotients_by_powers_of_two_shift() {
        let assume = [Cond::and(
            Cond::cmp(Rel::Ge, Expr::var("t"), Expr::Int(0)),
            Cond::cmp(Rel::Lt, Expr::var("t"), Expr::Int(256)),
        )];
        let b = Bounds::new(&assume);
        assert_eq!(b.may_be_one(&expr("(t / 64) * 64")), 0xc0);
        assert_eq!(b.may_be_one(&expr("(t % 16) * 4")), 0x3c);
        assert_eq!(b.may_be_one(&expr("(t / 16) % 4")), 3);
        assert_eq!(
            b.rewrite(&expr("((t / 64) * 64) | ((t % 16) * 4) | ((t / 16) % 4)")),
            Some(expr("((t / 64) * 64) + ((t % 16) * 4) + ((t / 16) % 4)"))
        );
    }

    #[test]
    fn overlapping_bits_stay_bitwise() {
        let b = Bounds::new(&[]);
        assert_eq!(b.rewrite(&expr("(t & 7) ^ (u & 12)")), None);
        assert_eq!(b.rewrite(&expr("t | (u << 4)")), None);
    }

    #[test]
    fn bounds_come_from_assumptions() {
        let assume = [
            Cond::cmp(Rel::Eq, Expr::var("blockDim.x"), Expr::Int(32)),
            Cond::and(
                Cond::cmp(Rel::Le, Expr::Int(0), Expr::var("t")),
                Cond::cmp(Rel::Lt, Expr::var("t"), Expr::var("blockDim.x")),
            ),
        ];
        let b = Bounds::new(&assume);
        assert_eq!(b.may_be_one(&Expr::var("t")), 31);
        // Without the bound, `t` may have any bit set.
        assert_eq!(Bounds::new(&[]).rewrite(&expr("(r << 5) | t")), None);
        assert_eq!(b.rewrite(&expr("(r << 5) | t")), Some(expr("(r << 5) + t")));
        assert_eq!(b.rewrite(&expr("(r << 5) & t")), Some(Expr::Int(0)));
        assert_eq!(b.rewrite(&expr("(r << 4) | t")), None);
        assert_eq!(b.rewrite(&expr("((r % 8) << 5) & t")), Some(Expr::Int(0)));
    }
}
