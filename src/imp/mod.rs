//! The imperative core (DESIGN §2): a kernel after lowering, with every
//! memory access named by its array and every index already a symbolic
//! expression over thread ids, parameters, loop variables and unknowns.
//! [`infer`] slices it into one memory access protocol per array.

use crate::protocol::{
    builtin, Access, ArrayProtocol, Cond, Expr, Kernel, Loc, Mode, Op, Rel, Scope, Value,
};
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Access {
        array: String,
        mode: Mode,
        index: Vec<Expr>,
        loc: Loc,
        /// See [`crate::protocol::Access::value`].
        value: Option<Value>,
        /// See [`crate::protocol::Access::lock`].
        lock: Option<crate::protocol::Lock>,
    },
    Sync(Loc),
    /// See [`crate::protocol::Stmt::GridSync`].
    GridSync(Loc),
    /// See [`crate::protocol::Stmt::WarpSync`]. Not a barrier to the
    /// lowering ([`Stmt::has_sync`]): loops around it stay unsynchronized.
    WarpSync(Loc),
    Seq(Vec<Stmt>),
    If {
        cond: Cond,
        then: Box<Stmt>,
        els: Box<Stmt>,
        loc: Loc,
    },
    /// `for var in lo..hi { body }`.
    For {
        var: String,
        lo: Expr,
        hi: Expr,
        body: Box<Stmt>,
        loc: Loc,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    pub name: String,
    pub scope: Scope,
    pub loc: Loc,
}

/// One lowered kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub name: String,
    pub params: Vec<String>,
    pub locals: Vec<String>,
    pub assumes: Vec<Cond>,
    pub arrays: Vec<Array>,
    pub body: Vec<Stmt>,
    /// See [`Kernel::approximations`].
    pub approximations: Vec<String>,
    /// See [`Kernel::unknown_params`].
    pub unknown_params: Vec<String>,
    /// See [`Kernel::open_template_params`].
    pub open_template_params: Vec<String>,
    /// See [`Kernel::word_ranges`].
    pub word_ranges: Vec<(String, i64, i64)>,
    /// See [`Kernel::block_uniform`].
    pub block_uniform: Vec<String>,
    /// See [`Kernel::control_uniform`].
    pub control_uniform: Vec<String>,
    /// See [`Kernel::tickets`].
    pub tickets: Vec<crate::protocol::Ticket>,
    /// See [`Kernel::uniform_reads`].
    pub uniform_reads: Vec<crate::protocol::UniformRead>,
    /// See [`Kernel::carried`].
    pub carried: Vec<crate::protocol::Carried>,
    /// The name of each parameter that is an integer variable, by argument
    /// position (`None` for pointers and other values): what launches of
    /// the kernel pass to it can be stated over it.
    pub args: Vec<Option<String>>,
    /// The name of each non-type template parameter left open, by template
    /// position: what a launch in a host template passes on to it
    /// ([`crate::cuda::launch::Term::TemplateArg`]) can be stated over it.
    pub template_args: Vec<Option<String>>,
    /// The source lines of every function inlined into the kernel, by file
    /// (`file`, first, last): a compile error there is the kernel's too.
    pub callees: Vec<(String, u32, u32)>,
    /// The kernel lowered again under assumptions (see
    /// [`Kernel::variants`]).
    pub variants: Vec<(crate::protocol::Assumed, Box<Program>)>,
    /// See [`crate::protocol::Kernel::unnamed_axes`].
    pub unnamed_axes: Vec<String>,
    /// See [`crate::protocol::Kernel::ticket_reads`].
    pub ticket_reads: Vec<crate::protocol::TicketRead>,
}

impl Stmt {
    pub fn skip() -> Stmt {
        Stmt::Seq(Vec::new())
    }

    pub fn has_sync(&self) -> bool {
        match self {
            Stmt::Access { .. } | Stmt::WarpSync(_) => false,
            Stmt::Sync(_) | Stmt::GridSync(_) => true,
            Stmt::Seq(items) => items.iter().any(Stmt::has_sync),
            Stmt::If { then, els, .. } => then.has_sync() || els.has_sync(),
            Stmt::For { body, .. } => body.has_sync(),
        }
    }

    pub fn has_warp_sync(&self) -> bool {
        match self {
            Stmt::WarpSync(_) => true,
            Stmt::Access { .. } | Stmt::Sync(_) | Stmt::GridSync(_) => false,
            Stmt::Seq(items) => items.iter().any(Stmt::has_warp_sync),
            Stmt::If { then, els, .. } => then.has_warp_sync() || els.has_warp_sync(),
            Stmt::For { body, .. } => body.has_warp_sync(),
        }
    }

    /// Whether a protocol keeps anything of it: an access or a barrier.
    pub fn matters(&self) -> bool {
        self.has_access() || self.has_sync() || self.has_warp_sync()
    }

    /// Calls `f` on every access of `self`, in order.
    pub fn each_access(&self, f: &mut impl FnMut(&Stmt)) {
        match self {
            Stmt::Access { .. } => f(self),
            Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
            Stmt::Seq(items) => items.iter().for_each(|i| i.each_access(f)),
            Stmt::If { then, els, .. } => {
                then.each_access(f);
                els.each_access(f);
            }
            Stmt::For { body, .. } => body.each_access(f),
        }
    }

