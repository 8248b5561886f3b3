//! Indexes taken apart into quotients and remainders and put back together.
//!
//! Real kernels split a flat index into coordinates and rebuild an address
//! from them: `k = i % M; j = (i - k) / M % N; … out[N*M*q + M*j + k]`,
//! which is `out[i]`. The solver sees only products of quotients and
//! remainders and times out. Here an index becomes a sum of products over
//! atoms (variables, quotients, remainders), and two identities of the
//! encoding's Euclidean arithmetic (`x / 0 = 0`, `x % 0 = x`) are applied
//! while they take remainders out without adding terms:
//!
//! - `m * (x / m) + x % m = x`, for every `m`;
//! - `(d * e) / d = e` when `e` is 0 whenever `d` is (so for `d = 0` too).
//!
//! Nested quotients by sizes that are never negative are one quotient by
//! their product (`(x / a) / b = x / (a * b)`), and a quotient by a product
//! is written nested in one order, so that one number is spelled one way,
//! and a digit `(y % (a * d)) / d` is `(y / d) % a`. An index is replaced
//! only when the result has fewer quotients and remainders, and fewer
//! quotients (one of a quotient counted once): shapes the solver's lemmas
//! read, a remainder next to its quotient, are left alone otherwise.

use crate::protocol::{Expr, Op};
use std::collections::BTreeMap;

/// Monomials (sorted atoms) and their coefficients.
type Poly = BTreeMap<Vec<Expr>, i64>;

/// A sum of products that grows past this many monomials is kept whole.
const MAX_TERMS: usize = 64;

/// `e` with quotients and remainders that cancel taken out, or `e` itself.
/// `natural` tells the variables that are never negative.
pub fn index(e: &Expr, natural: &dyn Fn(&str) -> bool) -> Expr {
    let before = quotients(e);
    if before == 0 {
        return e.clone();
    }
    let n = Normal { natural };
    let Some(p) = n.poly(e) else {
        return e.clone();
    };
    let after = expr(&p);
    // Fewer quotients (a quotient of a quotient counted once): a
    // remainder traded for its quotient times the divisor reads worse.
    if quotients(&after) < before && chains(&after) < chains(e) {
        after
    } else {
        e.clone()
    }
}

/// How many different quotients and remainders `e` has: each is a term
/// the solver reasons about nonlinearly, however often it occurs.
fn quotients(e: &Expr) -> usize {
    let mut out = std::collections::BTreeSet::new();
    collect_quotients(e, &mut out);
    out.len()
}

/// How many different quotients `e` has, `(x / a) / b` counted once.
fn chains(e: &Expr) -> usize {
    let mut all = std::collections::BTreeSet::new();
    collect_quotients(e, &mut all);
    all.iter()
        .filter(|q| matches!(q, Expr::Bin(Op::Div, x, _) if !matches!(**x, Expr::Bin(Op::Div, ..))))
        .count()
}

fn collect_quotients<'e>(e: &'e Expr, out: &mut std::collections::BTreeSet<&'e Expr>) {
    match e {
        Expr::Bin(op, a, b) => {
            if matches!(op, Op::Div | Op::Mod) {
                out.insert(e);
            }
            collect_quotients(a, out);
            collect_quotients(b, out);
        }
        Expr::Ite(_, a, b) => {
            collect_quotients(a, out);
            collect_quotients(b, out);
        }
        Expr::Int(_) | Expr::Var(_) => {}
    }
}

struct Normal<'a> {
    natural: &'a dyn Fn(&str) -> bool,
}