    /// Like [`Stmt::each_access`], with the conditions under which each
    /// access happens: the branches' conditions and the loops' ranges.
    pub fn each_access_under(&self, under: &mut Vec<Cond>, f: &mut impl FnMut(&Stmt, &[Cond])) {
        match self {
            Stmt::Access { .. } => f(self, under),
            Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
            Stmt::Seq(items) => items.iter().for_each(|i| i.each_access_under(under, f)),
            Stmt::If {
                cond, then, els, ..
            } => {
                under.push(cond.clone());
                then.each_access_under(under, f);
                under.pop();
                under.push(Cond::not(cond.clone()));
                els.each_access_under(under, f);
                under.pop();
            }
            Stmt::For {
                var, lo, hi, body, ..
            } => {
                use crate::protocol::Rel;
                under.push(Cond::cmp(Rel::Le, lo.clone(), Expr::var(var)));
                under.push(Cond::cmp(Rel::Lt, Expr::var(var), hi.clone()));
                body.each_access_under(under, f);
                under.truncate(under.len() - 2);
            }
        }
    }

    pub fn has_access(&self) -> bool {
        match self {
            Stmt::Access { .. } => true,
            Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => false,
            Stmt::Seq(items) => items.iter().any(Stmt::has_access),
            Stmt::If { then, els, .. } => then.has_access() || els.has_access(),
            Stmt::For { body, .. } => body.has_access(),
        }
    }

    pub fn subst(&self, var: &str, by: &Expr) -> Stmt {
        match self {
            Stmt::Access {
                array,
                mode,
                index,
                loc,
                value,
                lock,
            } => Stmt::Access {
                array: array.clone(),
                mode: *mode,
                index: index.iter().map(|e| simplify(&e.subst(var, by))).collect(),
                loc: *loc,
                value: value
                    .as_ref()
                    .map(|v| v.map(|e| simplify(&e.subst(var, by)))),
                lock: lock
                    .as_ref()
                    .map(|l| l.map(|e| simplify(&e.subst(var, by)))),
            },
            Stmt::Sync(l) => Stmt::Sync(*l),
            Stmt::GridSync(l) => Stmt::GridSync(*l),
            Stmt::WarpSync(l) => Stmt::WarpSync(*l),
            Stmt::Seq(items) => Stmt::Seq(items.iter().map(|s| s.subst(var, by)).collect()),
            Stmt::If {
                cond,
                then,
                els,
                loc,
            } => Stmt::If {
                cond: simplify_cond(&cond.subst(var, by)),
                then: Box::new(then.subst(var, by)),
                els: Box::new(els.subst(var, by)),
                loc: *loc,
            },
            Stmt::For {
                var: v,
                lo,
                hi,
                body,
                loc,
            } => Stmt::For {
                var: v.clone(),
                lo: simplify(&lo.subst(var, by)),
                hi: simplify(&hi.subst(var, by)),
                body: Box::new(if v == var {
                    (**body).clone()
                } else {
                    body.subst(var, by)
                }),
                loc: *loc,
            },
        }
    }
}

/// `e` where the conditions `known` hold: a choice whose condition is
/// among them (each of its conjuncts) takes its first arm, one whose
/// negation is among them its second. An access inside `if (active)`
/// to an index that chose on `active` where it was computed.
pub fn settled(e: &Expr, known: &[Cond]) -> Expr {
    let facts: Vec<&Cond> = known.iter().flat_map(Cond::conjuncts).collect();
    if facts.is_empty() {
        return e.clone();
    }
    fn walk(e: &Expr, facts: &[&Cond]) -> Expr {
        match e {
            Expr::Ite(c, a, b) => {
                if c.conjuncts().iter().all(|p| facts.contains(p)) {
                    return walk(a, facts);
                }
                let negated = Cond::Not(c.clone());
                if facts.contains(&&negated) {
                    return walk(b, facts);
                }
                Expr::Ite(
                    c.clone(),
                    Box::new(walk(a, facts)),
                    Box::new(walk(b, facts)),
                )
            }
            Expr::Bin(op, a, b) => {
                Expr::Bin(*op, Box::new(walk(a, facts)), Box::new(walk(b, facts)))
            }
            e => e.clone(),
        }
    }
    simplify(&walk(e, &facts))
}