impl Normal<'_> {
    fn poly(&self, e: &Expr) -> Option<Poly> {
        let p = match e {
            Expr::Int(0) => Poly::new(),
            Expr::Int(c) => Poly::from([(Vec::new(), *c)]),
            Expr::Bin(Op::Add, a, b) => add(self.poly(a)?, &self.poly(b)?, 1)?,
            Expr::Bin(Op::Sub, a, b) => add(self.poly(a)?, &self.poly(b)?, -1)?,
            Expr::Bin(Op::Mul, a, b) => match mul(&self.poly(a)?, &self.poly(b)?) {
                Some(p) if p.len() <= MAX_TERMS => p,
                _ => atom(e.clone()),
            },
            Expr::Bin(Op::Div, x, d) => self.quotient(self.poly(x)?, self.poly(d)?)?,
            Expr::Bin(Op::Mod, x, m) => {
                let (x, m) = (self.poly(x)?, self.poly(m)?);
                if x.is_empty() {
                    Poly::new()
                } else {
                    atom(Expr::bin(Op::Mod, expr(&x), expr(&m)))
                }
            }
            _ => atom(e.clone()),
        };
        Some(self.recompose(p))
    }

    /// `x / d`.
    fn quotient(&self, x: Poly, d: Poly) -> Option<Poly> {
        if x.is_empty() {
            return Some(Poly::new());
        }
        // A digit: `(y % (a * d)) / d` is `(y / d) % a` for sizes.
        if let (Some([Expr::Bin(Op::Mod, y, p)]), Some(factors)) =
            (single(&x).map(Vec::as_slice), single(&d))
        {
            let whole = self.poly(p)?;
            let rest = single(&whole).and_then(|w| without(w, factors));
            let sizes = |fs: &[Expr]| fs.iter().all(|f| self.never_negative(f));
            if let Some(rest) = rest.filter(|r| sizes(r) && sizes(factors)) {
                let a = expr(&Poly::from([(rest, 1)]));
                let q = Expr::bin(Op::Div, (**y).clone(), expr(&d));
                return self.poly(&Expr::bin(Op::Mod, q, a));
            }
        }
        // A divisor that is one product of atoms, coefficient 1.
        if let Some(factors) = single(&d) {
            if factors.is_empty() {
                return Some(x);
            }
            let divided: Option<Poly> = x
                .iter()
                .map(|(m, c)| Some((without(m, factors)?, *c)))
                .collect();
            if let Some(p) = divided.filter(|p| factors.iter().all(|f| zero_when(p, f))) {
                return Some(p);
            }
            // Nested quotients by sizes, in one order.
            if factors.iter().all(|f| self.never_negative(f)) {
                let mut dividend = x.clone();
                let mut by = factors.clone();
                while let Some([Expr::Bin(Op::Div, y, e)]) = single(&dividend).map(Vec::as_slice) {
                    let Some(sizes) = self.sizes(e) else { break };
                    by.extend(sizes);
                    dividend = self.poly(y)?;
                }
                by.sort();
                let mut q = expr(&dividend);
                for f in by {
                    q = Expr::bin(Op::Div, q, f);
                }
                return Some(atom(q));
            }
        }
        // A positive constant that divides every coefficient.
        if let Some(k) = constant(&d).filter(|k| *k > 0) {
            if x.values().all(|c| c % k == 0) {
                return Some(x.into_iter().map(|(m, c)| (m, c / k)).collect());
            }
        }
        Some(atom(Expr::bin(Op::Div, expr(&x), expr(&d))))
    }

    /// The factors of a nested quotient's divisors, when every one is a
    /// size: `(x / a) / b` has `[a, b]`.
    fn sizes(&self, e: &Expr) -> Option<Vec<Expr>> {
        let factors = single(&self.poly(e)?)?.clone();
        factors
            .iter()
            .all(|f| self.never_negative(f))
            .then_some(factors)
    }

    fn never_negative(&self, e: &Expr) -> bool {
        match e {
            Expr::Var(v) => (self.natural)(v),
            Expr::Int(c) => *c >= 0,
            _ => false,
        }
    }

    /// Applies `m * (x / m) + x % m = x`, as `c * F * (x % m)` →
    /// `c * F * x - c * F * m * (x / m)`, wherever that (or two such steps:
    /// a digit's quotient may first have to meet its remainder) leaves
    /// fewer remainders and no more terms. Each accepted rewriting has
    /// fewer remainders: it ends.
    fn recompose(&self, mut p: Poly) -> Poly {
        let fits =
            |next: &Poly, p: &Poly| next.len() <= p.len() && remainders(next) < remainders(p);
        'again: loop {
            let firsts = self.steps(&p);
            if let Some(next) = firsts.iter().find(|n| fits(n, &p)) {
                p = next.clone();
                continue 'again;
            }
            for first in &firsts {
                if let Some(next) = self.steps(first).into_iter().find(|n| fits(n, &p)) {
                    p = next;
                    continue 'again;
                }
            }
            return p;
        }
    }

    /// Every sum one rewriting of one remainder gives.
    fn steps(&self, p: &Poly) -> Vec<Poly> {
        let mut out = Vec::new();
        for (mono, c) in p {
            for (k, a) in mono.iter().enumerate() {
                let Expr::Bin(Op::Mod, x, m) = a else {
                    continue;
                };
                let (Some(x), Some(m)) = (self.poly(x), self.poly(m)) else {
                    continue;
                };
                let Some(q) = self.quotient(x.clone(), m.clone()) else {
                    continue;
                };
                let mut rest = mono.clone();
                rest.remove(k);
                let f = Poly::from([(rest, *c)]);
                let Some(fmq) = mul(&f, &m).and_then(|fm| mul(&fm, &q)) else {
                    continue;
                };
                // The dividend as its terms (to cancel terms of the sum)
                // and, when it has several, as one (to count as one).
                let whole = (x.len() > 1).then(|| atom(expr(&x)));
                for x in std::iter::once(&x).chain(whole.as_ref()) {
                    let mut next = p.clone();
                    next.remove(mono);
                    let next = mul(&f, x).and_then(|fx| add(next, &fx, 1));
                    if let Some(next) = next.and_then(|n| add(n, &fmq, -1)) {
                        out.push(next);
                    }
                }
            }
        }
        out
    }
}

/// How many remainders the sum's atoms hold, nested ones included.
fn remainders(p: &Poly) -> usize {
    fn count(e: &Expr) -> usize {
        match e {
            Expr::Bin(op, a, b) => usize::from(*op == Op::Mod) + count(a) + count(b),
            Expr::Ite(_, a, b) => count(a) + count(b),
            Expr::Int(_) | Expr::Var(_) => 0,
        }
    }
    p.keys().flatten().map(count).sum()
}

fn atom(e: Expr) -> Poly {
    Poly::from([(vec![e], 1)])
}

/// The monomial of a one-monomial sum with coefficient 1.
fn single(p: &Poly) -> Option<&Vec<Expr>> {
    match p.iter().next() {
        Some((m, 1)) if p.len() == 1 => Some(m),
        _ => None,
    }
}

fn constant(p: &Poly) -> Option<i64> {
    match p.iter().next() {
        None => Some(0),
        Some((m, c)) if p.len() == 1 && m.is_empty() => Some(*c),
        _ => None,
    }
}

/// `mono` without one occurrence of each of `factors`.
fn without(mono: &[Expr], factors: &[Expr]) -> Option<Vec<Expr>> {
    let mut left = mono.to_vec();
    for f in factors {
        let at = left.iter().position(|g| g == f)?;
        left.remove(at);
    }
    Some(left)
}

/// Whether `p` is 0 whenever the atom `f` is.
fn zero_when(p: &Poly, f: &Expr) -> bool {
    p.keys().all(|m| m.iter().any(|a| atom_zero_when(a, f)))
}

fn atom_zero_when(a: &Expr, f: &Expr) -> bool {
    a == f
        || match a {
            // `y / 0` is 0, and so is `0 / d` and `0 % m`.
            Expr::Bin(Op::Div, y, d) => **d == *f || atom_zero_when(y, f),
            Expr::Bin(Op::Mod, y, _) => atom_zero_when(y, f),
            Expr::Bin(Op::Mul, x, y) => atom_zero_when(x, f) || atom_zero_when(y, f),
            _ => false,
        }
}