/// Folds constants and neutral elements; keeps the meaning exactly.
pub fn simplify(e: &Expr) -> Expr {
    match e {
        Expr::Bin(op, a, b) => {
            let (a, b) = (simplify(a), simplify(b));
            match (op, &a, &b) {
                (Op::Add, Expr::Int(x), Expr::Int(y)) => x
                    .checked_add(*y)
                    .map(Expr::Int)
                    .unwrap_or_else(|| Expr::bin(*op, a, b)),
                (Op::Sub, Expr::Int(x), Expr::Int(y)) => x
                    .checked_sub(*y)
                    .map(Expr::Int)
                    .unwrap_or_else(|| Expr::bin(*op, a, b)),
                (Op::Mul, Expr::Int(x), Expr::Int(y)) => x
                    .checked_mul(*y)
                    .map(Expr::Int)
                    .unwrap_or_else(|| Expr::bin(*op, a, b)),
                // `(x ± c1) ± c2` → `x ± c`.
                (
                    Op::Add | Op::Sub,
                    Expr::Bin(inner @ (Op::Add | Op::Sub), x, c1),
                    Expr::Int(c2),
                ) if matches!(**c1, Expr::Int(_)) => {
                    let Expr::Int(c1) = **c1 else { unreachable!() };
                    let c1 = if *inner == Op::Add { c1 } else { -c1 };
                    let c2 = if *op == Op::Add { *c2 } else { -*c2 };
                    match c1.checked_add(c2) {
                        Some(0) => (**x).clone(),
                        Some(c) if c > 0 => Expr::add((**x).clone(), Expr::Int(c)),
                        Some(c) => Expr::sub((**x).clone(), Expr::Int(-c)),
                        None => Expr::bin(*op, a.clone(), b.clone()),
                    }
                }
                (Op::Div, Expr::Int(x), Expr::Int(y)) if *y != 0 => Expr::Int(x.div_euclid(*y)),
                (Op::Mod, Expr::Int(x), Expr::Int(y)) if *y != 0 => Expr::Int(x.rem_euclid(*y)),
                (Op::Shl, Expr::Int(x), Expr::Int(y))
                    if (0..32).contains(y) && x.abs() < (1 << 30) =>
                {
                    Expr::Int(x << y)
                }
                (Op::Shr, Expr::Int(x), Expr::Int(y)) if (0..63).contains(y) => Expr::Int(x >> y),
                (Op::BitAnd, Expr::Int(x), Expr::Int(y)) => Expr::Int(x & y),
                (Op::BitOr, Expr::Int(x), Expr::Int(y)) => Expr::Int(x | y),
                (Op::BitXor, Expr::Int(x), Expr::Int(y)) => Expr::Int(x ^ y),
                (Op::Shl | Op::Shr, _, Expr::Int(0)) => a,
                // `i >> (4 + i)`, a shift by more than the bits a
                // nonnegative `i` has (`i < 2^i`): 0, as the GPU's shift
                // gives it (`(i) >> LOG_NUM_BANKS + (i) >> 8`, a macro whose
                // precedence shifts by the index itself).
                (Op::Shr, _, _) if at_least_zero(&a) && shift_past_bits(&a, &b) => Expr::Int(0),
                // A mask that keeps every bit the operand may have (`(c ?
                // 1 : 0) & 1`, a flag of `i >= 4 & j >= 4`): the operand.
                (Op::BitAnd, x, Expr::Int(m)) | (Op::BitAnd, Expr::Int(m), x)
                    if possible_bits(x) & !(*m as u64) == 0 =>
                {
                    x.clone()
                }
                // One that keeps none of them: 0.
                (Op::BitAnd, x, Expr::Int(m)) | (Op::BitAnd, Expr::Int(m), x)
                    if possible_bits(x) & (*m as u64) == 0 =>
                {
                    Expr::Int(0)
                }
                // A mask of a run of bits is a quotient of a remainder: the
                // digits the solver's mixed-radix lemmas read.
                (Op::BitAnd, _, Expr::Int(c)) if bit_run(*c).is_some_and(|(lo, _)| lo > 0) => {
                    let (lo, hi) = bit_run(*c).unwrap_or_default();
                    let low = Expr::bin(Op::Mod, a.clone(), Expr::Int(1 << hi));
                    let run = Expr::bin(Op::Div, low, Expr::Int(1 << lo));
                    Expr::bin(Op::Mul, run, Expr::Int(1 << lo))
                }
                // `(e * m) / m` is `e`, and so is `(e * 2^k) >> k`.
                (Op::Div, Expr::Bin(Op::Mul, e, m), Expr::Int(d))
                    if *d > 0 && **m == Expr::Int(*d) =>
                {
                    (**e).clone()
                }
                (Op::Shr, Expr::Bin(Op::Mul, e, m), Expr::Int(k @ 1..=62))
                    if **m == Expr::Int(1 << k) =>
                {
                    (**e).clone()
                }
                // Clearing the low bits rounds down to a multiple: a quotient,
                // which the solver's mixed-radix lemmas read as a digit.
                (Op::BitAnd, _, Expr::Int(c)) | (Op::BitAnd, Expr::Int(c), _)
                    if *c < -1 && (c.unsigned_abs()).is_power_of_two() =>
                {
                    let x = if matches!(b, Expr::Int(_)) {
                        a.clone()
                    } else {
                        b.clone()
                    };
                    let m = Expr::Int(-*c);
                    Expr::bin(Op::Mul, Expr::bin(Op::Div, x, m.clone()), m)
                }
                (Op::BitOr | Op::BitXor, _, Expr::Int(0)) => a,
                (Op::BitOr | Op::BitXor, Expr::Int(0), _) => b,
                (Op::BitAnd, _, Expr::Int(0)) | (Op::BitAnd, Expr::Int(0), _) => Expr::Int(0),
                // A flag made a number (`x ^ (c ? 1 : 0)`): one constant
                // operand per branch, which the solver takes bit by bit
                // without bit-vectors.
                (Op::BitAnd | Op::BitOr | Op::BitXor, x, Expr::Ite(c, t, f))
                | (Op::BitAnd | Op::BitOr | Op::BitXor, Expr::Ite(c, t, f), x)
                    if matches!((&**t, &**f), (Expr::Int(_), Expr::Int(_)))
                        && !matches!(x, Expr::Int(_)) =>
                {
                    let branch = |k: &Expr| simplify(&Expr::bin(*op, x.clone(), k.clone()));
                    Expr::Ite(c.clone(), Box::new(branch(t)), Box::new(branch(f)))
                }
                // Fields packed into disjoint bits (`(t & 15) << 2 | (t & 48) >>
                // 4`) are a sum: no carries, and linear for the solver.
                (Op::BitOr | Op::BitXor, _, _) if possible_bits(&a) & possible_bits(&b) == 0 => {
                    Expr::add(a, b)
                }
                // `a % m + m * (a / m)` is `a`: an index taken apart into
                // digits and put back together (`j + w * (i + h * k)` with
                // `j = id % w`, `i = id / w % h`, `k = id / w / h`).
                (Op::Add, _, _) if recomposed(&a, &b).is_some() => {
                    recomposed(&a, &b).expect("checked")
                }
                (Op::Min, Expr::Int(x), Expr::Int(y)) => Expr::Int(*x.min(y)),
                (Op::Max, Expr::Int(x), Expr::Int(y)) => Expr::Int(*x.max(y)),
                (Op::Add, Expr::Int(0), _) => b,
                (Op::Add | Op::Sub, _, Expr::Int(0)) => a,
                (Op::Mul, Expr::Int(1), _) => b,
                (Op::Mul | Op::Div, _, Expr::Int(1)) => a,
                (Op::Mul, Expr::Int(0), _) | (Op::Mul, _, Expr::Int(0)) => Expr::Int(0),
                _ => Expr::bin(*op, a, b),
            }
        }
        Expr::Ite(c, a, b) => {
            let (a, b) = (simplify(a), simplify(b));
            match &**c {
                Cond::Bool(true) => a,
                Cond::Bool(false) => b,
                _ if a == b => a,
                // `max(x, 0)` of a value never negative (`max(blockIdx.x *
                // 16, 0)` of a stencil's block origin): the value.
                Cond::Cmp(Rel::Gt | Rel::Ge, x, Expr::Int(0))
                    if *x == a && b == Expr::Int(0) && at_least_zero(x) =>
                {
                    a
                }
                _ => Expr::Ite(c.clone(), Box::new(a), Box::new(b)),
            }
        }
        _ => e.clone(),
    }
}