fn add(mut p: Poly, q: &Poly, sign: i64) -> Option<Poly> {
    for (m, c) in q {
        let sum = p
            .get(m)
            .copied()
            .unwrap_or(0)
            .checked_add(c.checked_mul(sign)?)?;
        if sum == 0 {
            p.remove(m);
        } else {
            p.insert(m.clone(), sum);
        }
    }
    Some(p)
}

fn mul(p: &Poly, q: &Poly) -> Option<Poly> {
    let mut out = Poly::new();
    for (m1, c1) in p {
        for (m2, c2) in q {
            let mut m: Vec<Expr> = m1.iter().chain(m2).cloned().collect();
            m.sort();
            out = add(out, &Poly::from([(m, c1.checked_mul(*c2)?)]), 1)?;
        }
    }
    Some(out)
}

/// The sum back as an expression: positive monomials first.
fn expr(p: &Poly) -> Expr {
    let product = |m: &[Expr], c: i64| {
        let mut e: Option<Expr> = (c != 1).then_some(Expr::Int(c));
        for a in m {
            e = Some(match e {
                None => a.clone(),
                Some(e) => Expr::bin(Op::Mul, e, a.clone()),
            });
        }
        e.unwrap_or(Expr::Int(1))
    };
    let mut out: Option<Expr> = None;
    for (m, c) in p.iter().filter(|(_, c)| **c > 0) {
        let t = product(m, *c);
        out = Some(out.map_or(t.clone(), |o| Expr::add(o, t)));
    }
    for (m, c) in p.iter().filter(|(_, c)| **c < 0) {
        let t = product(m, -*c);
        out = Some(match out {
            None => Expr::bin(Op::Sub, Expr::Int(0), t),
            Some(o) => Expr::sub(o, t),
        });
    }
    out.unwrap_or(Expr::Int(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::eval;
    use std::collections::HashMap;

    fn v(n: &str) -> Expr {
        Expr::var(n)
    }
    fn b(op: Op, x: Expr, y: Expr) -> Expr {
        Expr::bin(op, x, y)
    }
    fn sizes(n: &str) -> bool {
        ["M", "N", "C", "H", "W"].contains(&n)
    }

    /// `e` and its rewriting agree on every small value of its variables
    /// (sizes from 0, others of either sign).
    fn agrees(e: &Expr, r: &Expr, vars: &[&str]) {
        let mut env: HashMap<String, i64> = HashMap::new();
        let values: Vec<Vec<i64>> = vars
            .iter()
            .map(|n| {
                if sizes(n) {
                    (0..5).collect()
                } else {
                    (-7..30).collect()
                }
            })
            .collect();
        let mut at = vec![0usize; vars.len()];
        loop {
            for (i, n) in vars.iter().enumerate() {
                env.insert(n.to_string(), values[i][at[i]]);
            }
            let get = |e: &Expr| eval::eval_expr(e, &|n: &str| env.get(n).copied());
            assert_eq!(get(e).ok(), get(r).ok(), "{e} vs {r} at {env:?}");
            let mut i = 0;
            loop {
                if i == vars.len() {
                    return;
                }
                at[i] += 1;
                if at[i] < values[i].len() {
                    break;
                }
                at[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn a_decomposed_index_put_back_together_is_the_index() {
        // k = i % M; j = (i - k) / M % N; q = (i - M*j - k) / (N*M);
        // N*M*q + M*j + k.
        let (i, m, n) = (v("i"), v("M"), v("N"));
        let k = b(Op::Mod, i.clone(), m.clone());
        let j = b(
            Op::Mod,
            b(Op::Div, Expr::sub(i.clone(), k.clone()), m.clone()),
            n.clone(),
        );
        let num = Expr::sub(
            Expr::sub(i.clone(), b(Op::Mul, m.clone(), j.clone())),
            k.clone(),
        );
        let q = b(Op::Div, num, b(Op::Mul, n.clone(), m.clone()));
        let whole = Expr::add(
            Expr::add(
                b(Op::Mul, b(Op::Mul, n.clone(), m.clone()), q),
                b(Op::Mul, m.clone(), j.clone()),
            ),
            k,
        );
        let r = index(&whole, &sizes);
        assert_eq!(r, i, "{whole}");
        agrees(&whole, &r, &["i", "M", "N"]);
        // The row alone trades a quotient for a quotient: left as it is.
        assert_eq!(index(&j, &sizes), j);
    }

    #[test]
    fn coordinates_of_a_tensor_recombine_in_any_order_of_sizes() {
        // w = x % W; h = x / W % H; c = x / (W * H) % C; n = x / (H * W * C);
        // ((n * C + c) * H + h) * W + w.
        let (x, c_, h_, w_) = (v("x"), v("C"), v("H"), v("W"));
        let w = b(Op::Mod, x.clone(), w_.clone());
        let h = b(Op::Mod, b(Op::Div, x.clone(), w_.clone()), h_.clone());
        let c = b(
            Op::Mod,
            b(Op::Div, x.clone(), b(Op::Mul, w_.clone(), h_.clone())),
            c_.clone(),
        );
        let n = b(
            Op::Div,
            x.clone(),
            b(Op::Mul, b(Op::Mul, h_.clone(), w_.clone()), c_.clone()),
        );
        let at = Expr::add(
            b(
                Op::Mul,
                Expr::add(
                    b(Op::Mul, Expr::add(b(Op::Mul, n, c_.clone()), c), h_.clone()),
                    h,
                ),
                w_.clone(),
            ),
            w,
        );
        let r = index(&at, &sizes);
        assert_eq!(r, x, "{at}");
        agrees(&at, &r, &["x", "C", "H", "W"]);
    }

    #[test]
    fn a_plane_split_into_rows_and_columns_is_the_plane() {
        // c = iter / (H * W) * 8; y = iter % (H * W) / W; x = iter % W;
        // c * (H * W) + y * W + x + i * (H * W).
        let (it, h, w) = (v("iter"), v("H"), v("W"));
        let plane = b(Op::Mul, h.clone(), w.clone());
        let c = b(Op::Mul, b(Op::Div, it.clone(), plane.clone()), Expr::Int(8));
        let y = b(Op::Div, b(Op::Mod, it.clone(), plane.clone()), w.clone());
        let x = b(Op::Mod, it.clone(), w.clone());
        let at = Expr::add(
            Expr::add(
                Expr::add(b(Op::Mul, c, plane.clone()), b(Op::Mul, y, w.clone())),
                x,
            ),
            b(Op::Mul, v("i"), plane.clone()),
        );
        let r = index(&at, &sizes);
        assert_eq!(
            crate::protocol::Expr::to_string(&r).matches('%').count(),
            0,
            "{r}"
        );
        agrees(&at, &r, &["iter", "H", "W", "i"]);
    }

    #[test]
    fn indexes_that_do_not_cancel_are_left_as_they_are() {
        let (i, m) = (v("i"), v("M"));
        for e in [
            Expr::add(
                b(Op::Mul, b(Op::Div, i.clone(), m.clone()), v("N")),
                b(Op::Mod, i.clone(), m.clone()),
            ),
            b(Op::Div, i.clone(), b(Op::Mul, v("t"), m.clone())),
            Expr::add(b(Op::Mul, v("row"), m.clone()), v("col")),
            // A remainder next to a multiple of its quotient: digits.
            Expr::add(
                b(Op::Mod, i.clone(), m.clone()),
                b(
                    Op::Mul,
                    b(Op::Mul, Expr::Int(4), m.clone()),
                    b(Op::Div, i.clone(), m.clone()),
                ),
            ),
        ] {
            assert_eq!(index(&e, &sizes), e);
        }
        // A quotient by a number of unknown sign is not split.
        let e = Expr::add(
            b(
                Op::Mul,
                b(Op::Mul, v("t"), m.clone()),
                b(Op::Div, i.clone(), b(Op::Mul, v("t"), m.clone())),
            ),
            b(Op::Mod, i.clone(), b(Op::Mul, m.clone(), v("t"))),
        );
        let r = index(&e, &sizes);
        agrees(&e, &r, &["i", "M", "t"]);
    }
}