/// `a` when the sum `x + y` is `a % m + m * (a / m)`, in any order of its
/// terms and factors: C's quotient and remainder put back together.
fn recomposed(x: &Expr, y: &Expr) -> Option<Expr> {
    let digit = |r: &Expr, q: &Expr| {
        let Expr::Bin(Op::Mod, a, m) = r else {
            return None;
        };
        let Expr::Bin(Op::Mul, f, g) = q else {
            return None;
        };
        let quotient = Expr::bin(Op::Div, (**a).clone(), (**m).clone());
        let whole = (**f == **m && **g == quotient) || (**g == **m && **f == quotient);
        whole.then(|| (**a).clone())
    };
    digit(x, y).or_else(|| digit(y, x))
}

/// The bits `lo..hi` that `c` sets, when they are one run and `hi <= 62`.
fn bit_run(c: i64) -> Option<(u32, u32)> {
    if c <= 0 {
        return None;
    }
    let lo = c.trailing_zeros();
    let hi = 64 - c.leading_zeros();
    let run = (c >> lo) + 1;
    (hi <= 62 && (run as u64).is_power_of_two()).then_some((lo, hi))
}

/// Whether `e` is never negative by its form: ids, sizes and constants at
/// least 0 under sums, products, quotients and shifts.
fn at_least_zero(e: &Expr) -> bool {
    match e {
        Expr::Int(c) => *c >= 0,
        Expr::Var(v) => {
            let base = v.split('@').next().unwrap_or(v);
            builtin::is_thread_id(base) || builtin::is_dim(base)
        }
        Expr::Bin(Op::Add | Op::Mul | Op::Div | Op::Shr | Op::Shl | Op::Min, a, b) => {
            at_least_zero(a) && at_least_zero(b)
        }
        Expr::Bin(Op::Mod, a, b) => at_least_zero(a) && matches!(**b, Expr::Int(c) if c > 0),
        _ => false,
    }
}

/// Whether shift amount `k` is `x` plus a constant at least 0 (`4 + x`,
/// `x + 4`): the summands of `k` are those of `x` and constants.
fn shift_past_bits(x: &Expr, k: &Expr) -> bool {
    fn summands(e: &Expr, out: &mut Vec<Expr>, c: &mut i64) {
        match e {
            Expr::Bin(Op::Add, a, b) => {
                summands(a, out, c);
                summands(b, out, c);
            }
            Expr::Int(k) => *c = c.saturating_add(*k),
            e => out.push(e.clone()),
        }
    }
    let (mut xs, mut ks) = (Vec::new(), Vec::new());
    let (mut xc, mut kc) = (0, 0);
    summands(x, &mut xs, &mut xc);
    summands(k, &mut ks, &mut kc);
    xs.sort();
    ks.sort();
    !xs.is_empty() && xs == ks && kc >= xc
}

/// The bits `e` may have set, in two's complement of unbounded width: the
/// top bit stands for every bit from there on (a value that may be
/// negative).
pub fn possible_bits(e: &Expr) -> u64 {
    possible_bits_with(e, &|_| None)
}

/// [`possible_bits`] where `var` gives the bits some variables may have
/// set (from their bounds).
pub fn possible_bits_with(e: &Expr, var: &dyn Fn(&str) -> Option<u64>) -> u64 {
    let possible_bits = |e: &Expr| possible_bits_with(e, var);
    let power = |k: &Expr| match *k {
        Expr::Int(k) if k > 0 && (k as u64).is_power_of_two() => Some(k.trailing_zeros()),
        _ => None,
    };
    let shift = |k: &Expr| match *k {
        Expr::Int(k @ 0..=62) => Some(k as u32),
        _ => None,
    };
    match e {
        Expr::Int(c) => *c as u64,
        Expr::Var(v) => var(v).unwrap_or(u64::MAX),
        Expr::Bin(Op::BitAnd, a, b) => possible_bits(a) & possible_bits(b),
        // The result is one of the operands, or takes its bits from them.
        Expr::Bin(Op::BitOr | Op::BitXor | Op::Min | Op::Max, a, b) | Expr::Ite(_, a, b) => {
            possible_bits(a) | possible_bits(b)
        }
        // Products, quotients and remainders by powers of two are shifts
        // and masks, as `simplify` writes them.
        Expr::Bin(Op::Mul, a, k) => {
            power(k).map_or(u64::MAX, |k| shifted_left(possible_bits(a), k))
        }
        Expr::Bin(Op::Div, a, k) => {
            power(k).map_or(u64::MAX, |k| shifted_right(possible_bits(a), k))
        }
        Expr::Bin(Op::Mod, _, k) => match **k {
            Expr::Int(k) if k > 0 => (k as u64).next_power_of_two() - 1,
            _ => u64::MAX,
        },
        // Without carries, as the sums `simplify` makes of such fields.
        Expr::Bin(Op::Add, a, b) => {
            let (a, b) = (possible_bits(a), possible_bits(b));
            if a & b == 0 {
                a | b
            } else {
                u64::MAX
            }
        }
        Expr::Bin(Op::Shl, a, k) => {
            shift(k).map_or(u64::MAX, |k| shifted_left(possible_bits(a), k))
        }
        Expr::Bin(Op::Shr, a, k) => {
            shift(k).map_or(u64::MAX, |k| shifted_right(possible_bits(a), k))
        }
        _ => u64::MAX,
    }
}

/// The top bit of a [`possible_bits`] mask: every bit from there on.
const SIGN_BITS: u64 = 1 << 63;

/// The bits `x << k` may set, `k <= 62`, from those `x` may set: bits
/// shifted into the top stand for every bit above.
fn shifted_left(m: u64, k: u32) -> u64 {
    if k == 0 {
        return m;
    }
    let top = if m >> (63 - k) != 0 { SIGN_BITS } else { 0 };
    (m << k) | top
}

/// The bits `x >> k` (arithmetic) may set, `k <= 62`.
fn shifted_right(m: u64, k: u32) -> u64 {
    if m & SIGN_BITS == 0 {
        m >> k
    } else {
        (m >> k) | !(u64::MAX >> k)
    }
}

/// [`simplify`] inside a condition; comparisons of constants fold.
pub fn simplify_cond(c: &Cond) -> Cond {
    match c {
        Cond::Bool(_) => c.clone(),
        Cond::Cmp(r, a, b) => {
            let (a, b) = (simplify(a), simplify(b));
            match (&a, &b) {
                (Expr::Int(x), Expr::Int(y)) => Cond::Bool(r.holds(*x, *y)),
                _ => Cond::Cmp(*r, a, b),
            }
        }
        Cond::And(a, b) => Cond::and(simplify_cond(a), simplify_cond(b)),
        Cond::Or(a, b) => Cond::or(simplify_cond(a), simplify_cond(b)),
        Cond::Not(a) => Cond::not(simplify_cond(a)),
        Cond::Forall { .. } => c.clone(),
    }
}

/// Slices a program into one protocol per array (ids in order of
/// appearance), keeping barriers in every protocol and dropping control flow
/// that guards neither accesses nor barriers.
pub fn infer(p: &Program) -> Kernel {
    let mut arrays = Vec::new();
    let mut used = BTreeSet::new();
    for a in &p.arrays {
        let mut next = 0u32;
        let body = slice(&Stmt::Seq(p.body.clone()), &a.name, &mut next);
        let has_access = {
            let mut v = Vec::new();
            body.accesses(&mut v);
            !v.is_empty()
        };
        if !has_access {
            continue;
        }
        free_vars(&body, &mut used);
        arrays.push(ArrayProtocol {
            name: a.name.clone(),
            scope: a.scope,
            body,
            loc: a.loc,
        });
    }
    for c in &p.assumes {
        c.free_vars(&mut used);
    }
    // A read's published value names the block's ticket, nothing else does.
    let ticket_reads: Vec<crate::protocol::TicketRead> = p
        .ticket_reads
        .iter()
        .filter(|r| used.contains(&r.local))
        .cloned()
        .collect();
    for r in &ticket_reads {
        used.insert(r.ticket.clone());
        r.value.free_vars(&mut used);
    }
    Kernel {
        name: p.name.clone(),
        params: p.params.clone(),
        locals: p
            .locals
            .iter()
            .filter(|l| used.contains(*l))
            .cloned()
            .collect(),
        assumes: p.assumes.clone(),
        arrays,
        approximations: p.approximations.clone(),
        unknown_params: p.unknown_params.clone(),
        open_template_params: p.open_template_params.clone(),
        word_ranges: p.word_ranges.clone(),
        block_uniform: p.block_uniform.clone(),
        control_uniform: p.control_uniform.clone(),
        warp_sync: None,
        tickets: p.tickets.clone(),
        uniform_reads: p.uniform_reads.clone(),
        carried: p.carried.clone(),
        uniform_guards: Vec::new(),
        undecided_guards: Vec::new(),
        variants: Vec::new(),
        unnamed_axes: p.unnamed_axes.clone(),
        ticket_reads,
    }
}

fn slice(s: &Stmt, array: &str, next: &mut u32) -> crate::protocol::Stmt {
    use crate::protocol::Stmt as P;
    match s {
        Stmt::Access {
            array: a,
            mode,
            index,
            loc,
            value,
            lock,
        } if a == array => {
            let id = *next;
            *next += 1;
            P::Access(Access {
                id,
                mode: *mode,
                index: index.clone(),
                loc: *loc,
                value: value.clone(),
                lock: lock.clone(),
            })
        }
        Stmt::Access { .. } => P::Skip,
        Stmt::Sync(l) => P::Sync(*l),
        Stmt::GridSync(l) => P::GridSync(*l),
        Stmt::WarpSync(l) => P::WarpSync(*l),
        Stmt::Seq(items) => {
            let mut out: Vec<P> = Vec::new();
            for i in items {
                match slice(i, array, next) {
                    P::Skip => {}
                    P::Seq(inner) => out.extend(inner),
                    x => out.push(x),
                }
            }
            match out.len() {
                0 => P::Skip,
                1 => out.pop().unwrap_or(P::Skip),
                _ => P::Seq(out),
            }
        }
        Stmt::If {
            cond: Cond::Bool(b),
            then,
            els,
            ..
        } => slice(if *b { then } else { els }, array, next),
        Stmt::If {
            cond,
            then,
            els,
            loc,
        } => {
            let (t, e) = (slice(then, array, next), slice(els, array, next));
            if t == P::Skip && e == P::Skip {
                return P::Skip;
            }
            P::If {
                cond: cond.clone(),
                then: Box::new(t),
                els: Box::new(e),
                loc: *loc,
            }
        }
        Stmt::For {
            var,
            lo,
            hi,
            body,
            loc,
        } => {
            let b = slice(body, array, next);
            if b == P::Skip {
                return P::Skip;
            }
            P::For {
                var: var.clone(),
                lo: lo.clone(),
                hi: hi.clone(),
                body: Box::new(b),
                loc: *loc,
            }
        }
    }
}

fn free_vars(s: &crate::protocol::Stmt, out: &mut BTreeSet<String>) {
    use crate::protocol::Stmt as P;
    match s {
        P::Skip | P::Sync(_) | P::GridSync(_) | P::WarpSync(_) => {}
        // The stored value and the lock too: a local only a write stores,
        // or only a lock's cell names, is still each thread's own.
        P::Access(a) => a
            .index
            .iter()
            .chain(a.value.iter().flat_map(Value::exprs))
            .chain(a.lock.iter().flat_map(|l| &l.index))
            .for_each(|e| e.free_vars(out)),
        P::Seq(items) => items.iter().for_each(|i| free_vars(i, out)),
        P::If {
            cond, then, els, ..
        } => {
            cond.free_vars(out);
            free_vars(then, out);
            free_vars(els, out);
        }
        P::For { lo, hi, body, .. } => {
            lo.free_vars(out);
            hi.free_vars(out);
            free_vars(body, out);
        }
    }
}

/// Whether every variable of `vars` is the same for all threads of a block:
/// launch dimensions, block ids, and the given thread-global names.
pub fn is_uniform(vars: &BTreeSet<String>, globals: &[String]) -> bool {
    vars.iter()
        .all(|v| builtin::is_dim(v) || builtin::BID.contains(&v.as_str()) || globals.contains(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Rel;
    use crate::protocol::Stmt as P;

    #[test]
    fn choices_the_known_conditions_decide_take_their_arm() {
        let v = Expr::var;
        let active = Cond::and(
            Cond::cmp(Rel::Lt, v("i"), v("nx")),
            Cond::cmp(Rel::Lt, v("j"), v("ny")),
        );
        let step = Expr::Ite(
            Box::new(active.clone()),
            Box::new(Expr::bin(Op::Mul, v("k"), Expr::Int(2048))),
            Box::new(Expr::Int(0)),
        );
        let index = Expr::add(v("g"), step.clone());
        // Under `active`, or under its conjuncts known apart.
        let stepped = Expr::add(v("g"), Expr::bin(Op::Mul, v("k"), Expr::Int(2048)));
        assert_eq!(settled(&index, &[active.clone()]), stepped);
        let apart = [
            Cond::cmp(Rel::Lt, v("j"), v("ny")),
            Cond::cmp(Rel::Lt, v("i"), v("nx")),
        ];
        assert_eq!(settled(&index, &apart), stepped);
        // Under its negation the other arm; under part of it, or nothing
        // known, the choice stays.
        assert_eq!(settled(&index, &[Cond::not(active.clone())]), v("g"));
        assert_eq!(settled(&index, &apart[..1]), simplify(&index));
        assert_eq!(settled(&index, &[]), index);
    }

    #[test]
    fn a_shift_past_the_bits_of_a_nonnegative_index_is_zero() {
        use crate::protocol::eval::eval_expr;
        let v = Expr::var;
        let bin = |op, a, b| Expr::bin(op, a, b);
        // `(2t + 1) >> 4 + (2t + 1) >> 8`, as C reads the macro.
        let i = bin(
            Op::Add,
            bin(Op::Mul, Expr::Int(2), v("tid.x")),
            Expr::Int(1),
        );
        let pad = bin(
            Op::Shr,
            bin(Op::Shr, i.clone(), bin(Op::Add, Expr::Int(4), i.clone())),
            Expr::Int(8),
        );
        assert_eq!(simplify(&pad), Expr::Int(0));
        for t in 0..2048 {
            let at = |n: &str| (n == "tid.x").then_some(t);
            assert_eq!(eval_expr(&pad, &at), Ok(0), "tid.x = {t}");
        }
        // A value of any sign, or a shift short of the index, stays.
        for e in [
            bin(Op::Shr, v("n"), bin(Op::Add, v("n"), Expr::Int(4))),
            bin(Op::Shr, v("tid.x"), bin(Op::Sub, v("tid.x"), Expr::Int(1))),
            bin(Op::Shr, v("tid.x"), bin(Op::Add, v("tid.y"), Expr::Int(4))),
        ] {
            assert_ne!(simplify(&e), Expr::Int(0), "{e}");
        }
    }

    #[test]
    fn fields_in_disjoint_bits_are_summed_with_the_same_value() {
        use crate::protocol::eval::eval_expr;
        let v = Expr::var;
        let bin = |op, a, b| Expr::bin(op, a, b);
        let field = |x: &str, mask: i64, op: Op, k: i64| {
            bin(op, bin(Op::BitAnd, v(x), Expr::Int(mask)), Expr::Int(k))
        };
        let packed = [
            // The bank-interleaved position of a histogram thread.
            bin(
                Op::BitOr,
                bin(
                    Op::BitOr,
                    field("t", -64, Op::Shl, 0),
                    field("t", 15, Op::Shl, 2),
                ),
                field("t", 48, Op::Shr, 4),
            ),
            bin(
                Op::BitXor,
                field("t", 7, Op::Shl, 3),
                field("u", 7, Op::Shl, 0),
            ),
            bin(
                Op::BitOr,
                bin(Op::Shl, v("u"), Expr::Int(4)),
                field("t", 15, Op::Shl, 0),
            ),
        ];
        for e in &packed {
            let s = simplify(e);
            assert!(!format!("{s:?}").contains("BitOr"), "{s:?}");
            for t in -70..70 {
                for u in -9..9 {
                    let look = |n: &str| match n {
                        "t" => Some(t),
                        "u" => Some(u),
                        _ => None,
                    };
                    assert_eq!(
                        eval_expr(e, &look),
                        eval_expr(&s, &look),
                        "{e:?} at {t}, {u}"
                    );
                }
            }
        }
        // Overlapping fields keep their `|`: `(t & 12) | (t & 6)`.
        let overlap = bin(
            Op::BitOr,
            bin(Op::BitAnd, v("t"), Expr::Int(12)),
            bin(Op::BitAnd, v("t"), Expr::Int(6)),
        );
        assert!(format!("{:?}", simplify(&overlap)).contains("BitOr"));
        // A value of unknown bits overlaps everything.
        let unknown = bin(Op::BitOr, v("u"), Expr::Int(1));
        assert_eq!(simplify(&unknown), unknown);
    }

    #[test]
    fn bitwise_with_a_flag_takes_one_constant_per_branch() {
        use crate::protocol::eval::eval_expr;
        let v = Expr::var;
        let flag = Expr::Ite(
            Box::new(Cond::cmp(crate::protocol::Rel::Ne, v("u"), Expr::Int(0))),
            Box::new(Expr::Int(1)),
            Box::new(Expr::Int(0)),
        );
        for op in [Op::BitAnd, Op::BitOr, Op::BitXor] {
            for e in [
                Expr::bin(op, v("t"), flag.clone()),
                Expr::bin(op, flag.clone(), v("t")),
            ] {
                let s = simplify(&e);
                let Expr::Ite(_, a, b) = &s else {
                    panic!("{s:?}")
                };
                let constant = |x: &Expr| match x {
                    Expr::Bin(_, _, k) => matches!(**k, Expr::Int(_)),
                    _ => true,
                };
                assert!(constant(a) && constant(b), "{s:?}");
                for t in -9..9 {
                    for u in -1..2 {
                        let look = |n: &str| match n {
                            "t" => Some(t),
                            "u" => Some(u),
                            _ => None,
                        };
                        assert_eq!(eval_expr(&e, &look), eval_expr(&s, &look), "{e:?}");
                    }
                }
            }
        }
    }

    fn acc(array: &str, mode: Mode) -> Stmt {
        Stmt::Access {
            array: array.into(),
            mode,
            index: vec![Expr::var("tid.x")],
            loc: Loc::new(1, 1),
            value: None,
            lock: None,
        }
    }

    #[test]
    fn slices_per_array_and_keeps_barriers() {
        let p = Program {
            name: "k".into(),
            arrays: vec![
                Array {
                    name: "a".into(),
                    scope: Scope::Shared,
                    loc: Loc::NONE,
                },
                Array {
                    name: "b".into(),
                    scope: Scope::Global,
                    loc: Loc::NONE,
                },
                Array {
                    name: "unused".into(),
                    scope: Scope::Global,
                    loc: Loc::NONE,
                },
            ],
            locals: vec!["x".into(), "y".into()],
            body: vec![
                acc("a", Mode::Write),
                Stmt::Sync(Loc::new(2, 1)),
                Stmt::If {
                    cond: Cond::cmp(crate::protocol::Rel::Lt, Expr::var("x"), Expr::Int(1)),
                    then: Box::new(acc("b", Mode::Read)),
                    els: Box::new(Stmt::skip()),
                    loc: Loc::NONE,
                },
                acc("a", Mode::Read),
            ],
            ..Default::default()
        };
        let k = infer(&p);
        assert_eq!(k.arrays.len(), 2);
        let a = k.array("a").unwrap();
        match &a.body {
            P::Seq(items) => {
                assert_eq!(items.len(), 3);
                assert!(matches!(&items[0], P::Access(x) if x.id == 0 && x.mode == Mode::Write));
                assert!(matches!(&items[1], P::Sync(_)));
                assert!(matches!(&items[2], P::Access(x) if x.id == 1 && x.mode == Mode::Read));
            }
            other => panic!("unexpected {other:?}"),
        }
        // `x` guards an access of `b`; `y` is never used.
        assert_eq!(k.locals, vec!["x".to_string()]);
    }

    #[test]
    fn a_local_only_stored_stays_a_local() {
        // `out[0] = x`: were `x` dropped, traces would take it as one value
        // for both threads, and the race as benign.
        let p = Program {
            arrays: vec![Array {
                name: "out".into(),
                scope: Scope::Global,
                loc: Loc::NONE,
            }],
            locals: vec!["x".into()],
            body: vec![Stmt::Access {
                lock: None,
                array: "out".into(),
                mode: Mode::Write,
                index: vec![Expr::Int(0)],
                loc: Loc::new(1, 1),
                value: Some(Expr::var("x").into()),
            }],
            ..Default::default()
        };
        assert_eq!(infer(&p).locals, vec!["x".to_string()]);
    }

    #[test]
    fn simplify_folds_constant_offsets() {
        let e = Expr::sub(Expr::add(Expr::var("n"), Expr::Int(1)), Expr::Int(1));
        assert_eq!(simplify(&e), Expr::var("n"));
        let e = Expr::add(Expr::sub(Expr::var("n"), Expr::Int(3)), Expr::Int(1));
        assert_eq!(simplify(&e), Expr::sub(Expr::var("n"), Expr::Int(2)));
    }

    #[test]
    fn simplify_folds_constants() {
        let e = Expr::add(
            Expr::Int(0),
            Expr::bin(
                Op::Mul,
                Expr::var("i"),
                Expr::add(Expr::Int(1), Expr::Int(0)),
            ),
        );
        assert_eq!(simplify(&e), Expr::var("i"));
    }

    #[test]
    fn simplify_drops_masks_of_flags_and_maxima_of_values_never_negative() {
        let flag = |c: Cond| Expr::Ite(Box::new(c), Box::new(Expr::Int(1)), Box::new(Expr::Int(0)));
        let four = Cond::cmp(Rel::Ge, Expr::var("i"), Expr::Int(4));
        // `(i >= 4) & 1`: the flag; with a mask of other bits, 0.
        let masked = Expr::bin(Op::BitAnd, flag(four.clone()), Expr::Int(1));
        assert_eq!(simplify(&masked), flag(four.clone()));
        let other = Expr::bin(Op::BitAnd, flag(four), Expr::Int(2));
        assert_eq!(simplify(&other), Expr::Int(0));
        // `max(blockIdx.x * 16, 0)` is the block's origin.
        let origin = Expr::bin(Op::Mul, Expr::var("bid.x"), Expr::Int(16));
        let max = |x: &Expr| {
            Expr::Ite(
                Box::new(Cond::cmp(Rel::Gt, x.clone(), Expr::Int(0))),
                Box::new(x.clone()),
                Box::new(Expr::Int(0)),
            )
        };
        assert_eq!(simplify(&max(&origin)), origin);
        // A value that may be negative keeps its maximum.
        let shifted = Expr::sub(origin, Expr::Int(4));
        assert_eq!(simplify(&max(&shifted)), max(&shifted));
    }

    #[test]
    fn simplify_puts_digits_back_together() {
        let (id, w, h) = (Expr::var("id"), Expr::var("w"), Expr::var("h"));
        let div = |a: &Expr, m: &Expr| Expr::bin(Op::Div, a.clone(), m.clone());
        let rem = |a: &Expr, m: &Expr| Expr::bin(Op::Mod, a.clone(), m.clone());
        let mul = |a: &Expr, m: &Expr| Expr::bin(Op::Mul, a.clone(), m.clone());
        // `j + w * (i + h * k)` with `j = id % w`, `i = id / w % h`, `k =
        // id / w / h`: `id`.
        let k = div(&div(&id, &w), &h);
        let inner = Expr::add(rem(&div(&id, &w), &h), mul(&h, &k));
        let e = Expr::add(rem(&id, &w), mul(&w, &inner));
        assert_eq!(simplify(&e), id);
        // In the other order of terms and factors too.
        let e = Expr::add(mul(&div(&id, &w), &w), rem(&id, &w));
        assert_eq!(simplify(&e), id);
        // Not with another modulus.
        let e = Expr::add(rem(&id, &h), mul(&w, &div(&id, &w)));
        assert_ne!(simplify(&e), id);
    }
}
