//! Mixed-radix injectivity: lemmas that let the solver see, without
//! nonlinear reasoning, that two threads computing the same index from
//! different ids cannot meet.
//!
//! An index such as `(gridDim.x * blockDim.x) * (blockIdx.y * blockDim.y +
//! threadIdx.y) + blockIdx.x * blockDim.x + threadIdx.x` is a number
//! written in mixed radix: each thread-local *digit* `d_i` (an id, or a loop
//! variable less its lower bound) lies in `0..R_i` and is multiplied by a
//! coefficient `c_i`, where `|c_{i+1}| ≥ |c_i| · R_i`. Then two such numbers
//! with the same remaining thread-global part are equal only when every
//! digit is. Z3 rarely finds that on its own (it is nonlinear when the
//! sizes are symbolic) and gives up after its time limit; stated as a lemma
//! it is one linear step. The lemma is a theorem of the encoding, so adding
//! it changes no answer, only how fast it comes.

use crate::analysis::TraceAccess;
use crate::protocol::{builtin, Cond, Expr, Op, Rel};
use std::collections::{BTreeMap, HashMap, HashSet};

/// A polynomial: monomials (sorted variable names, with repetition) to
/// coefficients.
type Poly = BTreeMap<Vec<String>, i128>;

/// How many lower bounds [`Facts::at_least`] chains.
const LOWER_BOUND_STEPS: usize = 3;

/// Polynomials larger than this are not worth decomposing.
const MAX_MONOMIALS: usize = 64;

/// What the trace's assumptions fix about thread-global names: constants,
/// and names equal to one another (`gridDim.x == n`, a launch's grid given
/// by a parameter), each read as one representative so that a bound on
/// either applies to both.
#[derive(Clone, Default)]
struct Known {
    constants: HashMap<String, i64>,
    same: HashMap<String, String>,
}

impl Known {
    fn name<'a>(&'a self, v: &'a str) -> &'a str {
        self.same.get(v).map_or(v, String::as_str)
    }

    fn get(&self, v: &str) -> Option<&i64> {
        self.constants.get(self.name(v))
    }

    /// Representatives for the classes of names `pairs` makes equal:
    /// a launch dimension where the class has one (its positivity is
    /// built in), else the least name.
    fn with_equalities(pairs: &[(&str, &str)]) -> Known {
        let mut parent: HashMap<String, String> = HashMap::new();
        fn root(parent: &HashMap<String, String>, v: &str) -> String {
            let mut v = v.to_string();
            while let Some(p) = parent.get(&v) {
                v = p.clone();
            }
            v
        }
        let better = |a: &str, b: &str| (!builtin::is_dim(a), a) < (!builtin::is_dim(b), b);
        for (a, b) in pairs {
            let (ra, rb) = (root(&parent, a), root(&parent, b));
            if ra == rb {
                continue;
            }
            if better(&ra, &rb) {
                parent.insert(rb, ra);
            } else {
                parent.insert(ra, rb);
            }
        }
        let same = parent
            .keys()
            .map(|v| (v.clone(), root(&parent, v)))
            .collect();
        Known {
            constants: HashMap::new(),
            same,
        }
    }
}

fn poly(e: &Expr, known: &Known) -> Option<Poly> {
    poly_in(e, known, &mut |_| None)
}

/// [`poly`], with the division and remainder subterms that `opaque` names
/// taken as variables of those names.
fn poly_in(
    e: &Expr,
    known: &Known,
    opaque: &mut dyn FnMut(&Expr) -> Option<String>,
) -> Option<Poly> {
    let mut out = Poly::new();
    match e {
        Expr::Int(n) => {
            out.insert(Vec::new(), i128::from(*n));
        }
        Expr::Var(v) => match known.get(v) {
            Some(n) => {
                out.insert(Vec::new(), i128::from(*n));
            }
            None => {
                out.insert(vec![known.name(v).to_string()], 1);
            }
        },
        Expr::Bin(Op::Div | Op::Mod, _, _) => {
            out.insert(vec![opaque(e)?], 1);
        }
        // Shifts right and masks by constants are floor divisions and
        // remainders by powers of two, for negative numbers too.
        Expr::Bin(Op::Shr, _, k) if matches!(**k, Expr::Int(0..=62)) => {
            out.insert(vec![opaque(e)?], 1);
        }
        Expr::Bin(Op::BitAnd, a, b) if mask(a, b).is_some() => {
            out.insert(vec![opaque(e)?], 1);
        }
        // A power of two by a variable exponent (`1 << e`): a number the
        // digits can be over.
        Expr::Bin(Op::Shl | Op::Shr, _, k) if !matches!(**k, Expr::Int(_)) => {
            out.insert(vec![opaque(e)?], 1);
        }
        Expr::Bin(op, a, b) => {
            let (a, b) = (poly_in(a, known, opaque)?, poly_in(b, known, opaque)?);
            match op {
                Op::Add | Op::Sub => {
                    out = a;
                    let sign = if *op == Op::Add { 1 } else { -1 };
                    for (m, c) in b {
                        *out.entry(m).or_default() += sign * c;
                    }
                }
                Op::Mul => {
                    for (ma, ca) in &a {
                        for (mb, cb) in &b {
                            let mut m: Vec<String> = ma.iter().chain(mb).cloned().collect();
                            m.sort();
                            *out.entry(m).or_default() += ca.checked_mul(*cb)?;
                        }
                    }
                }
                Op::Shl => {
                    let k = constant(&b)?;
                    if !(0..62).contains(&k) {
                        return None;
                    }
                    out = a
                        .into_iter()
                        .map(|(m, c)| Some((m, c.checked_mul(1i128 << k)?)))
                        .collect::<Option<_>>()?;
                }
                _ => return None,
            }
        }
        Expr::Ite(..) => return None,
    }
    out.retain(|_, c| *c != 0);
    (out.len() <= MAX_MONOMIALS).then_some(out)
}

/// The constant of `a & b` when one side is a non-negative constant: the
/// result lies in `0..=mask`.
fn mask(a: &Expr, b: &Expr) -> Option<i64> {
    match (a, b) {
        (_, Expr::Int(m @ 0..)) | (Expr::Int(m @ 0..), _) => Some(*m),
        _ => None,
    }
}

fn constant(p: &Poly) -> Option<i128> {
    match p.len() {
        0 => Some(0),
        1 => p.get(&Vec::new()).copied(),
        _ => None,
    }
}

/// A positive magnitude: a constant times a product of variables that are
/// at least 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Magnitude {
    vars: Vec<String>,
    constant: u128,
}

impl Magnitude {
    fn times(&self, o: &Magnitude) -> Option<Magnitude> {
        let mut vars: Vec<String> = self.vars.iter().chain(&o.vars).cloned().collect();
        vars.sort();
        Some(Magnitude {
            vars,
            constant: self.constant.checked_mul(o.constant)?,
        })
    }

    /// `self ≥ o` for every value of the variables (all ≥ 1).
    fn at_least(&self, o: &Magnitude) -> bool {
        let mut mine = self.vars.clone();
        for v in &o.vars {
            match mine.iter().position(|m| m == v) {
                Some(i) => {
                    mine.remove(i);
                }
                None => return false,
            }
        }
        self.constant >= o.constant
    }
}

/// How one access's index (in one dimension) reads as digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// `(coefficient, range)` of each digit, in increasing order (the
    /// last digit's range does not matter and may be unknown).
    places: Vec<(Magnitude, Option<Magnitude>)>,
    /// The thread-global rest, the same for both threads.
    rest: Vec<(Vec<String>, i128)>,
}

impl Shape {
    /// How many digits the numbers of this shape have.
    pub fn places(&self) -> usize {
        self.places.len()
    }
}

/// The monomial `vars` without the factors of `part`, when it has them all.
fn without(vars: &[String], part: &[String]) -> Option<Vec<String>> {
    let mut rest = vars.to_vec();
    for v in part {
        let i = rest.iter().position(|r| r == v)?;
        rest.remove(i);
    }
    Some(rest)
}

/// The product of two monomials.
fn product(a: &[String], b: &[String]) -> Vec<String> {
    let mut vars: Vec<String> = a.iter().chain(b).cloned().collect();
    vars.sort();
    vars
}

/// A digit of an index: its coefficient's magnitude, its range and its
/// expression, with its monomial in the index when the digit is the plain
/// variable under a positive coefficient.
type Term = (
    Magnitude,
    Option<Magnitude>,
    Expr,
    Option<(Vec<String>, i128)>,
);

/// Division and remainder subterms taken as variables: names and
/// expressions.
type Atoms = Vec<(String, Expr)>;

/// The digits of one access, as expressions over the thread's variables,
/// in the order of its shape's places.
pub type Digits = Vec<Expr>;

/// Facts the trace's assumptions give: variables fixed to a constant, and
/// variables known to be at least 1.
#[derive(Clone)]
pub struct Facts {
    known: Known,
    positive: HashSet<String>,
    nonnegative: HashSet<String>,
    /// Thread-global variables assumed at least a polynomial (`ldc >= 16
    /// * gridDim.x`, a precondition asked for): a row length known to
    /// hold a row.
    lower: HashMap<String, Vec<Poly>>,
    /// Variables known not to be 0, of unknown sign (`N` and `T` under
    /// `idx < N * T` for an `idx` never negative). A coefficient or a
    /// remainder's modulus over them has a magnitude: `|N|` is at least 1,
    /// and the encoding's remainder lies in `0..|T|`.
    nonzero: HashSet<String>,
    /// Variables assumed multiples of a constant (`blockDim.x % 32 == 0`:
    /// a block of whole warps), with those constants.
    multiples: HashMap<String, Vec<i128>>,
    /// Thread-global variables assumed at most a product of others (`n <=
    /// H * W`, a precondition asked for): a guard `i < n` keeps `i` below
    /// the product too, the row length of a flat index within a plane.
    ceilings: Vec<(String, Expr)>,
    /// Products of variables known positive where an access runs (`i < H *
    /// W` with `i` never negative), each as its sorted variables.
    positive_products: HashSet<Vec<String>>,
}

impl Facts {
    pub fn new(assumptions: &[Cond]) -> Facts {
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for a in assumptions {
            equal_names(a, &mut pairs);
        }
        let mut f = Facts {
            known: Known::with_equalities(&pairs),
            positive: HashSet::new(),
            nonnegative: HashSet::new(),
            lower: HashMap::new(),
            nonzero: HashSet::new(),
            multiples: HashMap::new(),
            ceilings: Vec::new(),
            positive_products: HashSet::new(),
        };
        for a in assumptions {
            f.add(a);
            ceilings(a, &mut f.ceilings);
        }
        // Twice: a name found positive on the first pass (`w ≥ gridDim.x`)
        // lets a quotient bound it on the second.
        for _ in 0..2 {
            for a in assumptions {
                f.add_lower(a);
            }
        }
        f
    }

    /// Lower bounds of thread-global names by other names: from `a ≥ b`
    /// (or `>`, `≤`, `<`) where one name stands alone with coefficient 1
    /// on the larger side (`i <= block_width - 1`: `block_width ≥ i + 1`),
    /// and from a quotient by a constant (`w == (n - 1) / 16`: `n ≥ 16·w
    /// + 1`, what a launch's `(n - 1) / BLOCK` leaves).
    fn add_lower(&mut self, c: &Cond) {
        let (big, small, strict) = match c {
            Cond::And(a, b) => {
                self.add_lower(a);
                self.add_lower(b);
                return;
            }
            Cond::Cmp(Rel::Ge, a, b) | Cond::Cmp(Rel::Le, b, a) => (a, b, false),
            Cond::Cmp(Rel::Gt, a, b) | Cond::Cmp(Rel::Lt, b, a) => (a, b, true),
            Cond::Cmp(Rel::Eq, Expr::Var(v), q) | Cond::Cmp(Rel::Eq, q, Expr::Var(v)) => {
                // `v = x / k` with `k > 0`: `x ≥ k·v`. C's quotient rounds
                // toward zero (`x >= 0 ? x / k : -(-x / k)`), which is the
                // same where `v ≥ 1`.
                let floor = match q {
                    Expr::Bin(Op::Div, x, k) => Some((x, k)),
                    Expr::Ite(c, then, _) if self.positive(v) => match (&**c, &**then) {
                        (Cond::Cmp(Rel::Ge, y, z), Expr::Bin(Op::Div, x, k))
                            if *y == **x && *z == Expr::Int(0) =>
                        {
                            Some((x, k))
                        }
                        _ => None,
                    },
                    _ => None,
                };
                if let Some((x, &Expr::Int(k @ 1..))) = floor.map(|(x, k)| (x, &**k)) {
                    let scaled = Expr::bin(Op::Mul, Expr::Int(k), Expr::var(v));
                    self.add_lower(&Cond::Cmp(Rel::Ge, (**x).clone(), scaled));
                }
                return;
            }
            _ => return,
        };
        let (Some(big), Some(small)) = (poly(big, &self.known), poly(small, &self.known)) else {
            return;
        };
        // `d ≥ 0`, or `d ≥ 1` when strict.
        let mut d = minus(&big, &small);
        if strict {
            *d.entry(Vec::new()).or_default() -= 1;
        }
        if d.keys().flatten().any(|x| x.contains('@')) {
            return;
        }
        let alone: Vec<String> = d
            .iter()
            .filter(|(vars, c)| vars.len() == 1 && **c == 1)
            .map(|(vars, _)| vars[0].clone())
            .filter(|v| d.keys().filter(|m| m.contains(v)).count() == 1)
            .collect();
        for v in alone {
            // `v + rest ≥ 0`: `v ≥ -rest`.
            let mut bound = d.clone();
            bound.remove(&vec![v.clone()]);
            if bound.keys().all(|m| m.is_empty()) {
                // A constant bound is a fact of its own ([`Self::add`]).
                continue;
            }
            for c in bound.values_mut() {
                *c = -*c;
            }
            if self.plainly_at_least(&bound, 1) {
                self.positive.insert(v.clone());
            }
            // A size may have several (a row length at least the grid's
            // width, and at least its height).
            let bounds = self.lower.entry(v).or_default();
            if !bounds.contains(&bound) {
                bounds.push(bound);
            }
        }
    }

    fn add(&mut self, c: &Cond) {
        match c {
            Cond::And(a, b) => {
                self.add(a);
                self.add(b);
            }
            Cond::Cmp(Rel::Eq, Expr::Bin(Op::Mod, x, k), Expr::Int(0))
            | Cond::Cmp(Rel::Eq, Expr::Int(0), Expr::Bin(Op::Mod, x, k)) => {
                if let (Expr::Var(v), Expr::Int(k @ 2..)) = (&**x, &**k) {
                    self.multiples
                        .entry(self.known.name(v).to_string())
                        .or_default()
                        .push(i128::from(*k));
                }
            }
            Cond::Cmp(rel, Expr::Var(v), Expr::Int(n)) => self.fact(v, *rel, *n),
            Cond::Cmp(rel, Expr::Int(n), Expr::Var(v)) => {
                let flipped = rel.flip();
                self.fact(v, flipped, *n)
            }
            _ => {}
        }
    }

    fn fact(&mut self, v: &str, rel: Rel, n: i64) {
        let v = &self.known.name(v).to_string();
        if matches!((rel, n), (Rel::Eq | Rel::Ge, 0..) | (Rel::Gt, -1..)) {
            self.nonnegative.insert(v.to_string());
        }
        match rel {
            Rel::Eq => {
                self.known.constants.insert(v.to_string(), n);
                if n >= 1 {
                    self.positive.insert(v.to_string());
                }
            }
            Rel::Ge if n >= 1 => {
                self.positive.insert(v.to_string());
            }
            Rel::Gt if n >= 0 => {
                self.positive.insert(v.to_string());
            }
            _ => {}
        }
        // A constant least value beyond 1 (`n >= 16`, a row length a
        // precondition asks for) bounds `n` as a polynomial one does.
        let least = match rel {
            Rel::Ge => Some(i128::from(n)),
            Rel::Gt => Some(i128::from(n) + 1),
            _ => None,
        };
        if let Some(least @ 2..) = least {
            let bound: Poly = [(Vec::new(), least)].into_iter().collect();
            let bounds = self.lower.entry(v.to_string()).or_default();
            if !bounds.contains(&bound) {
                bounds.push(bound);
            }
        }
    }

    fn positive(&self, v: &str) -> bool {
        let v = self.known.name(v);
        builtin::is_dim(v) || self.positive.contains(v)
    }

    /// A monomial with a non-zero coefficient as a magnitude, when all its
    /// variables are positive.
    fn magnitude(&self, vars: &[String], coefficient: i128) -> Option<Magnitude> {
        if coefficient == 0 || !vars.iter().all(|v| self.positive(v)) {
            return None;
        }
        Some(Magnitude {
            vars: vars.to_vec(),
            constant: coefficient.unsigned_abs(),
        })
    }

    /// The magnitude of a monomial's absolute value, when none of its
    /// variables is 0: all injectivity needs of a coefficient, whose sign
    /// does not matter.
    fn abs_magnitude(&self, vars: &[String], coefficient: i128) -> Option<Magnitude> {
        if coefficient == 0
            || !vars
                .iter()
                .all(|v| self.positive(v) || self.nonzero.contains(v))
        {
            return None;
        }
        Some(Magnitude {
            vars: vars.to_vec(),
            constant: coefficient.unsigned_abs(),
        })
    }

    /// A range: a single monomial with a positive constant over variables
    /// that are never negative. (A range of 0 leaves no digit to take.)
    fn range_of(&self, p: &Poly) -> Option<Magnitude> {
        match p.iter().collect::<Vec<_>>().as_slice() {
            [(vars, c)] if **c > 0 => {
                let mut sorted = vars.to_vec();
                sorted.sort();
                let ok = self.positive_products.contains(&sorted)
                    || vars
                        .iter()
                        .all(|v| self.positive(v) || self.nonnegative.contains(v));
                ok.then(|| Magnitude {
                    vars: vars.to_vec(),
                    constant: c.unsigned_abs(),
                })
            }
            _ => None,
        }
    }

    /// The digit shape of `index` (one dimension of an access of thread
    /// `suffix`, `@1` or `@2`), with its digits; `None` when it is not a
    /// mixed-radix number.
    pub fn shape(
        &self,
        index: &Expr,
        access: &TraceAccess,
        suffix: &str,
    ) -> Option<(Shape, Digits)> {
        // Quotients and remainders of the thread's values (an index split
        // into coordinates with runtime sizes and put together again) are
        // digits of their own.
        let (p, atoms) = self.poly_with_atoms(index, suffix)?;
        let this = &self.at_access(access, &atoms, suffix);
        this.shape_of(p.clone(), &atoms, access, suffix, false)
            .or_else(|| this.shape_of(p.clone(), &atoms, access, suffix, true))
            .or_else(|| {
                // A guard `i < n` under `n <= H * W` keeps `i` below the
                // product: the guard by the product, asked first.
                let capped = self.capped_guards(&access.path)?;
                let access = TraceAccess {
                    path: Cond::and(access.path.clone(), capped),
                    ..access.clone()
                };
                self.at_access(&access, &atoms, suffix)
                    .shape_of(p, &atoms, &access, suffix, true)
            })
    }

    /// `a < M` for each guard `a < n` on `path` with `n <= M` assumed.
    fn capped_guards(&self, path: &Cond) -> Option<Cond> {
        strictly_below(path)
            .into_iter()
            .flat_map(|(a, b)| {
                let n = match &b {
                    Expr::Var(n) => Some(n.clone()),
                    _ => None,
                };
                self.ceilings
                    .iter()
                    .filter(move |(v, _)| Some(v) == n.as_ref())
                    .map(move |(_, m)| Cond::cmp(Rel::Lt, a.clone(), m.clone()))
            })
            .reduce(Cond::and)
    }

    /// [`Self::shape`] of the index's polynomial `p`, with facts at the
    /// access, and with sums under guards taken as digits
    /// ([`Self::guarded_digits`]) when `guarded`.
    fn shape_of(
        &self,
        mut p: Poly,
        atoms: &Atoms,
        access: &TraceAccess,
        suffix: &str,
        guarded: bool,
    ) -> Option<(Shape, Digits)> {
        let mut terms: Vec<Term> = if guarded {
            let terms = self.guarded_digits(&mut p, access, suffix);
            if terms.is_empty() {
                return None;
            }
            terms
        } else {
            Vec::new()
        };
        let mut rest = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        for (vars, c) in &p {
            let locals: Vec<&String> = vars.iter().filter(|v| v.ends_with(suffix)).collect();
            match locals.as_slice() {
                [] => rest.push((vars.clone(), *c)),
                [d] => {
                    // One digit may appear in one monomial only.
                    if !seen.insert((*d).clone()) {
                        return None;
                    }
                    let coefficient: Vec<String> =
                        vars.iter().filter(|v| v != d).cloned().collect();
                    let coefficient = self.abs_magnitude(&coefficient, *c)?;
                    let (digit, range, offset) = match atoms.iter().find(|(n, _)| n == *d) {
                        Some((_, e)) => {
                            let range = self
                                .digit_range(e)
                                .or_else(|| self.quotient_range(e, atoms, access, suffix));
                            (e.clone(), range, None)
                        }
                        None => self.digit(d, access, suffix)?,
                    };
                    let offset_free = offset.is_none();
                    // `c · (d - lo) + c · lo`: the second part is global.
                    if let Some(lo) = offset {
                        for (m, k) in lo {
                            let mut m: Vec<String> = m
                                .into_iter()
                                .chain(vars.iter().filter(|v| v != d).cloned())
                                .collect();
                            m.sort();
                            rest.push((m, k.checked_mul(*c)?));
                        }
                    }
                    let plain = (offset_free && *c > 0).then(|| (vars.clone(), *c));
                    terms.push((coefficient, range, digit, plain));
                }
                _ => return None,
            }
        }
        if terms.is_empty() {
            return None;
        }
        terms.sort_by(|a, b| {
            (a.0.vars.len(), a.0.constant, &a.0.vars).cmp(&(
                b.0.vars.len(),
                b.0.constant,
                &b.0.vars,
            ))
        });
        let places_fit = |terms: &[Term]| {
            (1..terms.len()).all(|i| {
                let fits = terms[i - 1]
                    .1
                    .as_ref()
                    .and_then(|r| terms[i - 1].0.times(r))
                    .is_some_and(|needed| terms[i].0.at_least(&needed));
                fits || self.guarded_below(&terms[..i], &terms[i].0, atoms, access, suffix)
            })
        };
        if !places_fit(&terms) {
            // Coefficients order only partly (`W` against `blockDim.x`): a
            // guard on a sum of digits (`col = bx * B + tx < W`) puts them
            // below the others, whatever their coefficients.
            terms = strictly_below(&access.path)
                .into_iter()
                .filter_map(|(a, _)| {
                    let (pa, _) = self.poly_with_atoms(&a, suffix)?;
                    let (lower, upper): (Vec<Term>, Vec<Term>) =
                        terms.iter().cloned().partition(|t| {
                            t.3.as_ref()
                                .is_some_and(|(vars, c)| pa.get(vars) == Some(c))
                        });
                    let regrouped: Vec<Term> = lower.into_iter().chain(upper).collect();
                    (regrouped != terms && places_fit(&regrouped)).then_some(regrouped)
                })
                .next()?;
        }
        let mut merged: BTreeMap<Vec<String>, i128> = BTreeMap::new();
        for (m, c) in rest {
            let mut m = m;
            m.sort();
            *merged.entry(m).or_default() += c;
        }
        merged.retain(|_, c| *c != 0);
        let last = terms.len() - 1;
        let places = terms
            .iter()
            .enumerate()
            .map(|(i, (c, r, _, _))| (c.clone(), if i == last { None } else { r.clone() }))
            .collect();
        let digits = terms.into_iter().map(|(_, _, d, _)| d).collect();
        Some((
            Shape {
                places,
                rest: merged.into_iter().collect(),
            },
            digits,
        ))
    }

    /// Sums of the thread's values under a guard `a < b` that the index
    /// multiplies through (`(by + k · gy) · W` under `by + k · gy < rows`, a
    /// grid-stride loop's row): digits of their own, taken out of `p`, with
    /// `b` for their range. A sum at least 0 below `b` is a digit in range
    /// whatever its parts.
    fn guarded_digits(&self, p: &mut Poly, access: &TraceAccess, suffix: &str) -> Vec<Term> {
        let local = |vars: &[String]| vars.iter().any(|v| v.ends_with(suffix));
        let mut out = Vec::new();
        for (a, b) in &strictly_below(&access.path) {
            let Some((pa, a_atoms)) = self.poly_with_atoms(a, suffix) else {
                continue;
            };
            if pa.len() < 2 || !self.never_negative_at(&pa, &a_atoms, access, suffix) {
                continue;
            }
            let Some(range) = self
                .poly_with_atoms(b, suffix)
                .and_then(|(pb, _)| self.range_of(&pb))
                .filter(|r| !local(&r.vars))
            else {
                continue;
            };
            let Some((t0, c0)) = pa.iter().find(|(vars, _)| local(vars)) else {
                continue;
            };
            // Each monomial of `p` that holds `t0` names a multiplier.
            let multipliers: Vec<(Vec<String>, i128)> = p
                .iter()
                .filter_map(|(vars, c)| {
                    let m = without(vars, t0)?;
                    (c % c0 == 0 && !local(&m)).then(|| (m, c / c0))
                })
                .collect();
            for (m, k) in multipliers {
                let through = pa
                    .iter()
                    .all(|(t, c)| p.get(&product(&m, t)) == c.checked_mul(k).as_ref());
                let Some(coefficient) = self.abs_magnitude(&m, k).filter(|_| through) else {
                    continue;
                };
                for t in pa.keys() {
                    p.remove(&product(&m, t));
                }
                out.push((coefficient, Some(range), a.clone(), None));
                break;
            }
        }
        out
    }

    /// Whether `p` is at least 0 where `access` runs: a sum of terms with
    /// positive coefficients over values never negative there, loop
    /// variables from a start at least 0 among them, or a sum
    /// [`Self::never_negative_sum`] sees to be.
    fn never_negative_at(
        &self,
        p: &Poly,
        atoms: &Atoms,
        access: &TraceAccess,
        suffix: &str,
    ) -> bool {
        let counted = |v: &String| {
            v.ends_with(suffix)
                && self
                    .local_floor(v, atoms, access, suffix)
                    .is_some_and(|f| self.plainly_at_least(&f, 0))
        };
        p.iter()
            .all(|(vars, c)| *c > 0 && vars.iter().all(|v| self.never_negative(v) || counted(v)))
            || self.never_negative_sum(p, atoms)
    }

    /// Whether the digits below a place, summed as the index sums them, stay
    /// below its coefficient by a guard of the access: `bx · B + tx < W`
    /// keeps a row's columns apart from the next row's at `W`, for any
    /// grid. The sum must be at least 0, so each of its terms is a plain
    /// variable with a positive coefficient. A single digit under a
    /// constant (`tx < 8` in a block of 16, a tile) is left to the division
    /// lemmas by that constant, which settle tile kernels sooner.
    fn guarded_below(
        &self,
        lower: &[Term],
        place: &Magnitude,
        atoms: &Atoms,
        access: &TraceAccess,
        suffix: &str,
    ) -> bool {
        let mut sum = Poly::new();
        for (_, _, _, monomial) in lower {
            let Some((vars, c)) = monomial else {
                return false;
            };
            *sum.entry(vars.clone()).or_default() += c;
        }
        if !self.never_negative_sum(&sum, atoms) {
            return false;
        }
        self.guard_ceilings(&access.path, &sum, suffix)
            .iter()
            .filter_map(|p| self.range_of(p))
            .filter(|ceiling| lower.len() > 1 || !ceiling.vars.is_empty())
            .any(|ceiling| place.at_least(&ceiling))
    }

    /// `e` as a polynomial whose division and remainder subterms are
    /// variables (*atoms*) named after their text, with the suffix of the
    /// thread when they mention its variables; with the atoms' expressions.
    fn poly_with_atoms(&self, e: &Expr, suffix: &str) -> Option<(Poly, Atoms)> {
        let mut atoms: Atoms = Vec::new();
        let p = poly_in(e, &self.known, &mut |e| {
            let text = format!("[{e}]");
            let name = if text.contains(suffix) {
                format!("{text}{suffix}")
            } else {
                text
            };
            if !atoms.iter().any(|(n, _)| *n == name) {
                atoms.push((name.clone(), e.clone()));
            }
            Some(name)
        })?;
        Some((p, atoms))
    }

    /// An upper bound of `x` (a polynomial of thread `suffix`) from the
    /// ranges of its thread-local variables: ids below their dimensions,
    /// loop variables below their bounds, remainders below their moduli.
    fn upper_bound(
        &self,
        x: &Poly,
        atoms: &Atoms,
        access: &TraceAccess,
        suffix: &str,
    ) -> Option<Poly> {
        let mut top = Poly::new();
        for (vars, c) in x {
            let (locals, globals): (Vec<&String>, Vec<&String>) =
                vars.iter().partition(|v| v.ends_with(suffix));
            if locals.is_empty() {
                // A term of shared values bounds itself, whatever its sign
                // (an offset every thread adds).
                *top.entry(vars.clone()).or_default() += *c;
                continue;
            }
            if !globals.iter().all(|v| self.never_negative(v)) {
                return None;
            }
            let globals: Vec<String> = globals.into_iter().cloned().collect();
            // A term that subtracts a variable is largest at its floor
            // (`n - 1 - i` at the loop's start).
            let bound: Poly = match locals.as_slice() {
                [d] if *c > 0 => {
                    let mut b = self.local_bound(d, atoms, access, suffix)?;
                    *b.entry(Vec::new()).or_default() -= 1;
                    b
                }
                [d] => self.local_floor(d, atoms, access, suffix)?,
                _ => return None,
            };
            for (m, k) in bound {
                let mut m: Vec<String> = m.into_iter().chain(globals.iter().cloned()).collect();
                m.sort();
                *top.entry(m).or_default() += k.checked_mul(*c)?;
            }
        }
        top.retain(|_, c| *c != 0);
        Some(top)
    }

    /// A thread-global `L` with `L ≤ var`, for a thread-local variable or
    /// atom: 0 for ids and atoms never negative, a loop's start or a floor
    /// of it.
    fn local_floor(
        &self,
        var: &str,
        atoms: &Atoms,
        access: &TraceAccess,
        suffix: &str,
    ) -> Option<Poly> {
        if let Some((_, e)) = atoms.iter().find(|(n, _)| n == var) {
            return self.atom_never_negative(e).then(Poly::new);
        }
        if id_size(var.strip_suffix(suffix)?).is_some() {
            return Some(Poly::new());
        }
        let lo = &access.loops.iter().find(|b| b.var == var)?.lo;
        let (p, lo_atoms) = self.poly_with_atoms(lo, suffix)?;
        let floor = if p.keys().flatten().any(|v| v.ends_with(suffix)) {
            let negated: Poly = p.iter().map(|(m, c)| (m.clone(), -c)).collect();
            let top = self.upper_bound(&negated, &lo_atoms, access, suffix)?;
            top.into_iter().map(|(m, c)| (m, -c)).collect()
        } else {
            p
        };
        // The floor's atoms must mean what the caller's do.
        let foreign = |v: &String| v.starts_with('[') && !atoms.iter().any(|(n, _)| n == v);
        (!floor.keys().flatten().any(foreign)).then_some(floor)
    }

    /// `p ≥ least` for every value: no negative term, and the constant is
    /// `least`, or one less beside a term that is at least 1.
    fn at_least(&self, p: &Poly, least: i128) -> bool {
        self.at_least_within(p, least, LOWER_BOUND_STEPS)
    }

    /// [`Self::at_least`], with up to `steps` lower bounds put in place of
    /// their variables one after another (`n ≥ 16·w + 1` and `w ≥ i`).
    fn at_least_within(&self, p: &Poly, least: i128, steps: usize) -> bool {
        if self.plainly_at_least(p, least) {
            return true;
        }
        if steps == 0 {
            return false;
        }
        // A variable with a lower bound, where `p` grows with it: the bound
        // in its place.
        self.lower.iter().any(|(v, bounds)| {
            let single = vec![v.clone()];
            match p.get(&single) {
                Some(&c) if c > 0 => bounds.iter().any(|bound| {
                    let mut q = p.clone();
                    q.remove(&single);
                    for (m, k) in bound {
                        *q.entry(m.clone()).or_default() += c * k;
                    }
                    q.retain(|_, k| *k != 0);
                    self.at_least_within(&q, least, steps - 1)
                }),
                _ => false,
            }
        })
    }

    fn plainly_at_least(&self, p: &Poly, least: i128) -> bool {
        let constant = p.get(&Vec::new()).copied().unwrap_or(0);
        let terms = p.iter().filter(|(vars, _)| !vars.is_empty());
        // Each term is at least its coefficient where all its variables
        // are positive (at least 1), else at least 0.
        let mut floor = constant;
        for (vars, c) in terms {
            if *c < 0 || !vars.iter().all(|v| self.never_negative(v)) {
                return false;
            }
            if vars.iter().all(|v| self.positive(v)) {
                floor = floor.saturating_add(*c);
            }
        }
        floor >= least
    }

    /// A thread-global `U` with `e ≤ U`. A choice is bounded by its larger
    /// branch's bound, a minimum (`end > N ? N : end`) by either branch's.
    fn bound_of(&self, e: &Expr, access: &TraceAccess, suffix: &str) -> Option<Poly> {
        if let Expr::Ite(c, then, otherwise) = e {
            let minimum = match &**c {
                Cond::Cmp(Rel::Lt | Rel::Le, l, _) => **then == *l,
                Cond::Cmp(Rel::Gt | Rel::Ge, _, r) => **then == *r,
                _ => false,
            };
            let (t, f) = (
                self.bound_of(then, access, suffix),
                self.bound_of(otherwise, access, suffix),
            );
            return match (t, f) {
                (Some(t), Some(f)) => {
                    let t_larger = self.at_least(&minus(&t, &f), 0);
                    let f_larger = self.at_least(&minus(&f, &t), 0);
                    match (minimum, t_larger, f_larger) {
                        (true, true, _) | (false, false, true) => Some(f),
                        (true, false, _) | (false, true, _) => Some(t),
                        (false, false, false) => None,
                    }
                }
                (t, f) if minimum => t.or(f),
                _ => None,
            };
        }
        let (p, atoms) = self.poly_with_atoms(e, suffix)?;
        if p.keys().flatten().any(|v| v.ends_with(suffix)) {
            self.upper_bound(&p, &atoms, access, suffix)
        } else {
            Some(p)
        }
    }

    /// A thread-global bound `b` with `var < b`, for a thread-local
    /// variable or atom.
    fn local_bound(
        &self,
        var: &str,
        atoms: &Atoms,
        access: &TraceAccess,
        suffix: &str,
    ) -> Option<Poly> {
        if let Some((_, e)) = atoms.iter().find(|(n, _)| n == var) {
            let r = self.atom_range(e)?;
            return Some([(r.vars, r.constant as i128)].into_iter().collect());
        }
        if let Some(size) = id_size(var.strip_suffix(suffix)?) {
            let size = poly(&Expr::var(size), &self.known)?;
            // A guard `tid < 8` on the path bounds the id more tightly than
            // a block of 16.
            let guarded = strictly_below(&access.path)
                .into_iter()
                .filter(|(a, _)| matches!(a, Expr::Var(v) if v == var))
                .filter_map(|(_, b)| poly(&b, &self.known))
                .filter_map(|b| b.get(&Vec::new()).copied().filter(|_| b.len() == 1))
                .filter(|k| *k >= 1)
                .min();
            let constant_size = size.get(&Vec::new()).copied().filter(|_| size.len() == 1);
            return Some(match (guarded, constant_size) {
                (Some(k), Some(s)) if k < s => [(Vec::new(), k)].into_iter().collect(),
                (Some(k), None) => [(Vec::new(), k)].into_iter().collect(),
                _ => size,
            });
        }
        // `i < hi`, and `hi ≤` its own bound when it is the thread's
        // (`for (i = 0; i <= row % T; i++)`).
        self.bound_of(
            &access.loops.iter().find(|b| b.var == var)?.hi,
            access,
            suffix,
        )
    }

    /// The bounds `b` of the guards `a < b` on `path` that keep `x` (a
    /// polynomial of thread `suffix`) below them: `a ≥ x` for every value.
    fn guard_bounds(&self, path: &Cond, x: &Poly, suffix: &str) -> Vec<Expr> {
        strictly_below(path)
            .into_iter()
            .filter_map(|(a, b)| {
                let (a, _) = self.poly_with_atoms(&a, suffix)?;
                let d = minus(&a, x);
                if self.at_least(&d, 0) {
                    return Some(b);
                }
                // `a` a constant below `x` (`tid <= n` guarding the column
                // `tid + 1`): `x < b` plus that constant.
                match (d.len(), d.get(&Vec::new()).map(|c| i64::try_from(*c))) {
                    (1, Some(Ok(c))) if c < 0 => {
                        Some(crate::imp::simplify(&Expr::sub(b, Expr::Int(c))))
                    }
                    _ => None,
                }
            })
            .collect()
    }

    /// Polynomials `P` with `x < P` by a guard `a < b` on `path` with `a ≥
    /// x`: `b` itself, and `y` for `b = y / k` (`k ≥ 1`) when `a` is never
    /// negative, which makes `b` positive and so at most `y` (`tid < n / 2`
    /// keeps `tid` below `n`).
    fn guard_ceilings(&self, path: &Cond, x: &Poly, suffix: &str) -> Vec<Poly> {
        let mut out = Vec::new();
        for (a, b) in &strictly_below(path) {
            let Some((pa, a_atoms)) = self.poly_with_atoms(a, suffix) else {
                continue;
            };
            if !self.at_least(&minus(&pa, x), 0) {
                continue;
            }
            out.extend(self.poly_with_atoms(b, suffix).map(|(p, _)| p));
            if let Expr::Bin(Op::Div, y, k) = b {
                if matches!(**k, Expr::Int(1..)) && self.never_negative_sum(&pa, &a_atoms) {
                    out.extend(self.poly_with_atoms(y, suffix).map(|(p, _)| p));
                }
            }
        }
        out
    }

    /// With the facts an access's path gives when it is taken: under
    /// `x < P` with `x` never negative, every variable of the product `P`
    /// is at least 1 (`idx < B * N * d`) when none may be negative, and
    /// is not 0 otherwise.
    fn with_path(&self, path: &Cond, suffix: &str) -> Facts {
        let mut f = self.clone();
        for (a, b) in &strictly_below(path) {
            let (Some((pa, atoms)), Some(pb)) =
                (self.poly_with_atoms(a, suffix), poly(b, &self.known))
            else {
                continue;
            };
            if !self.never_negative_sum(&pa, &atoms) {
                continue;
            }
            if let [(vars, c)] = pb.iter().collect::<Vec<_>>().as_slice() {
                if **c > 0 {
                    // A single variable above a value at least 0 is positive
                    // (`col < W`), whatever its type.
                    if vars.len() == 1 || vars.iter().all(|v| self.never_negative(v)) {
                        f.positive.extend(vars.iter().cloned());
                    } else {
                        f.nonzero.extend(vars.iter().cloned());
                    }
                }
            }
        }
        f
    }

    /// The facts that hold where `access` runs: its path's
    /// ([`Self::with_path`]); `v ≥ 1` for a loop it is in that runs from
    /// at least 0 below `c · v`; and a quotient of the index's that is at
    /// least 1 (`(blockDim.x + 31) / 32`) is positive.
    fn at_access(&self, access: &TraceAccess, atoms: &Atoms, suffix: &str) -> Facts {
        let mut f = self.with_path(&access.path, suffix);
        // A grid-stride loop's row below its bound (`by + k · gy < rows`)
        // makes the bound positive, as an id below it does.
        for (a, b) in &strictly_below(&access.path) {
            if let (Some((pa, a_atoms)), Some(pb)) =
                (self.poly_with_atoms(a, suffix), poly(b, &self.known))
            {
                match pb
                    .iter()
                    .map(|(m, c)| (m.as_slice(), *c))
                    .collect::<Vec<_>>()[..]
                {
                    [([v], 1..)] if self.never_negative_at(&pa, &a_atoms, access, suffix) => {
                        f.positive.insert(v.clone());
                    }
                    // A product above a value never negative is positive,
                    // and none of its factors is 0, whatever their signs.
                    [(vars @ [_, _, ..], 1..)]
                        if !vars.iter().any(|v| v.contains('@'))
                            && self.never_negative_at(&pa, &a_atoms, access, suffix) =>
                    {
                        let mut sorted = vars.to_vec();
                        sorted.sort();
                        f.nonzero.extend(sorted.iter().cloned());
                        f.positive_products.insert(sorted);
                    }
                    _ => {}
                }
            }
        }
        for b in &access.loops {
            let Some(hi) = poly(&b.hi, &f.known) else {
                continue;
            };
            let [(vars, c)] = hi.iter().collect::<Vec<_>>()[..] else {
                continue;
            };
            let [v] = vars.as_slice() else { continue };
            if *c <= 0 || v.contains('@') {
                continue;
            }
            let from_zero = match poly(&b.lo, &f.known) {
                Some(lo) => f.plainly_at_least(&lo, 0),
                None => f
                    .poly_with_atoms(&b.lo, suffix)
                    .is_some_and(|(lo, atoms)| f.never_negative_sum(&lo, &atoms)),
            };
            if from_zero {
                f.positive.insert(v.clone());
            }
        }
        for (name, e) in atoms {
            if let Expr::Bin(Op::Div, a, k) = e {
                if let (Expr::Int(k @ 1..), false) = (&**k, name.ends_with(suffix)) {
                    let exact = matches!(&**a, Expr::Var(v)
                        if f.positive(v) && f.multiples.get(v).is_some_and(|m| m.contains(&i128::from(*k))));
                    if exact
                        || poly(a, &f.known).is_some_and(|a| f.plainly_at_least(&a, i128::from(*k)))
                    {
                        f.positive.insert(name.clone());
                    }
                }
            }
        }
        f
    }

    /// The range of a digit `x / k` (a positive constant `k`) where `x`,
    /// never negative, stays below a thread-global `U`: `U / k` when `k`
    /// divides `U`, or else the index's own quotient `(U + k - 1) / k` when
    /// it has one (the warps of a block, `(blockDim.x + 31) / 32`).
    fn quotient_range(
        &self,
        e: &Expr,
        atoms: &Atoms,
        access: &TraceAccess,
        suffix: &str,
    ) -> Option<Magnitude> {
        let Expr::Bin(Op::Div, x, k) = e else {
            return None;
        };
        let Expr::Int(k @ 1..) = **k else {
            return None;
        };
        let k = i128::from(k);
        let (px, x_atoms) = self.poly_with_atoms(x, suffix)?;
        if !self.never_negative_sum(&px, &x_atoms) {
            return None;
        }
        let mut below = self.upper_bound(&px, &x_atoms, access, suffix)?;
        *below.entry(Vec::new()).or_default() += 1;
        below.retain(|_, c| *c != 0);
        if below.keys().flatten().any(|v| v.ends_with(suffix)) {
            return None;
        }
        if let [(vars, c)] = below.iter().collect::<Vec<_>>()[..] {
            if vars.is_empty() {
                let constant = u128::try_from((c + k - 1) / k).ok()?;
                return Some(Magnitude {
                    vars: Vec::new(),
                    constant,
                });
            }
            if c % k == 0 {
                return self.magnitude(vars, c / k);
            }
            // `x < blockDim.x` with `blockDim.x` a multiple of 32: `x / 32`
            // is below the index's own `blockDim.x / 32`.
            if let Some(name) = self.exact_quotient(atoms, &below, k, suffix) {
                return self.magnitude(std::slice::from_ref(name), 1);
            }
        }
        let mut ceiling = below;
        *ceiling.entry(Vec::new()).or_default() += k - 1;
        ceiling.retain(|_, c| *c != 0);
        let (name, _) = atoms.iter().find(|(name, a)| {
            !name.ends_with(suffix)
                && matches!(a, Expr::Bin(Op::Div, y, d)
                    if **d == Expr::Int(k as i64) && poly(y, &self.known).as_ref() == Some(&ceiling))
        })?;
        self.magnitude(std::slice::from_ref(name), 1)
    }

    /// The thread-global atom `U / k` of `atoms` when `k` divides `U`, a
    /// variable assumed a multiple of `k`.
    fn exact_quotient<'a>(
        &self,
        atoms: &'a Atoms,
        u: &Poly,
        k: i128,
        suffix: &str,
    ) -> Option<&'a String> {
        let [(vars, 1)] = u.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let [v] = vars.as_slice() else { return None };
        if !self.multiples.get(v).is_some_and(|m| m.contains(&k)) {
            return None;
        }
        atoms
            .iter()
            .find(|(name, a)| {
                !name.ends_with(suffix)
                    && matches!(a, Expr::Bin(Op::Div, y, d)
                        if **d == Expr::Int(k as i64) && **y == Expr::var(v))
            })
            .map(|(name, _)| name)
    }

    /// Whether a polynomial (with atoms) is never negative: each term is,
    /// once a term subtracting an id (`gridDim.x - blockIdx.x - 1`) takes
    /// the id at its largest, `size - 1`.
    fn never_negative_sum(&self, p: &Poly, atoms: &Atoms) -> bool {
        let atom_never_negative = |v: &String| {
            atoms
                .iter()
                .any(|(n, e)| n == v && self.atom_never_negative(e))
        };
        let sign_known = |v: &String| self.never_negative(v) || atom_never_negative(v);
        let mut least = Poly::new();
        for (vars, c) in p {
            if !vars.iter().all(sign_known) {
                return false;
            }
            let id = vars
                .iter()
                .position(|v| id_size(v.rsplit_once('@').map_or(v, |(b, _)| b)).is_some());
            match id {
                Some(i) if *c < 0 => {
                    let mut rest = vars.clone();
                    let id = rest.remove(i);
                    let size = id_size(id.rsplit_once('@').map_or(&id, |(b, _)| b)).unwrap();
                    let mut times_size = rest.clone();
                    match self.known.get(size) {
                        Some(n) => {
                            *least.entry(rest.clone()).or_default() += c * (i128::from(*n) - 1);
                        }
                        None => {
                            times_size.push(self.known.name(size).to_string());
                            times_size.sort();
                            *least.entry(times_size).or_default() += c;
                            *least.entry(rest).or_default() -= c;
                        }
                    }
                }
                _ => *least.entry(vars.clone()).or_default() += c,
            }
        }
        least.retain(|_, c| *c != 0);
        least.iter().all(|(vars, c)| {
            *c > 0
                && vars
                    .iter()
                    .all(|v| self.never_negative(v) || atom_never_negative(v))
        })
    }

    /// Whether a division, remainder, shift or mask is never negative in
    /// the encoding: a remainder by a non-zero constant always is, the
    /// rest when their dividend is.
    fn atom_never_negative(&self, e: &Expr) -> bool {
        let dividend_never_negative = |x: &Expr| {
            poly(x, &self.known).is_some_and(|p| {
                p.iter()
                    .all(|(vars, c)| *c >= 0 && vars.iter().all(|v| self.never_negative(v)))
            })
        };
        match e {
            Expr::Bin(Op::Mod, x, r) => {
                matches!(**r, Expr::Int(k) if k != 0) || dividend_never_negative(x)
            }
            Expr::Bin(Op::Div, x, r) => matches!(**r, Expr::Int(1..)) && dividend_never_negative(x),
            Expr::Bin(Op::Shr, x, _) => dividend_never_negative(x),
            Expr::Bin(Op::BitAnd, a, b) => mask(a, b).is_some(),
            _ => false,
        }
    }

    fn never_negative(&self, v: &str) -> bool {
        let v = self.known.name(v);
        let base = v.rsplit_once('@').map_or(v, |(b, _)| b);
        self.positive(v)
            || self.nonnegative.contains(v)
            || builtin::TID.contains(&base)
            || builtin::BID.contains(&base)
    }

    /// The range of a quotient or remainder digit: `x % R` is below `R`,
    /// `(x % (Q * R)) / R` below `Q`; a plain quotient has none (it can only
    /// be the most significant digit).
    fn atom_range(&self, e: &Expr) -> Option<Magnitude> {
        match e {
            Expr::Bin(Op::BitAnd, a, b) => Some(Magnitude {
                vars: Vec::new(),
                constant: mask(a, b)? as u128 + 1,
            }),
            Expr::Bin(Op::Mod, _, r) => {
                let (vars, c) = monomial(r, &self.known)?;
                self.magnitude(&vars, c)
            }
            Expr::Bin(Op::Div, x, r) => match (&**x, &**r) {
                (Expr::Bin(Op::Mod, _, outer), _) => {
                    let by = monomial(r, &self.known)?;
                    // The divisor must be positive for the quotient to be a digit.
                    self.magnitude(&by.0, by.1)?;
                    let (vars, c) = monomial_quotient(monomial(outer, &self.known)?, &by)?;
                    self.magnitude(&vars, c)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// [`Self::atom_range`] for a digit, which needs its range's magnitude
    /// only: a remainder's modulus may have any sign, if it is not 0.
    fn digit_range(&self, e: &Expr) -> Option<Magnitude> {
        if let Expr::Bin(Op::Mod, _, r) = e {
            let (vars, c) = monomial(r, &self.known)?;
            return self.abs_magnitude(&vars, c);
        }
        self.atom_range(e)
    }

    /// A thread-local variable as a digit: the digit expression, its range,
    /// and the lower bound taken off it (a polynomial over globals).
    fn digit(
        &self,
        var: &str,
        access: &TraceAccess,
        suffix: &str,
    ) -> Option<(Expr, Option<Magnitude>, Option<Poly>)> {
        if let Some(size) = id_size(var.strip_suffix(suffix)?) {
            let size = poly(&Expr::var(size), &self.known)?;
            return Some((Expr::var(var), self.range_of(&size), None));
        }
        let b = access.loops.iter().find(|b| b.var == var)?;
        let local = |p: &Poly| p.keys().flatten().any(|v| v.ends_with(suffix));
        // A start of the thread's own that is never negative (the lane in
        // `for (i = lane; …; i += 32)`) is not taken off: the digit is the
        // variable itself, which is at least 0.
        let lo = match poly(&b.lo, &self.known) {
            Some(lo) if !local(&lo) => lo,
            _ => {
                let (p, atoms) = self.poly_with_atoms(&b.lo, suffix)?;
                if !self.never_negative_sum(&p, &atoms) {
                    return None;
                }
                Poly::new()
            }
        };
        let span = |top: Poly| {
            let mut span = top;
            for (m, c) in &lo {
                *span.entry(m.clone()).or_default() -= c;
            }
            span.retain(|_, c| *c != 0);
            self.range_of(&span)
        };
        // A bound of the thread's own is replaced by a bound of it (`i <=
        // row % T`: below `|T|`). Without one (a grid-stride loop from the
        // thread's start) the digit has no range: it can still be the most
        // significant one, which needs none.
        let range = match poly(&b.hi, &self.known) {
            Some(hi) if !local(&hi) => span(hi),
            _ => lo
                .is_empty()
                .then(|| self.remainder_bound(&b.hi, suffix))
                .flatten()
                .or_else(|| span(self.bound_of(&b.hi, access, suffix)?)),
        };
        let digit = if lo.is_empty() {
            Expr::var(var)
        } else {
            Expr::sub(Expr::var(var), b.lo.clone())
        };
        Some((digit, range, (!lo.is_empty()).then_some(lo)))
    }

    /// For a bound `x % R + k` with `k ≤ 1`, the magnitude `|R|`: a value
    /// from 0 below the bound is below `|R|`, whatever `R`'s sign.
    fn remainder_bound(&self, hi: &Expr, suffix: &str) -> Option<Magnitude> {
        let (p, atoms) = self.poly_with_atoms(hi, suffix)?;
        let mut atom = None;
        for (vars, c) in &p {
            match (vars.as_slice(), *c) {
                ([], k) if k <= 1 => {}
                ([a], 1) if atom.is_none() => atom = Some(a),
                _ => return None,
            }
        }
        let (_, e) = atoms.iter().find(|(n, _)| Some(n) == atom)?;
        match e {
            Expr::Bin(Op::Mod, ..) => self.digit_range(e),
            _ => None,
        }
    }
}

/// The dimension a thread or block id is below (`tid.x`: `blockDim.x`).
fn id_size(id: &str) -> Option<&'static str> {
    let dims = [
        (builtin::TID, builtin::BLOCK_DIM),
        (builtin::BID, builtin::GRID_DIM),
    ];
    dims.iter()
        .find_map(|(ids, sizes)| Some(sizes[ids.iter().position(|t| *t == id)?]))
}

/// The pairs of thread-global names `c` assumes equal.
fn equal_names<'c>(c: &'c Cond, out: &mut Vec<(&'c str, &'c str)>) {
    match c {
        Cond::And(a, b) => {
            equal_names(a, out);
            equal_names(b, out);
        }
        Cond::Cmp(Rel::Eq, Expr::Var(a), Expr::Var(b)) if !a.contains('@') && !b.contains('@') => {
            out.push((a, b));
        }
        _ => {}
    }
}

/// `v <= M` assumed, with `v` a thread-global variable and `M` a product
/// of two or more thread-global variables.
fn ceilings(c: &Cond, out: &mut Vec<(String, Expr)>) {
    match c {
        Cond::And(a, b) => {
            ceilings(a, out);
            ceilings(b, out);
        }
        Cond::Cmp(Rel::Le, Expr::Var(v), m) | Cond::Cmp(Rel::Ge, m, Expr::Var(v)) => {
            let mut factors = Vec::new();
            let mut product = true;
            let mut stack = vec![m];
            while let Some(e) = stack.pop() {
                match e {
                    Expr::Bin(Op::Mul, x, y) => {
                        stack.push(x);
                        stack.push(y);
                    }
                    Expr::Var(f) if !f.contains('@') && f != v => factors.push(f),
                    _ => product = false,
                }
            }
            if product && factors.len() >= 2 && !v.contains('@') {
                out.push((v.clone(), m.clone()));
            }
        }
        _ => {}
    }
}

/// Each `a < b` that `path` asserts, `!(a >= b)` included (what
/// `if (idx >= n) return;` leaves), and each of a negated disjunction (what
/// `if (x >= w || y >= h) return;` leaves).
fn strictly_below(path: &Cond) -> Vec<(Expr, Expr)> {
    let mut below = Vec::new();
    // Each condition with whether it is negated.
    let mut conjuncts = vec![(path, false)];
    while let Some((c, negated)) = conjuncts.pop() {
        match (c, negated) {
            (Cond::And(a, b), false) | (Cond::Or(a, b), true) => {
                conjuncts.push((a, negated));
                conjuncts.push((b, negated));
            }
            (Cond::Not(c), _) => conjuncts.push((c, !negated)),
            (Cond::Cmp(Rel::Lt, a, b) | Cond::Cmp(Rel::Gt, b, a), false)
            | (Cond::Cmp(Rel::Ge, a, b) | Cond::Cmp(Rel::Le, b, a), true) => {
                // `tx < N - bx * 32` is also `tx + bx * 32 < N`: the
                // column below its row length, as the lemmas read it.
                let (mut a, mut b) = (a.clone(), b.clone());
                below.push((a.clone(), b.clone()));
                while let Expr::Bin(Op::Sub, x, y) = b {
                    a = Expr::add(a, (*y).clone());
                    b = *x;
                    below.push((a.clone(), b.clone()));
                }
            }
            // `x <= b`, `!(x > b)` (`if (x > bounds.z) return;`): `x < b + 1`.
            (Cond::Cmp(Rel::Le, a, b) | Cond::Cmp(Rel::Ge, b, a), false)
            | (Cond::Cmp(Rel::Gt, a, b) | Cond::Cmp(Rel::Lt, b, a), true) => {
                below.push((
                    a.clone(),
                    crate::imp::simplify(&Expr::add(b.clone(), Expr::Int(1))),
                ));
            }
            _ => {}
        }
    }
    below
}

/// `x / (a * q) == (x / a) / q` for positive `a` and `q`: for every pair of
/// quotients of one dividend `x` whose divisors are monomials, the first
/// dividing the second, the triple `(x / big, x / small, q)`. Stated as
/// lemmas they let the solver link `(x / HS) % NH` to `x / (HS * NH)`
/// without nonlinear reasoning.
pub fn nested_quotients(indexes: &[&Expr]) -> Vec<(Expr, Expr, Expr)> {
    let mut quotients: Vec<(&Expr, &Expr)> = Vec::new();
    for e in indexes {
        collect_quotients(e, &mut quotients);
    }
    let known = Known::default();
    let mut out = Vec::new();
    for (i, (x, small)) in quotients.iter().enumerate() {
        for (j, (y, big)) in quotients.iter().enumerate() {
            if i == j || x != y {
                continue;
            }
            let (Some(s), Some(b)) = (monomial(small, &known), monomial(big, &known)) else {
                continue;
            };
            let Some((bv, k)) = monomial_quotient(b, &s) else {
                continue;
            };
            if bv.is_empty() && k == 1 {
                continue;
            }
            let q = bv
                .iter()
                .map(|v| Expr::var(v))
                .fold(Expr::Int(k as i64), |acc, v| Expr::bin(Op::Mul, acc, v));
            let whole = Expr::bin(Op::Div, (*x).clone(), (*big).clone());
            let part = Expr::bin(Op::Div, (*x).clone(), (*small).clone());
            let triple = (whole, part, q);
            if !out.contains(&triple) {
                out.push(triple);
            }
        }
    }
    out
}

/// The dividends and divisors (not constants) that `indexes` both divide
/// and take the remainder of (`x / d` and `x % d`): a number is its
/// quotient and remainder, so two threads' numbers with equal quotients
/// and equal remainders by one divisor are equal.
pub fn quotient_remainder_pairs(indexes: &[&Expr]) -> Vec<(Expr, Expr)> {
    let mut found = Vec::new();
    for e in indexes {
        divisions(e, &mut found);
    }
    found.retain(|(_, _, d)| super::constant(d).is_none());
    let mut out: Vec<(Expr, Expr)> = Vec::new();
    for &(op, x, d) in &found {
        let pair = (x.clone(), d.clone());
        if op == Op::Div
            && found
                .iter()
                .any(|&(o, y, e)| o == Op::Mod && y == x && e == d)
            && !out.contains(&pair)
        {
            out.push(pair);
        }
    }
    out
}

/// Every division and remainder in `e` (outside conditions), outermost
/// first: the operator, the dividend and the divisor.
pub fn divisions<'e>(e: &'e Expr, out: &mut Vec<(Op, &'e Expr, &'e Expr)>) {
    operations(e, &[Op::Div, Op::Mod], out);
}

/// Every operation by one of `ops` in `e` (outside conditions), outermost
/// first: the operator and its operands.
pub fn operations<'e>(e: &'e Expr, ops: &[Op], out: &mut Vec<(Op, &'e Expr, &'e Expr)>) {
    match e {
        Expr::Bin(op, a, b) => {
            if ops.contains(op) {
                out.push((*op, a, b));
            }
            operations(a, ops, out);
            operations(b, ops, out);
        }
        Expr::Ite(_, a, b) => {
            operations(a, ops, out);
            operations(b, ops, out);
        }
        Expr::Int(_) | Expr::Var(_) => {}
    }
}

fn collect_quotients<'e>(e: &'e Expr, out: &mut Vec<(&'e Expr, &'e Expr)>) {
    let mut found = Vec::new();
    divisions(e, &mut found);
    out.extend(
        found
            .into_iter()
            .filter(|(op, _, d)| *op == Op::Div && super::constant(d).is_none())
            .map(|(_, x, d)| (x, d)),
    );
}

/// `e` as a single monomial with a positive coefficient.
fn monomial(e: &Expr, known: &Known) -> Option<(Vec<String>, i128)> {
    let p = poly(e, known)?;
    match p.into_iter().collect::<Vec<_>>().as_slice() {
        [(vars, c)] if *c > 0 => Some((vars.clone(), *c)),
        _ => None,
    }
}

/// `m / by` when `by` divides the monomial `m` exactly.
fn monomial_quotient(
    (mut vars, c): (Vec<String>, i128),
    (by, k): &(Vec<String>, i128),
) -> Option<(Vec<String>, i128)> {
    if c % k != 0 {
        return None;
    }
    for v in by {
        let i = vars.iter().position(|m| m == v)?;
        vars.remove(i);
    }
    Some((vars, c / k))
}

/// A monomial: sorted variable names and a positive constant.
type Mono = (Vec<String>, i128);

fn mono_times((a, c): &Mono, (b, k): &Mono) -> Option<Mono> {
    let mut vars: Vec<String> = a.iter().chain(b).cloned().collect();
    vars.sort();
    Some((vars, c.checked_mul(*k)?))
}

/// One digit of a dividend `x` in mixed radix: `(x mod hi) div lo`, with
/// no `hi` for the top digit. `lo` divides `hi`.
#[derive(Clone, Debug)]
struct Digit<'e> {
    x: &'e Expr,
    lo: Mono,
    hi: Option<Mono>,
}

/// `e` read as a digit of some dividend, through the forms kernels write
/// them in: `x % r`, `x / P`, `(x / P) % r`, `(x % H) / P`, `(x % H) % r`,
/// nested. Every divisor must be a monomial over variables the facts make
/// non-negative: the identities below need it (they hold for zero under
/// the protocol's `x / 0 = 0`, `x % 0 = x`).
fn digit<'e>(e: &'e Expr, facts: &Facts) -> Option<Digit<'e>> {
    let divisor = |b: &Expr| -> Option<Mono> {
        let m = monomial(b, &Known::default())?;
        m.0.iter()
            .all(|v| facts.nonnegative.contains(v) || facts.positive(v))
            .then_some(m)
    };
    let whole = |x| Digit {
        x,
        lo: (Vec::new(), 1),
        hi: None,
    };
    match e {
        Expr::Bin(Op::Div, a, b) => {
            let b = divisor(b)?;
            let inner = digit(a, facts).unwrap_or_else(|| whole(a));
            // ((x mod hi) div lo) div b = (x mod hi) div (lo b), while lo b
            // still divides hi.
            let lo = mono_times(&inner.lo, &b)?;
            if let Some(hi) = &inner.hi {
                monomial_quotient(hi.clone(), &lo)?;
            }
            Some(Digit { lo, ..inner })
        }
        Expr::Bin(Op::Mod, a, b) => {
            let r = divisor(b)?;
            let inner = digit(a, facts).unwrap_or_else(|| whole(a));
            // ((x mod hi) div lo) mod r = (x mod (lo r)) div lo, when lo r
            // divides hi.
            let hi = mono_times(&inner.lo, &r)?;
            if let Some(outer) = &inner.hi {
                monomial_quotient(outer.clone(), &hi)?;
            }
            Some(Digit {
                hi: Some(hi),
                ..inner
            })
        }
        _ => None,
    }
}

/// `e` with a full mixed-radix recomposition of a dividend `x` replaced by
/// `x`: `(x / (HS*NH)) * NH*HS + ((x / HS) % NH) * HS + x % HS` is `x`.
/// Kernels split a flat thread index into coordinates and index with them
/// again (permutes, attention); the solver cannot see through the
/// nonlinear digits when the radices are symbolic, while the dividend is
/// linear in the thread's ids. `None` when `e` has no such part. The
/// result equals `e` for every assignment the facts allow.
pub fn recomposed(e: &Expr, facts: &Facts) -> Option<Expr> {
    let mut opaque: Atoms = Vec::new();
    let p = atomized(e, &mut opaque, "!digit")?;
    let digits: Vec<(String, Digit)> = opaque
        .iter()
        .filter_map(|(n, t)| Some((n.clone(), digit(t, facts)?)))
        .collect();
    // Each monomial `c * m * digit`: the digit and its coefficient.
    let mut terms: Vec<(Vec<String>, &Digit, Mono)> = Vec::new();
    for (m, c) in &p {
        let ds: Vec<&(String, Digit)> = digits.iter().filter(|(n, _)| m.contains(n)).collect();
        if let [(n, d)] = ds.as_slice() {
            let mut rest = m.clone();
            rest.retain(|v| v != n);
            if *c > 0 && rest.iter().all(|v| !v.starts_with("!digit")) {
                terms.push((m.clone(), d, (rest, *c)));
            }
        }
    }
    // Per dividend, a chain of digits from `lo = 1` up to a top digit, each
    // `hi` the next one's `lo` and each coefficient its `lo`, sums to the
    // dividend.
    let mut rest = p.clone();
    let mut parts: Vec<Expr> = Vec::new();
    let mut done: Vec<&Expr> = Vec::new();
    for (_, d, _) in &terms {
        if done.contains(&d.x) {
            continue;
        }
        done.push(d.x);
        let mut chain: Vec<&Vec<String>> = Vec::new();
        let mut at: Mono = (Vec::new(), 1);
        let complete = loop {
            let Some((m, g, _)) = terms.iter().find(|(m, g, coefficient)| {
                g.x == d.x && g.lo == at && *coefficient == at && !chain.contains(&m)
            }) else {
                break false;
            };
            chain.push(m);
            match &g.hi {
                Some(hi) => at = hi.clone(),
                None => break true,
            }
        };
        if complete {
            for m in chain {
                rest.remove(m);
            }
            parts.push(d.x.clone());
        }
    }
    if parts.is_empty() {
        return None;
    }
    // Opaque names back to their terms in what is left.
    let named: HashMap<&str, &Expr> = opaque.iter().map(|(n, t)| (n.as_str(), t)).collect();
    let mut out = parts.into_iter().reduce(Expr::add)?;
    for (m, c) in rest {
        let term = m
            .iter()
            .map(|v| {
                named
                    .get(v.as_str())
                    .map_or_else(|| Expr::var(v), |t| (*t).clone())
            })
            .fold(Expr::Int(i64::try_from(c).ok()?), |acc, v| {
                Expr::bin(Op::Mul, acc, v)
            });
        out = Expr::add(out, term);
    }
    Some(out)
}

/// `e` with each quotient by a constant, `x / c` or `x >> k`, whose
/// dividend is a multiple of the divisor written as the exact quotient:
/// `(row * width + 2 * t) >> 1` is `row * (width / 2) + t` where the
/// assumptions make `width` a multiple of 2. Vector accesses through a
/// cast (`half2`, `float4`) index by such quotients; the solver, facing a
/// nonlinear dividend, seldom finds on its own that the rounding never
/// happens. An identity of the encoding: both C's truncation and a
/// shift's flooring are exact on multiples. `None` when `e` has none.
pub fn exact_quotients(e: &Expr, facts: &Facts) -> Option<Expr> {
    match e {
        Expr::Bin(op, a, b) => {
            let (ra, rb) = (exact_quotients(a, facts), exact_quotients(b, facts));
            let x = ra.as_ref().unwrap_or(a);
            let divisor = constant_divisor(*op, b).map(i128::from);
            if let Some(q) = divisor.and_then(|c| exactly_divided(x, c, facts)) {
                return Some(q);
            }
            (ra.is_some() || rb.is_some()).then(|| {
                Expr::bin(
                    *op,
                    ra.unwrap_or_else(|| (**a).clone()),
                    rb.unwrap_or_else(|| (**b).clone()),
                )
            })
        }
        Expr::Ite(..) | Expr::Int(_) | Expr::Var(_) => None,
    }
}

/// For each quotient of `e` by a constant `c` whose dividend is not a
/// multiple of `c`, the thread-global variables that every monomial
/// keeping it from one holds: assumed a multiple of `c` (`width % 2 ==
/// 0` for `(row * width + 2 * t) >> 1`), each would make the quotient
/// exact ([`exact_quotients`]). The condition a vector access through a
/// cast needs.
pub fn quotient_multiples(e: &Expr) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    let mut quotients: Vec<(&Expr, i64)> = Vec::new();
    each_quotient(e, &mut quotients);
    for (x, c) in quotients {
        let mut atoms: Atoms = Vec::new();
        let Some(p) = atomized(x, &mut atoms, "!atom") else {
            continue;
        };
        let mut shared: Option<Vec<&String>> = None;
        for (m, coefficient) in &p {
            if coefficient % i128::from(c) != 0 {
                let vars: Vec<&String> = m
                    .iter()
                    .filter(|v| !v.starts_with('!') && !v.contains('@'))
                    .collect();
                shared = Some(match shared {
                    None => vars,
                    Some(s) => s.into_iter().filter(|v| vars.contains(v)).collect(),
                });
            }
        }
        for v in shared.into_iter().flatten() {
            let pair = (v.clone(), c);
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
    }
    out
}

/// The dividends of `e`'s quotients by constants `>= 2` (shifts right
/// included), with their divisors.
fn each_quotient<'e>(e: &'e Expr, out: &mut Vec<(&'e Expr, i64)>) {
    if let Expr::Bin(op, a, b) = e {
        if let Some(c) = constant_divisor(*op, b) {
            out.push((a, c));
        }
        each_quotient(a, out);
        each_quotient(b, out);
    }
}

/// The constant `>= 2` that `op` by `b` divides by: `x / c`, or `x >> k`
/// as `x / 2^k`.
fn constant_divisor(op: Op, b: &Expr) -> Option<i64> {
    match (op, b) {
        (Op::Div, Expr::Int(c @ 2..)) => Some(*c),
        (Op::Shr, Expr::Int(k @ 1..=62)) => Some(1i64 << k),
        _ => None,
    }
}

/// `x / c` as a polynomial in `x`'s terms, when every monomial of `x` is a
/// multiple of `c`: by its coefficient, or by a variable assumed a
/// multiple of a constant (`width % 2 == 0`), which then appears as its
/// own exact quotient `width / 2`.
fn exactly_divided(x: &Expr, c: i128, facts: &Facts) -> Option<Expr> {
    let (p, atoms) = exact_quotient_poly(x, c, facts)?;
    Some(without_unit_factors(expr_with_atoms(&p, &atoms)))
}

/// [`exactly_divided`] as a polynomial over atoms.
fn exact_quotient_poly(x: &Expr, c: i128, facts: &Facts) -> Option<(Poly, Atoms)> {
    let mut atoms: Atoms = Vec::new();
    let p = atomized(x, &mut atoms, "!exact")?;
    let mut out = Poly::new();
    for (m, coefficient) in &p {
        if coefficient % c == 0 {
            *out.entry(m.clone()).or_default() += coefficient / c;
            continue;
        }
        let (i, k) = m.iter().enumerate().find_map(|(i, v)| {
            let ks = facts.multiples.get(facts.known.name(v))?;
            let k = ks.iter().find(|k| (coefficient * *k) % c == 0)?;
            Some((i, *k))
        })?;
        let quotient = Expr::bin(Op::Div, Expr::var(&m[i]), Expr::Int(i64::try_from(k).ok()?));
        let mut m = m.clone();
        m[i] = atom_named(&mut atoms, &quotient, "!exact");
        m.sort();
        *out.entry(m).or_default() += coefficient * k / c;
    }
    out.retain(|_, c| *c != 0);
    Some((out, atoms))
}

/// `c` with each comparison whose sides differ by a multiple of a common
/// factor divided by it: `2 * t + 2 * k * b < width` is `t + k * b < width
/// / 2` where `width` is assumed even. Guards written over the elements of
/// a vector access bound its index in vectors this way, where the radix
/// lemmas read them. `None` when no comparison changes.
pub fn exact_comparisons(c: &Cond, facts: &Facts) -> Option<Cond> {
    let pair = |a: &Cond, b: &Cond| (exact_comparisons(a, facts), exact_comparisons(b, facts));
    match c {
        Cond::Cmp(rel, a, b) => {
            let difference = Expr::sub(a.clone(), b.clone());
            let mut atoms: Atoms = Vec::new();
            let p = atomized(&difference, &mut atoms, "!atom")?;
            // The factor the monomials without a multiple's variable share.
            let mut factor = 0i128;
            for (m, coefficient) in &p {
                let by_multiple = m
                    .iter()
                    .any(|v| facts.multiples.contains_key(facts.known.name(v)));
                if !m.is_empty() && !by_multiple {
                    factor = gcd(factor, coefficient.abs());
                }
            }
            if factor < 2 {
                return None;
            }
            let (q, atoms) = exact_quotient_poly(&difference, factor, facts)?;
            let (mut left, mut right) = (Poly::new(), Poly::new());
            for (m, c) in q {
                if c > 0 {
                    left.insert(m, c);
                } else {
                    right.insert(m, -c);
                }
            }
            let side = |p: &Poly| without_unit_factors(expr_with_atoms(p, &atoms));
            Some(Cond::Cmp(*rel, side(&left), side(&right)))
        }
        Cond::And(a, b) | Cond::Or(a, b) => {
            let (ra, rb) = pair(a, b);
            if ra.is_none() && rb.is_none() {
                return None;
            }
            let (a, b) = (
                ra.unwrap_or_else(|| (**a).clone()),
                rb.unwrap_or_else(|| (**b).clone()),
            );
            Some(match c {
                Cond::And(..) => Cond::And(Box::new(a), Box::new(b)),
                _ => Cond::Or(Box::new(a), Box::new(b)),
            })
        }
        Cond::Not(a) => exact_comparisons(a, facts).map(|a| Cond::Not(Box::new(a))),
        Cond::Bool(_) | Cond::Forall { .. } => None,
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// `e` with a multiple `c · x` of the dividend of a remainder `x % d` it
/// holds written as `c · (d · (x / d) + x % d)`, when `d` is not a
/// constant: `2 * t - t % s` becomes `2 * s * (t / s) + t % s`, where the
/// thread's part is a quotient times the modulus `s` plus a remainder below
/// it, which division lemmas read (the butterflies of sorting networks and
/// FFTs). An identity of the encoding, `x % 0` being `x`. `None` when `e`
/// has no such part.
///
/// `modulus` may name the divisor (a variable equal to it): the number is
/// then a multiple of one variable plus a remainder below it, the shape
/// division lemmas look for.
pub fn decomposed(e: &Expr, modulus: &mut dyn FnMut(&Expr) -> Option<String>) -> Option<Expr> {
    let mut atoms: Atoms = Vec::new();
    let p = atomized(e, &mut atoms, "!atom")?;
    let none = Known::default();
    for (name, t) in atoms.clone() {
        let Expr::Bin(Op::Mod, x, d) = &t else {
            continue;
        };
        if matches!(**d, Expr::Int(_)) {
            continue;
        }
        let (Some(xp), Some(dp)) = (poly(x, &none), atomized(d, &mut atoms, "!atom")) else {
            continue;
        };
        let Some((c, rest)) = take_multiple(&p, &xp).filter(|(c, _)| *c != 0) else {
            continue;
        };
        let mut out = rest;
        *out.entry(vec![name.clone()]).or_default() += c;
        // `c · d · (x / d)`, over a variable naming `d` when there is one,
        // which also stands for the multiples of `d` left in the number.
        let (d, dp) = match modulus(d) {
            Some(n) => {
                let var = Expr::var(&n);
                if let Some(r) = atoms.iter_mut().find(|(a, _)| *a == name) {
                    r.1 = Expr::bin(Op::Mod, (**x).clone(), var.clone());
                }
                if let Some((k, rest)) = take_multiple(&out, &dp) {
                    out = rest;
                    *out.entry(vec![n.clone()]).or_default() += k;
                }
                (var, [(vec![n], 1)].into_iter().collect())
            }
            None => ((**d).clone(), dp),
        };
        let q = format!("!atom{}", atoms.len());
        atoms.push((q.clone(), Expr::bin(Op::Div, (**x).clone(), d)));
        for (m, cd) in &dp {
            let mut m = m.clone();
            m.push(q.clone());
            m.sort();
            *out.entry(m).or_default() += cd * c;
        }
        out.retain(|_, c| *c != 0);
        return Some(expr_with_atoms(&out, &atoms));
    }
    None
}

/// `p` as `c · of + rest`: the multiple of `of` whose monomials that are
/// not constant `p` holds, all scaled alike, and what is left. `None` when
/// `of` is a constant or `p` holds no such multiple.
fn take_multiple(p: &Poly, of: &Poly) -> Option<(i128, Poly)> {
    let mut varying = of.iter().filter(|(m, c)| !m.is_empty() && **c != 0);
    let (m0, c0) = varying.next()?;
    let c = p.get(m0).filter(|pc| *pc % c0 == 0).map(|pc| pc / c0)?;
    let whole = of
        .iter()
        .filter(|(m, k)| !m.is_empty() && **k != 0)
        .all(|(m, k)| p.get(m) == Some(&(k * c)));
    whole.then(|| {
        (
            c,
            minus(p, &of.iter().map(|(m, k)| (m.clone(), k * c)).collect()),
        )
    })
}

/// Whether `d` is at least 1: a constant, or `h + c - k` for some `k < h`
/// that `assumptions` state and a constant `c >= 0` (a stride `n - k` of a
/// loop counting `k` below `n`).
pub fn above_a_bound(d: &Expr, assumptions: &[Cond]) -> bool {
    let mut atoms = Atoms::new();
    let whole = atomized(d, &mut atoms, "!atom").map(|mut p| {
        p.retain(|_, c| *c != 0);
        p
    });
    if let Some(c) = whole.as_ref().and_then(constant) {
        return c >= 1;
    }
    assumptions.iter().flat_map(strictly_below).any(|(k, h)| {
        let mut atoms = Atoms::new();
        let (Some(p), Some(h)) = (
            atomized(&Expr::add(d.clone(), k.clone()), &mut atoms, "!atom"),
            atomized(&h, &mut atoms, "!atom"),
        ) else {
            return false;
        };
        let rest = minus(&p, &h);
        rest.iter().all(|(m, c)| m.is_empty() && *c >= 0)
    })
}

/// `e` as a polynomial whose divisions and remainders are atoms, named in
/// `atoms` (one name per distinct term: `prefix` and a number).
fn atomized(e: &Expr, atoms: &mut Atoms, prefix: &str) -> Option<Poly> {
    poly_in(e, &Known::default(), &mut |t| {
        Some(atom_named(atoms, t, prefix))
    })
}

/// The name of the atom `t` in `atoms`, added under `prefix` and a number
/// when it is new.
fn atom_named(atoms: &mut Atoms, t: &Expr, prefix: &str) -> String {
    if let Some((n, _)) = atoms.iter().find(|(_, o)| o == t) {
        return n.clone();
    }
    let n = format!("{prefix}{}", atoms.len());
    atoms.push((n.clone(), t.clone()));
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Binder;
    use crate::protocol::{Loc, Mode};

    fn v(n: &str) -> Expr {
        Expr::var(n)
    }
    fn mul(a: Expr, b: Expr) -> Expr {
        Expr::bin(Op::Mul, a, b)
    }
    fn add(a: Expr, b: Expr) -> Expr {
        Expr::add(a, b)
    }
    fn access(index: Expr, loops: Vec<Binder>) -> TraceAccess {
        TraceAccess {
            lock: None,
            id: 0,
            mode: Mode::Write,
            loc: Loc::new(1, 1),
            index: vec![index],
            loops,
            path: Cond::Bool(true),
            value: None,
        }
    }

    use proptest::prelude::*;

    /// Evaluates a polynomial expression with the given values.
    fn eval(e: &Expr, env: &HashMap<&str, i64>) -> i64 {
        match e {
            Expr::Int(n) => *n,
            Expr::Var(v) => env[v.as_str()],
            Expr::Bin(Op::Add, a, b) => eval(a, env) + eval(b, env),
            Expr::Bin(Op::Sub, a, b) => eval(a, env) - eval(b, env),
            Expr::Bin(Op::Mul, a, b) => eval(a, env) * eval(b, env),
            Expr::Bin(Op::Div, a, b) => eval(a, env).div_euclid(eval(b, env)),
            Expr::Bin(Op::Mod, a, b) => eval(a, env).rem_euclid(eval(b, env)),
            other => panic!("not generated: {other:?}"),
        }
    }

    #[test]
    fn bounds_of_an_early_return_over_several_axes() {
        // `if (x >= w || y >= h) return;` leaves `x < w` and `y < h`; a
        // disjunction that is not negated leaves neither.
        let ge = |a: &str, b: &str| Cond::cmp(Rel::Ge, v(a), v(b));
        let guard = Cond::Or(Box::new(ge("x", "w")), Box::new(ge("y", "h")));
        let path = Cond::And(
            Box::new(Cond::Not(Box::new(guard.clone()))),
            Box::new(Cond::cmp(Rel::Lt, v("z"), v("d"))),
        );
        let mut below: Vec<String> = strictly_below(&path)
            .into_iter()
            .map(|(a, b)| format!("{a} < {b}"))
            .collect();
        below.sort();
        assert_eq!(below, ["x < w", "y < h", "z < d"]);
        assert!(strictly_below(&guard).is_empty());
        // `!!(h >= y)` is `y <= h`, and `if (x > w) return;` leaves `x <= w`:
        // below one more.
        let twice = Cond::Not(Box::new(Cond::Not(Box::new(ge("h", "y")))));
        let below: Vec<String> = strictly_below(&twice)
            .into_iter()
            .map(|(a, b)| format!("{a} < {b}"))
            .collect();
        assert_eq!(below, ["y < h + 1"]);
        let past = Cond::Not(Box::new(Cond::cmp(Rel::Gt, v("x"), v("w"))));
        let below: Vec<String> = strictly_below(&past)
            .into_iter()
            .map(|(a, b)| format!("{a} < {b}"))
            .collect();
        assert_eq!(below, ["x < w + 1"]);
        // `tx < n - bx * 32` is also read as the column below the row's
        // length.
        let col = Cond::cmp(
            Rel::Lt,
            v("tx"),
            Expr::bin(Op::Sub, v("n"), Expr::bin(Op::Mul, v("bx"), Expr::Int(32))),
        );
        let below: Vec<String> = strictly_below(&col)
            .into_iter()
            .map(|(a, b)| format!("{a} < {b}"))
            .collect();
        assert_eq!(below, ["tx < n - bx * 32", "tx + bx * 32 < n"]);
    }

    #[test]
    fn a_lower_bound_assumed_for_a_size_stands_in_for_it() {
        // `ldc >= blockDim.x * gridDim.x`: then `ldc - (bdx * gdx - 1) >= 1`.
        let bound = Cond::cmp(
            Rel::Ge,
            v("ldc"),
            Expr::bin(Op::Mul, v("blockDim.x"), v("gridDim.x")),
        );
        let f = Facts::new(&[bound, Cond::cmp(Rel::Ge, v("ldc"), Expr::Int(1))]);
        let p = |terms: &[(&[&str], i128)]| -> Poly {
            terms
                .iter()
                .map(|(vars, c)| (vars.iter().map(|s| s.to_string()).collect(), *c))
                .collect()
        };
        let gap = p(&[(&["ldc"], 1), (&["blockDim.x", "gridDim.x"], -1), (&[], 1)]);
        assert!(f.at_least(&gap, 1));
        // Without the assumption, or for a wider remainder, it is not seen.
        assert!(!naturals(&["ldc"]).at_least(&gap, 1));
        let wider = p(&[(&["ldc"], 1), (&["blockDim.x", "gridDim.x"], -2), (&[], 1)]);
        assert!(!f.at_least(&wider, 1));
        // A bound whose terms are at least their coefficients: `ldc >= 128
        // * gridDim.x` holds a row of 128 (`ldc - 127 >= 1`), not of 129.
        let tile = Cond::cmp(Rel::Ge, v("ldc"), mul(Expr::Int(128), v("gridDim.x")));
        let f = Facts::new(&[tile]);
        assert!(f.at_least(&p(&[(&["ldc"], 1), (&[], -127)]), 1));
        assert!(!f.at_least(&p(&[(&["ldc"], 1), (&[], -128)]), 1));
    }

    #[test]
    fn a_guarded_flat_index_is_a_digit_when_its_bound_fits_the_plane() {
        // `c * (H * W) + i` under `i < n`, `c` a channel below `C`: a
        // mixed-radix number only if `n <= H * W`, whatever the signs of `H`
        // and `W` (their product is positive where `i` is below it).
        let plane = mul(v("H"), v("W"));
        let i = add(v("tid.x@1"), mul(v("bid.x"), v("blockDim.x")));
        let idx = add(mul(v("c@1"), plane.clone()), i.clone());
        let loops = vec![Binder {
            var: "c@1".into(),
            lo: Expr::Int(0),
            hi: v("C"),
        }];
        let a = TraceAccess {
            path: Cond::cmp(Rel::Lt, i, v("n")),
            ..access(idx.clone(), loops)
        };
        let fits = Cond::cmp(Rel::Le, v("n"), plane.clone());
        assert!(Facts::new(std::slice::from_ref(&fits))
            .shape(&idx, &a, "@1")
            .is_some());
        assert!(Facts::new(&[]).shape(&idx, &a, "@1").is_none());
        // A bound above the product, or by a sum, is no ceiling.
        let above = Cond::cmp(Rel::Ge, v("n"), plane.clone());
        assert!(Facts::new(&[above]).shape(&idx, &a, "@1").is_none());
        let sum = Cond::cmp(Rel::Le, v("n"), add(v("H"), v("W")));
        assert!(Facts::new(&[sum]).shape(&idx, &a, "@1").is_none());
        // The ceiling is what a caller is asked for.
        assert_eq!(
            Facts::new(&[]).plane_ceilings(&idx, &a, "@1"),
            vec![("n".to_string(), plane)]
        );
    }

    #[test]
    fn a_constant_least_value_bounds_a_row_length() {
        // `m[r * n + threadIdx.x]` in a block of 16 under `n >= 16`: the
        // thread's part stays below the row length, so rows and columns of
        // equal indices are equal. `n >= 15`, or `n > 14`, is not enough.
        let idx = add(mul(v("r@1"), v("n")), v("tid.x@1"));
        let loops = vec![Binder {
            var: "r@1".into(),
            lo: Expr::Int(0),
            hi: Expr::Int(16),
        }];
        let a = access(idx.clone(), loops);
        let split = |assumed: Cond| {
            let f = Facts::new(&[assumed, Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(16))]);
            f.moduli(&idx, "@1").iter().any(|m| {
                f.divide(&idx, m, "@1")
                    .is_some_and(|d| d.remainder_below(&f, m, &a, true))
            })
        };
        assert!(split(Cond::cmp(Rel::Ge, v("n"), Expr::Int(16))));
        assert!(split(Cond::cmp(Rel::Gt, v("n"), Expr::Int(15))));
        assert!(split(Cond::cmp(Rel::Le, Expr::Int(16), v("n"))));
        assert!(!split(Cond::cmp(Rel::Ge, v("n"), Expr::Int(15))));
        assert!(!split(Cond::cmp(Rel::Gt, v("n"), Expr::Int(14))));
    }

    #[test]
    fn a_launchs_quotient_and_equal_names_bound_a_row_length() {
        // What a launch `k<<<d, 16>>>(…, cols, d, tiles)` in a loop `for (d =
        // 1; d <= tiles; d++)` with `tiles = (cols - 1) / 16` leaves: the
        // grid is the parameter, and C's quotient rounds toward zero.
        let x = Expr::bin(Op::Sub, v("cols"), Expr::Int(1));
        let toward_zero = Expr::Ite(
            Box::new(Cond::cmp(Rel::Ge, x.clone(), Expr::Int(0))),
            Box::new(Expr::bin(Op::Div, x.clone(), Expr::Int(16))),
            Box::new(Expr::Int(0)),
        );
        let quotient = Cond::cmp(Rel::Eq, v("tiles"), toward_zero);
        let within = Cond::cmp(Rel::Le, v("d"), v("tiles"));
        let grid = Cond::cmp(Rel::Eq, v("gridDim.x"), v("d"));
        let p = |terms: &[(&[&str], i128)]| -> Poly {
            terms
                .iter()
                .map(|(vars, c)| (vars.iter().map(|s| s.to_string()).collect(), *c))
                .collect()
        };
        // A tile's last column `16 * gridDim.x` is below `cols`.
        let gap = p(&[(&["cols"], 1), (&["gridDim.x"], -16)]);
        let f = Facts::new(&[quotient.clone(), within.clone(), grid.clone()]);
        assert!(f.at_least(&gap, 1));
        // `d` and `gridDim.x` read as one name, positive as a size is.
        assert_eq!(poly(&v("d"), &f.known), poly(&v("gridDim.x"), &f.known));
        assert!(f.positive("d"));
        // Each assumption is needed: without the grid's equality `d` is any
        // number; without `d <= tiles`, `tiles` may be 0 and the quotient
        // of a negative `cols - 1` bounds nothing.
        for dropped in 0..3 {
            let mut some = vec![quotient.clone(), within.clone(), grid.clone()];
            some.remove(dropped);
            assert!(!Facts::new(&some).at_least(&gap, 1), "without {dropped}");
        }
        // A wider tile is not seen to fit.
        let wider = p(&[(&["cols"], 1), (&["gridDim.x"], -17)]);
        assert!(!f.at_least(&wider, 1));
    }

    #[test]
    fn every_lower_bound_of_a_size_is_tried() {
        // A square grid sized from `n - k` (`(n - k) / 16 - 1` tiles each
        // way) bounds `n` by both grid sizes; a column `k + 16 * (bid.x +
        // 1) + tid.x` is below `n` by the one over `gridDim.x`, whatever
        // the sign of the shared offset `k`.
        let at_least = |g: &str| {
            Cond::cmp(
                Rel::Ge,
                v("n"),
                add(mul(Expr::Int(16), add(v(g), Expr::Int(1))), v("k")),
            )
        };
        let f = Facts::new(&[at_least("gridDim.x"), at_least("gridDim.y")]);
        let column = add(
            add(v("k"), mul(Expr::Int(16), add(v("bid.x@1"), Expr::Int(1)))),
            v("tid.x@1"),
        );
        let e = add(mul(v("row@1"), v("n")), column.clone());
        let acc = access(e, Vec::new());
        let gap = |f: &Facts| {
            let (x, atoms) = f.poly_with_atoms(&column, "@1").unwrap();
            let top = f.upper_bound(&x, &atoms, &acc, "@1").unwrap();
            let mut gap: Poly = [(vec!["n".to_string()], 1)].into_iter().collect();
            for (m, c) in top {
                *gap.entry(m).or_default() -= c;
            }
            gap.retain(|_, c| *c != 0);
            gap
        };
        // Blocks wider than the tile pass the row's end.
        assert!(!f.at_least(&gap(&f), 1));
        let tile = Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(16));
        let fixed = Facts::new(&[at_least("gridDim.x"), at_least("gridDim.y"), tile.clone()]);
        assert!(fixed.at_least(&gap(&fixed), 1));
        // With only the bound over the grid's height, it is not seen.
        let one = Facts::new(&[at_least("gridDim.y"), tile]);
        assert!(!one.at_least(&gap(&one), 1));
    }

    proptest! {
        /// Whenever an index is accepted as a mixed-radix number, two
        /// threads reaching the same index have the same digits: the lemma
        /// the solver is given is a theorem.

    #[test]
        fn accepted_shapes_are_injective(
            coefs in proptest::collection::vec((-3i64..=3, 0usize..3), 3),
            bdx in 1i64..=3, bdy in 1i64..=3, n in 1i64..=3, fixed in any::<bool>(),
        ) {
            // Σ c_i · m_i · digit_i with m_i one of 1, blockDim.x, blockDim.x * blockDim.y.
            let digits = ["tid.x@1", "tid.y@1", "j@1"];
            let mults = [Expr::Int(1), v("blockDim.x"), mul(v("blockDim.x"), v("blockDim.y"))];
            let mut e = Expr::Int(0);
            for (i, (c, m)) in coefs.iter().enumerate() {
                e = add(e, mul(mul(Expr::Int(*c), mults[*m].clone()), v(digits[i])));
            }
            let j = Binder { var: "j@1".into(), lo: Expr::Int(0), hi: v("n") };
            let mut assumptions = vec![Cond::cmp(Rel::Ge, v("n"), Expr::Int(1))];
            if fixed {
                assumptions.push(Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(bdx)));
            }
            let facts = Facts::new(&assumptions);
            let Some((_, d)) = facts.shape(&e, &access(e.clone(), vec![j]), "@1") else { return Ok(()) };
            let points: Vec<[i64; 3]> = (0..bdx)
                .flat_map(|x| (0..bdy).flat_map(move |y| (0..n).map(move |k| [x, y, k])))
                .collect();
            let at = |p: &[i64; 3]| -> (i64, Vec<i64>) {
                let env: HashMap<&str, i64> = [("tid.x@1", p[0]), ("tid.y@1", p[1]), ("j@1", p[2]),
                    ("blockDim.x", bdx), ("blockDim.y", bdy), ("n", n)].into_iter().collect();
                (eval(&e, &env), d.iter().map(|x| eval(x, &env)).collect())
            };
            for p in &points {
                for q in &points {
                    let ((a, da), (b, db)) = (at(p), at(q));
                    prop_assert!(a != b || da == db, "{e:?}: {p:?} and {q:?} meet at {a} with digits {da:?} and {db:?}");
                }
            }
        }
    }

    proptest! {
        /// Digits a guard gives (a column below the row's length, a
        /// grid-stride loop's row below the row count) tell apart every
        /// two points where the access runs, for an index written right
        /// or wrong.
        #[test]
        fn guarded_shapes_are_injective(
            row_stride in -1i64..=1, column_bound in -1i64..=1, w in 1i64..=5,
            bdx in 1i64..=3, gdx in 1i64..=3, gdy in 1i64..=2, rows in 0i64..=4,
            grid_level in any::<bool>(),
        ) {
            let (bx, by) = if grid_level { ("bid.x@1", "bid.y@1") } else { ("bid.x", "bid.y") };
            let col = add(mul(v("blockDim.x"), v(bx)), v("tid.x@1"));
            let row = add(v(by), mul(v("k@1"), v("gridDim.y")));
            let e = add(mul(row.clone(), add(v("W"), Expr::Int(row_stride))), col.clone());
            let k = Binder { var: "k@1".into(), lo: Expr::Int(0), hi: Expr::sub(v("R"), v(by)) };
            let mut a = access(e.clone(), vec![k]);
            a.path = Cond::and(
                Cond::cmp(Rel::Lt, col.clone(), add(v("W"), Expr::Int(column_bound))),
                Cond::cmp(Rel::Lt, row, v("R")),
            );
            let bid = |b: &str| Cond::and(
                Cond::cmp(Rel::Ge, v(b), Expr::Int(0)),
                Cond::cmp(Rel::Lt, v(b), v(&format!("gridDim.{}", &b[4..5]))),
            );
            let facts = Facts::new(&[bid(bx), bid(by)]);
            let shape = facts.shape(&e, &a, "@1");
            prop_assert!(shape.is_some() || row_stride != 0 || column_bound != 0);
            let Some((_, d)) = shape else { return Ok(()) };
            let mut points = Vec::new();
            for (t, x, y, j) in launch_points(bdx, gdx, gdy, rows) {
                let env: HashMap<&str, i64> = [("tid.x@1", t), (bx, x), (by, y), ("k@1", j),
                    ("blockDim.x", bdx), ("gridDim.x", gdx), ("gridDim.y", gdy),
                    ("W", w), ("R", rows)].into_iter().collect();
                let runs = eval(&col, &env) < w + column_bound
                    && eval(&add(v(by), mul(v("k@1"), v("gridDim.y"))), &env) < rows
                    && j < rows - y;
                if runs {
                    points.push((eval(&e, &env), d.iter().map(|x| eval(x, &env)).collect::<Vec<_>>()));
                }
            }
            let met = collision(&points);
            prop_assert!(met.is_none(), "{e}: {met:?}");
        }
    }

    proptest! {
        /// Rows and planes of grid-stride loops, each below its bound,
        /// are digits (sums of a block's id and a loop's count): every
        /// two points where the access runs are told apart.
        #[test]
        fn guarded_sums_are_injective(
            plane_stride in -1i64..=1, row_bound in -1i64..=1, w in 1i64..=3,
            rows in 1i64..=3, planes in 0i64..=2, gdy in 1i64..=2, gdz in 1i64..=2,
        ) {
            let col = v("tid.x@1");
            let row = add(v("bid.y@1"), mul(v("i@1"), v("gridDim.y")));
            let plane = add(v("bid.z@1"), mul(v("j@1"), v("gridDim.z")));
            let e = add(
                mul(add(mul(plane.clone(), add(v("R"), Expr::Int(plane_stride))), row.clone()), v("W")),
                col.clone(),
            );
            let i = Binder { var: "i@1".into(), lo: Expr::Int(0), hi: Expr::sub(v("R"), v("bid.y@1")) };
            let j = Binder { var: "j@1".into(), lo: Expr::Int(0), hi: Expr::sub(v("P"), v("bid.z@1")) };
            let mut a = access(e.clone(), vec![i, j]);
            a.path = Cond::and(
                Cond::and(
                    Cond::cmp(Rel::Lt, col.clone(), v("W")),
                    Cond::cmp(Rel::Lt, row.clone(), add(v("R"), Expr::Int(row_bound))),
                ),
                Cond::cmp(Rel::Lt, plane.clone(), v("P")),
            );
            let bid = |b: &str, g: &str| Cond::and(
                Cond::cmp(Rel::Ge, v(b), Expr::Int(0)),
                Cond::cmp(Rel::Lt, v(b), v(g)),
            );
            let facts = Facts::new(&[
                bid("bid.y@1", "gridDim.y"),
                bid("bid.z@1", "gridDim.z"),
                Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(w)),
            ]);
            let shape = facts.shape(&e, &a, "@1");
            // The index written right is seen to be mixed-radix.
            prop_assert!(shape.is_some() || plane_stride != 0 || row_bound != 0);
            let Some((_, d)) = shape else { return Ok(()) };
            let mut points = Vec::new();
            for t in 0..w {
                for y in 0..gdy {
                    for z in 0..gdz {
                        for ii in 0..(rows + 1 - y).max(0) {
                            for jj in 0..(planes - z).max(0) {
                                let env: HashMap<&str, i64> = [("tid.x@1", t), ("bid.y@1", y),
                                    ("bid.z@1", z), ("i@1", ii), ("j@1", jj), ("W", w), ("R", rows),
                                    ("P", planes), ("gridDim.y", gdy), ("gridDim.z", gdz)]
                                    .into_iter().collect();
                                let runs = eval(&row, &env) < rows + row_bound
                                    && eval(&plane, &env) < planes
                                    && ii < rows - y;
                                if runs {
                                    points.push((eval(&e, &env), d.iter().map(|x| eval(x, &env)).collect::<Vec<_>>()));
                                }
                            }
                        }
                    }
                }
            }
            let met = collision(&points);
            prop_assert!(met.is_none(), "{e}: {met:?}");
        }
    }

    /// Two points of `points` (each an index with its digits) that meet at
    /// one index with different digits, if any.
    fn collision(points: &[(i64, Vec<i64>)]) -> Option<String> {
        points.iter().find_map(|(a, da)| {
            points
                .iter()
                .find(|(b, db)| a == b && da != db)
                .map(|(_, db)| format!("meet at {a} with digits {da:?} and {db:?}"))
        })
    }

    /// Every `(tid, bid.x, bid.y, k)` of a small launch.
    fn launch_points(bdx: i64, gdx: i64, gdy: i64, rows: i64) -> Vec<(i64, i64, i64, i64)> {
        let mut out = Vec::new();
        for t in 0..bdx {
            for x in 0..gdx {
                for y in 0..gdy {
                    for j in 0..rows.max(0) {
                        out.push((t, x, y, j));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn a_column_below_the_row_length_is_a_digit_whatever_the_grid() {
        // `dst[row * W + col]` with `col = bx * B + tx < W` and `row` a
        // grid-stride loop's: the column and the row are digits.
        let col = add(mul(v("blockDim.x"), v("bid.x@1")), v("tid.x@1"));
        let row = add(v("bid.y@1"), mul(v("k@1"), v("gridDim.y")));
        let e = add(mul(row.clone(), v("W")), col.clone());
        let k = Binder {
            var: "k@1".into(),
            lo: Expr::Int(0),
            hi: Expr::sub(v("R"), v("bid.y@1")),
        };
        let mut a = access(e.clone(), vec![k]);
        let facts = Facts::new(&[]);
        assert!(facts.shape(&e, &a, "@1").is_none());
        a.path = Cond::and(
            Cond::Not(Box::new(Cond::cmp(Rel::Ge, col.clone(), v("W")))),
            Cond::cmp(Rel::Lt, row.clone(), v("R")),
        );
        let (_, digits) = facts.shape(&e, &a, "@1").expect("a mixed-radix number");
        assert_eq!(digits, [v("tid.x@1"), v("bid.x@1"), v("bid.y@1"), v("k@1")]);
        // Within a block, the thread's part of the column stays below the
        // row's length, by the same guard.
        let e = add(
            mul(add(v("bid.y"), mul(v("k@1"), v("gridDim.y"))), v("W")),
            add(mul(v("blockDim.x"), v("bid.x")), v("tid.x@1")),
        );
        let k = Binder {
            var: "k@1".into(),
            lo: Expr::Int(0),
            hi: Expr::sub(v("R"), v("bid.y")),
        };
        let mut b = access(e.clone(), vec![k]);
        b.path = Cond::cmp(
            Rel::Lt,
            add(mul(v("blockDim.x"), v("bid.x")), v("tid.x@1")),
            v("W"),
        );
        let (_, digits) = facts.shape(&e, &b, "@1").expect("a mixed-radix number");
        assert_eq!(digits, [v("tid.x@1"), v("k@1")]);
        // The row's guard is not needed: the row is the last digit.
        a.path = Cond::Not(Box::new(Cond::cmp(Rel::Ge, col.clone(), v("W"))));
        assert!(facts.shape(&e, &a, "@1").is_some());
        // A column guarded by a bound past the row's length is no digit.
        a.path = Cond::cmp(Rel::Lt, col, add(v("W"), Expr::Int(1)));
        assert!(facts.shape(&e, &a, "@1").is_none());
    }

    #[test]
    fn quotients_and_remainders_recomposed_in_another_order_are_digits() {
        // idx split by runtime sizes (b, h, t, c) and put back as
        // b * T*NH*HS + t * NH*HS + h * HS + c, under idx < B*NH*T*HS.
        let idx = add(mul(v("bid.x@1"), v("blockDim.x")), v("tid.x@1"));
        let div = |a: Expr, b: Expr| Expr::bin(Op::Div, a, b);
        let rem = |a: Expr, b: Expr| Expr::bin(Op::Mod, a, b);
        let prod = |names: &[&str]| names.iter().map(|n| v(n)).reduce(mul).unwrap();
        let rest = rem(idx.clone(), prod(&["NH", "T", "HS"]));
        let b = div(idx.clone(), prod(&["NH", "T", "HS"]));
        let h = div(rest.clone(), prod(&["T", "HS"]));
        let rest2 = rem(rest, prod(&["T", "HS"]));
        let t = div(rest2.clone(), v("HS"));
        let c = rem(rest2, v("HS"));
        let e = add(
            add(
                add(
                    mul(b, prod(&["T", "NH", "HS"])),
                    mul(t, prod(&["NH", "HS"])),
                ),
                mul(h, v("HS")),
            ),
            c,
        );
        let guard = Cond::cmp(Rel::Lt, idx, prod(&["B", "NH", "T", "HS"]));
        let mut a = access(e.clone(), Vec::new());
        // Parameters are natural numbers; without the guard they may be 0
        // and there are no digits.
        let naturals: Vec<Cond> = ["B", "NH", "T", "HS"]
            .iter()
            .map(|p| Cond::cmp(Rel::Ge, v(p), Expr::Int(0)))
            .collect();
        let facts = Facts::new(&naturals);
        assert!(facts.shape(&e, &a, "@1").is_none());
        a.path = guard;
        let (_, digits) = facts.shape(&e, &a, "@1").expect("a mixed-radix number");
        assert_eq!(digits.len(), 4);
        // The digits, evaluated, are the coordinates.
        let env: HashMap<&str, i64> = [
            ("bid.x@1", 2),
            ("blockDim.x", 7),
            ("tid.x@1", 3),
            ("B", 2),
            ("NH", 3),
            ("T", 2),
            ("HS", 4),
        ]
        .into_iter()
        .collect();
        let mut got: Vec<i64> = digits.iter().map(|d| eval(d, &env)).collect();
        got.sort();
        // idx = 17 = ((0 * 3 + 2) * 2 + 0) * 4 + 1: b 0, h 2, t 0, c 1.
        assert_eq!(got, vec![0, 0, 1, 2]);
    }

    #[test]
    fn nested_quotients_of_one_dividend_are_found() {
        let x = add(mul(v("bid.x@1"), v("blockDim.x")), v("tid.x@1"));
        let div = |a: Expr, b: Expr| Expr::bin(Op::Div, a, b);
        let h = Expr::bin(Op::Mod, div(x.clone(), v("HS")), v("NH"));
        let t = div(x.clone(), mul(v("HS"), v("NH")));
        let other = div(v("y@1"), mul(v("HS"), v("NH")));
        let found = nested_quotients(&[&h, &t, &other]);
        assert_eq!(found.len(), 1, "{found:?}");
        let (whole, part, q) = &found[0];
        assert_eq!(*whole, t);
        assert_eq!(*part, div(x, v("HS")));
        // (x / HS) / q == x / (HS * NH) for q = NH.
        let env: HashMap<&str, i64> = [
            ("NH", 3),
            ("HS", 4),
            ("bid.x@1", 5),
            ("blockDim.x", 8),
            ("tid.x@1", 6),
        ]
        .into_iter()
        .collect();
        assert_eq!(eval(q, &env), 3);
        assert_eq!(eval(&div(part.clone(), q.clone()), &env), eval(whole, &env));
    }

    #[test]
    fn division_parts_recompose_the_index() {
        // Size * (bid.x * blockDim.x + tid.x + 1 + t) + bid.y * blockDim.y + tid.y + t
        let row = add(
            add(
                add(mul(v("bid.x@1"), v("blockDim.x")), v("tid.x@1")),
                Expr::Int(1),
            ),
            v("t"),
        );
        let col = add(
            add(mul(v("bid.y@1"), v("blockDim.y")), v("tid.y@1")),
            v("t"),
        );
        let e = add(mul(v("Size"), row), col);
        let facts = Facts::new(&[]);
        let moduli = facts.moduli(&e, "@1");
        let size = moduli
            .iter()
            .find(|m| m.modulus == mul(Expr::Int(1), v("Size")))
            .expect("Size is a modulus");
        let (y, x) = facts.divide(&e, size, "@1").unwrap().parts(false);
        let env: HashMap<&str, i64> = [
            ("bid.x@1", 3),
            ("blockDim.x", 4),
            ("tid.x@1", 2),
            ("t", 5),
            ("Size", 7),
            ("bid.y@1", 1),
            ("blockDim.y", 2),
            ("tid.y@1", 1),
        ]
        .into_iter()
        .collect();
        let ev = |e: &Expr| crate::protocol::eval::eval_expr(e, &|n| env.get(n).copied()).unwrap();
        assert_eq!(ev(&e), 7 * ev(&y) + ev(&x));
        assert_eq!(ev(&x), 1 * 2 + 1 + 5);
    }

    #[test]
    fn two_dimensional_global_id_is_a_mixed_radix_number() {
        // (gridDim.x * blockDim.x) * (bid.y * blockDim.y + tid.y) + bid.x * blockDim.x + tid.x
        let row = add(mul(v("bid.y@1"), v("blockDim.y")), v("tid.y@1"));
        let col = add(mul(v("bid.x@1"), v("blockDim.x")), v("tid.x@1"));
        let e = add(mul(mul(v("gridDim.x"), v("blockDim.x")), row), col);
        let facts = Facts::new(&[]);
        let (shape, digits) = facts
            .shape(&e, &access(e.clone(), vec![]), "@1")
            .expect("a radix number");
        assert_eq!(
            digits,
            vec![v("tid.x@1"), v("bid.x@1"), v("tid.y@1"), v("bid.y@1")]
        );
        assert!(shape.rest.is_empty());
    }

    #[test]
    fn loops_constants_and_what_is_not_a_radix_number() {
        let facts = Facts::new(&[Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(16))]);
        // tid.x + 16 * j for j in 0..n: n may be anything, 16 = blockDim.x.
        let j = Binder {
            var: "j@1".into(),
            lo: Expr::Int(0),
            hi: v("n"),
        };
        let e = add(v("tid.x@1"), mul(Expr::Int(16), v("j@1")));
        let a = access(e.clone(), vec![j.clone()]);
        // `n` is not known to be positive: no magnitude for its range, but
        // the loop digit comes last and needs none.
        assert!(facts.shape(&e, &a, "@1").is_some());
        // tid.x * m + j: the coefficient `m` may be 0, and if not, below n.
        let e = add(mul(v("tid.x@1"), v("m")), v("j@1"));
        assert!(facts
            .shape(&e, &access(e.clone(), vec![j.clone()]), "@1")
            .is_none());
        let positive = Facts::new(&[Cond::cmp(Rel::Ge, v("m"), Expr::Int(1))]);
        assert!(positive
            .shape(&e, &access(e.clone(), vec![j.clone()]), "@1")
            .is_none());
        // tid.x * n + j: where the access runs, 0 <= j < n makes n at least 1.
        let e = add(mul(v("tid.x@1"), v("n")), v("j@1"));
        assert!(facts.shape(&e, &access(e.clone(), vec![j]), "@1").is_some());
        // tid.x + tid.x / 2: not a polynomial.
        let e = add(v("tid.x@1"), Expr::bin(Op::Div, v("tid.x@1"), Expr::Int(2)));
        assert!(facts.shape(&e, &access(e.clone(), vec![]), "@1").is_none());
        // 2 * tid.x + tid.y with blockDim.x symbolic: the places overlap.
        let e = add(mul(Expr::Int(2), v("tid.x@1")), v("tid.y@1"));
        assert!(Facts::new(&[])
            .shape(&e, &access(e.clone(), vec![]), "@1")
            .is_none());
    }

    /// `e` under `env` with the protocol's own arithmetic.
    fn run(e: &Expr, env: &HashMap<&str, i64>) -> i64 {
        crate::protocol::eval::eval_expr(e, &|n| env.get(n).copied()).unwrap()
    }

    fn naturals(names: &[&str]) -> Facts {
        let c: Vec<Cond> = names
            .iter()
            .map(|p| Cond::cmp(Rel::Ge, v(p), Expr::Int(0)))
            .collect();
        Facts::new(&c)
    }

    /// Digits of `x` over radices `r` (innermost first), in one of the two
    /// forms kernels write: `(x / P) % r` or `(x % (P * r)) / P`.
    fn digits(x: &Expr, r: &[Expr], remainder_first: bool) -> Vec<Expr> {
        let div = |a: Expr, b: Expr| Expr::bin(Op::Div, a, b);
        let rem = |a: Expr, b: Expr| Expr::bin(Op::Mod, a, b);
        let mut out = Vec::new();
        let mut place = Expr::Int(1);
        for radix in r {
            let next = mul(place.clone(), radix.clone());
            out.push(if remainder_first {
                div(rem(x.clone(), next.clone()), place.clone())
            } else {
                rem(div(x.clone(), place.clone()), radix.clone())
            });
            place = next;
        }
        out.push(div(x.clone(), place));
        out
    }

    #[test]
    fn a_grid_stride_loop_from_the_threads_start_is_the_top_digit() {
        // for (i = start + tid; i < n; i += blockDim.x): k counts the
        // iterations, below a bound of the thread's own.
        let bound = Expr::sub(v("n"), v("tid.x@1"));
        let k = Binder {
            var: "k@1".into(),
            lo: Expr::Int(0),
            hi: bound,
        };
        let facts = naturals(&["n"]);
        let e = add(v("tid.x@1"), mul(v("k@1"), v("blockDim.x")));
        let (_, digits) = facts
            .shape(&e, &access(e.clone(), vec![k.clone()]), "@1")
            .expect("tid, then k");
        assert_eq!(digits, vec![v("tid.x@1"), v("k@1")]);
        // As a lower digit it would need a range, and has none.
        let low = add(v("k@1"), mul(v("tid.x@1"), v("n")));
        assert!(facts
            .shape(&low, &access(low.clone(), vec![k]), "@1")
            .is_none());
    }

    #[test]
    fn an_early_return_guard_makes_the_sizes_positive() {
        // `if (idx >= M * H) return; … a[idx % H + 4 * (idx / H) * H]`.
        let idx = add(mul(v("bid.x@1"), v("blockDim.x")), v("tid.x@1"));
        let e = add(
            Expr::bin(Op::Mod, idx.clone(), v("H")),
            mul(
                mul(Expr::Int(4), Expr::bin(Op::Div, idx.clone(), v("H"))),
                v("H"),
            ),
        );
        let facts = naturals(&["M", "H"]);
        let mut a = access(e.clone(), Vec::new());
        assert!(
            facts.shape(&e, &a, "@1").is_none(),
            "H may be 0 without the guard"
        );
        a.path = Cond::Not(Box::new(Cond::cmp(Rel::Ge, idx, mul(v("M"), v("H")))));
        let (shape, digits) = facts.shape(&e, &a, "@1").expect("a mixed-radix number");
        assert_eq!(digits.len(), 2, "{shape:?}");
    }

    /// `idx = (gridDim.x - bid.x - 1) * 2 + tid.x / 2` (blocks of four
    /// threads, two rows each, taken last first) and the access
    /// `a[idx * stride + i]` in `for (i = lo; i < hi; …)` under `idx < N * T`.
    fn row_per_pair(lo: Expr, hi: impl Fn(&Expr) -> Expr, stride: Expr) -> (Expr, TraceAccess) {
        let block = Expr::sub(Expr::sub(v("gridDim.x"), v("bid.x@1")), Expr::Int(1));
        let idx = add(
            mul(block, Expr::Int(2)),
            Expr::bin(Op::Div, v("tid.x@1"), Expr::Int(2)),
        );
        let e = add(mul(idx.clone(), stride), v("i@1"));
        let mut a = access(
            e.clone(),
            vec![Binder {
                var: "i@1".into(),
                lo,
                hi: hi(&idx),
            }],
        );
        a.path = Cond::Not(Box::new(Cond::cmp(Rel::Ge, idx, mul(v("N"), v("T")))));
        (e, a)
    }

    #[test]
    fn a_loop_up_to_a_remainder_is_a_digit_below_its_modulus() {
        // for (i = lane; i <= idx % T; i += 2): T is an int of unknown sign,
        // not 0 under the guard.
        let lane = Expr::bin(Op::Mod, v("tid.x@1"), Expr::Int(2));
        let upto = |idx: &Expr| add(Expr::bin(Op::Mod, idx.clone(), v("T")), Expr::Int(1));
        let (e, a) = row_per_pair(lane.clone(), upto, v("T"));
        let facts = Facts::new(&[Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(4))]);
        let (_, digits) = facts.shape(&e, &a, "@1").expect("i, tid.x / 2, bid.x");
        assert_eq!(
            digits,
            vec![
                v("i@1"),
                Expr::bin(Op::Div, v("tid.x@1"), Expr::Int(2)),
                v("bid.x@1")
            ]
        );
        // Without the guard T may be 0; with a start that may be negative
        // the loop variable is no digit from 0.
        let mut unguarded = a.clone();
        unguarded.path = Cond::Bool(true);
        assert!(facts.shape(&e, &unguarded, "@1").is_none());
        let early = Expr::sub(lane, Expr::Int(1));
        let (e, a) = row_per_pair(early, upto, v("T"));
        assert!(facts.shape(&e, &a, "@1").is_none());
    }

    /// `row = bid.x * ((blockDim.x + 1) / 2) + tid.x / 2` (pairs of
    /// threads, rounded up) and `a[row * stride + i]` in `for (i = tid.x % 2;
    /// i < hi; …)`: blocks of any size, not known.
    fn row_per_pair_of_any_block(stride: Expr, hi: Expr, pairs: Expr) -> (Expr, TraceAccess) {
        let row = add(
            mul(v("bid.x@1"), pairs),
            Expr::bin(Op::Div, v("tid.x@1"), Expr::Int(2)),
        );
        let e = add(mul(row, stride), v("i@1"));
        let lane = Expr::bin(Op::Mod, v("tid.x@1"), Expr::Int(2));
        let a = access(
            e.clone(),
            vec![Binder {
                var: "i@1".into(),
                lo: lane,
                hi,
            }],
        );
        (e, a)
    }

    fn rounded_up_pairs() -> Expr {
        Expr::bin(Op::Div, add(v("blockDim.x"), Expr::Int(1)), Expr::Int(2))
    }

    #[test]
    fn a_quotient_below_the_index_own_rounded_up_quotient_is_a_digit() {
        let (e, a) = row_per_pair_of_any_block(v("cols"), v("cols"), rounded_up_pairs());
        let (_, digits) = Facts::new(&[])
            .shape(&e, &a, "@1")
            .expect("i, tid.x / 2, bid.x");
        assert_eq!(digits.len(), 3);
        // Rounded down, the pairs of a block of odd size spill into the
        // next block's: no digit.
        let down = Expr::bin(Op::Div, v("blockDim.x"), Expr::Int(2));
        let (e, a) = row_per_pair_of_any_block(v("cols"), v("cols"), down);
        assert!(Facts::new(&[]).shape(&e, &a, "@1").is_none());
    }

    /// Every accepted shape of such accesses is injective over the points
    /// the access runs at, for every small size (all cases, not a sample:
    /// few of them are accepted).
    #[test]
    fn quotient_digits_of_blocks_of_any_size_are_injective() {
        let mut accepted = 0;
        for (stride, hi, pairs) in launch_points3(
            [v("cols"), add(v("cols"), Expr::Int(-1)), Expr::Int(2)],
            [v("cols"), add(v("cols"), Expr::Int(1)), Expr::Int(3)],
            [
                rounded_up_pairs(),
                Expr::bin(Op::Div, v("blockDim.x"), Expr::Int(2)),
            ],
        ) {
            let (e, a) = row_per_pair_of_any_block(stride, hi, pairs);
            let Some((_, digits)) = Facts::new(&[]).shape(&e, &a, "@1") else {
                continue;
            };
            accepted += 1;
            for (cols, bdx, grid) in launch_points3(-2i64..=4, 1i64..=5, 1i64..=3) {
                assert_digits_injective(&e, &a, &digits, grid, bdx, -2..8, &[("cols", cols)]);
            }
        }
        assert!(accepted > 0);
    }

    /// Asserts that where the access `a` (index `e`, one loop over `i@1`)
    /// runs, for every thread of `grid` blocks of `block` threads and every
    /// `i` in `is`, equal indices have equal digits.
    fn assert_digits_injective(
        e: &Expr,
        a: &TraceAccess,
        digits: &[Expr],
        grid: i64,
        block: i64,
        is: std::ops::Range<i64>,
        sizes: &[(&str, i64)],
    ) {
        let b = &a.loops[0];
        let mut seen: HashMap<i64, Vec<i64>> = HashMap::new();
        for (bid, tid, i) in launch_points3(0..grid, 0..block, is) {
            let mut env: HashMap<&str, i64> = [
                ("bid.x@1", bid),
                ("tid.x@1", tid),
                ("i@1", i),
                ("gridDim.x", grid),
                ("blockDim.x", block),
            ]
            .into_iter()
            .collect();
            env.extend(sizes.iter().copied());
            let look = |x: &str| env.get(x).copied();
            let runs = crate::protocol::eval::eval_cond(&a.path, &look).unwrap()
                && ev(&b.lo, &env) <= i
                && i < ev(&b.hi, &env);
            if !runs {
                continue;
            }
            let ds: Vec<i64> = digits.iter().map(|d| ev(d, &env)).collect();
            let at = ev(e, &env);
            if let Some(other) = seen.insert(at, ds.clone()) {
                assert_eq!(
                    other, ds,
                    "{e:?} meets itself at {at} ({sizes:?}, {block} threads)"
                );
            }
        }
    }

    /// The triples of three iterators' items, the last varying fastest.
    fn launch_points3<A: Clone, B: Clone, C>(
        a: impl IntoIterator<Item = A>,
        b: impl IntoIterator<Item = B> + Clone,
        c: impl IntoIterator<Item = C> + Clone,
    ) -> Vec<(A, B, C)> {
        let mut out = Vec::new();
        for x in a {
            for y in b.clone() {
                for z in c.clone() {
                    out.push((x.clone(), y.clone(), z));
                }
            }
        }
        out
    }

    /// Loops from a start of the thread's own up to bounds of the thread's
    /// own, rows of either sign, blocks in either order: every accepted
    /// shape is injective over the points the access runs at (all small
    /// cases).
    #[test]
    fn loop_digits_with_bounds_of_the_threads_own_are_injective() {
        let lane = Expr::bin(Op::Mod, v("tid.x@1"), Expr::Int(2));
        let starts = [lane.clone(), Expr::Int(0), Expr::sub(lane, Expr::Int(1))];
        let strides = [
            v("T"),
            Expr::sub(v("T"), Expr::Int(1)),
            add(v("T"), Expr::Int(1)),
        ];
        let facts = Facts::new(&[Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(4))]);
        let mut accepted = 0;
        for (lo, hi_kind, stride) in launch_points3(starts, 0..4, strides) {
            let hi = move |idx: &Expr| {
                let r = Expr::bin(Op::Mod, idx.clone(), v("T"));
                [
                    add(r.clone(), Expr::Int(1)),
                    add(r.clone(), Expr::Int(2)),
                    r,
                    v("T"),
                ][hi_kind]
                    .clone()
            };
            let (e, a) = row_per_pair(lo, hi, stride);
            let Some((_, digits)) = facts.shape(&e, &a, "@1") else {
                continue;
            };
            accepted += 1;
            for (t, n, grid) in launch_points3(-3i64..=3, -3i64..=3, 1i64..=3) {
                assert_digits_injective(&e, &a, &digits, grid, 4, -4..8, &[("T", t), ("N", n)]);
            }
        }
        assert!(accepted > 1, "{accepted}");
    }

    #[test]
    fn a_recomposed_flat_index_is_the_flat_index() {
        let idx = add(mul(v("bid.x@1"), v("blockDim.x")), v("tid.x@1"));
        let r = [v("HS"), v("NH"), v("T")];
        for remainder_first in [false, true] {
            let d = digits(&idx, &r, remainder_first);
            // i + h*HS + t*HS*NH + b*HS*NH*T, written in another order.
            let e = add(
                add(
                    mul(d[3].clone(), mul(mul(v("T"), v("NH")), v("HS"))),
                    d[0].clone(),
                ),
                add(
                    mul(d[2].clone(), mul(v("NH"), v("HS"))),
                    mul(d[1].clone(), v("HS")),
                ),
            );
            let facts = naturals(&["HS", "NH", "T"]);
            let got = recomposed(&e, &facts).expect("recomposed");
            assert_eq!(
                poly(&got, &Known::default()),
                poly(&idx, &Known::default()),
                "{got:?}"
            );
        }
    }

    #[test]
    fn swapped_radices_and_unknown_signs_are_left_alone() {
        let x = v("x");
        let r = [v("N"), v("NH")];
        let d = digits(&x, &r, false);
        // nh * N + n * NH: each digit's coefficient is the other radix.
        let swapped = add(
            add(mul(d[0].clone(), v("NH")), mul(d[1].clone(), v("N"))),
            mul(d[2].clone(), mul(v("N"), v("NH"))),
        );
        assert_eq!(recomposed(&swapped, &naturals(&["N", "NH"])), None);
        let right = add(
            add(d[0].clone(), mul(d[1].clone(), v("N"))),
            mul(d[2].clone(), mul(v("N"), v("NH"))),
        );
        assert!(recomposed(&right, &naturals(&["N", "NH"])).is_some());
        // A radix that may be negative: the identity fails there.
        assert_eq!(recomposed(&right, &naturals(&["N"])), None);
    }

    fn ev(e: &Expr, env: &HashMap<&str, i64>) -> i64 {
        crate::protocol::eval::eval_expr(e, &|n| env.get(n).copied()).unwrap()
    }

    #[test]
    fn divisions_take_shifts_and_masks_as_atoms_and_drop_a_shared_rest() {
        // (25·w·h + ((by >> 2)·w + (bx >> 2))·16 + 4·(by & 3) + (bx & 3))·1096 + 4·p
        let shr = |x: &str| Expr::bin(Op::Shr, v(x), Expr::Int(2));
        let and = |x: &str| Expr::bin(Op::BitAnd, v(x), Expr::Int(3));
        let chunk = add(
            add(
                mul(Expr::Int(25), mul(v("w"), v("h"))),
                mul(
                    add(mul(shr("bid.y@1"), v("w")), shr("bid.x@1")),
                    Expr::Int(16),
                ),
            ),
            add(mul(Expr::Int(4), and("bid.y@1")), and("bid.x@1")),
        );
        let e = add(mul(chunk, Expr::Int(1096)), mul(Expr::Int(4), v("p@1")));
        let facts = naturals(&["w", "h"]);
        let env: HashMap<&str, i64> = [
            ("w", 3),
            ("h", 2),
            ("bid.x@1", 7),
            ("bid.y@1", 6),
            ("p@1", 200),
        ]
        .into_iter()
        .collect();
        let m = facts
            .moduli(&e, "@1")
            .into_iter()
            .find(|x| x.key.constant == 1096);
        let m = m.expect("the chunk size is a modulus");
        let d = facts.divide(&e, &m, "@1").expect("a polynomial in atoms");
        let (y, x) = d.parts(false);
        assert_eq!(ev(&e, &env), 1096 * ev(&y, &env) + ev(&x, &env));
        assert_eq!(ev(&x, &env), 800);
        // The chunk by 16: 25·w·h is a rest both threads share.
        let sixteen = facts
            .moduli(&y, "@1")
            .into_iter()
            .find(|x| x.key.constant == 16);
        let sixteen = sixteen.expect("16 is a modulus");
        let d = facts.divide(&y, &sixteen, "@1").unwrap();
        assert_eq!(
            d.global_rest(),
            vec![(vec!["h".to_string(), "w".to_string()], 25)]
        );
        let (q, r) = d.parts(true);
        assert_eq!(ev(&r, &env), 4 * 2 + 3);
        assert_eq!(ev(&y, &env), 16 * ev(&q, &env) + ev(&r, &env) + 25 * 6);
        let a = access(y.clone(), Vec::new());
        // Below 16 by the masks' ranges, but not with the rest kept.
        assert!(d.remainder_below(&facts, &sixteen, &a, true));
        assert!(!d.remainder_below(&facts, &sixteen, &a, false));
    }

    #[test]
    fn tensor_strides_nest_innermost_first_over_their_ids_extents() {
        // i1 · nb1 + i2 · nb2 + (tid + bz) · nb3 + i0, with i0 < ne00 a
        // loop: each stride's extent is its ids' bound, the innermost part
        // ends at ne00.
        let facts = naturals(&["nb1", "nb2", "nb3", "ne00"]);
        let index = add(
            add(
                add(mul(v("bid.x@1"), v("nb1")), mul(v("bid.y@1"), v("nb2"))),
                mul(add(v("tid.x@1"), v("bid.z@1")), v("nb3")),
            ),
            v("i0@1"),
        );
        let i0 = Binder {
            var: "i0@1".into(),
            lo: v("tid.x@1"),
            hi: v("ne00"),
        };
        let a = access(index.clone(), vec![i0]);
        let s = facts.strides(&index, &a, "@1").expect("three strides");
        assert_eq!(s.inner, vec![v("ne00")]);
        let nested = s.nested(&["nb1", "nb2", "nb3"]).unwrap().to_string();
        assert_eq!(
            nested,
            "nb1 >= ne00 && nb2 >= nb1 * gridDim.x && nb3 >= nb2 * gridDim.y"
        );
        // The last stride's ids reach blockDim.x + gridDim.z - 2.
        let (_, extent) = s.strides.iter().find(|(t, _)| t == "nb3").unwrap();
        assert_eq!(extent.to_string(), "-1 + blockDim.x + gridDim.z");
        // One stride is a row length, not a nesting.
        let row = add(mul(v("bid.x@1"), v("nb1")), v("tid.x@1"));
        assert!(facts
            .strides(&row, &access(row.clone(), vec![]), "@1")
            .is_none());
    }

    #[test]
    fn planes_added_a_constant_number_of_times_exceed_the_threads_part() {
        // id + 2 · plane with id = bx · 512 + ty · 8 + tx under tx, ty < 8:
        // the plane holds the grid's blocks up to the last one's 64 cells,
        // the guard tighter than a block of 16 × 16.
        let facts = Facts::new(&[
            Cond::cmp(Rel::Ge, v("plane"), Expr::Int(0)),
            Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(16)),
            Cond::cmp(Rel::Eq, v("blockDim.y"), Expr::Int(16)),
        ]);
        let id = add(
            add(
                mul(v("bid.x@1"), Expr::Int(512)),
                mul(v("tid.y@1"), Expr::Int(8)),
            ),
            v("tid.x@1"),
        );
        let index = add(id, mul(Expr::Int(2), v("plane")));
        let mut a = access(index.clone(), vec![]);
        a.path = Cond::and(
            Cond::cmp(Rel::Lt, v("tid.x@1"), Expr::Int(8)),
            Cond::cmp(Rel::Lt, v("tid.y@1"), Expr::Int(8)),
        );
        let lengths = facts.row_lengths(&index, &a, "@1");
        let wanted = "-448 + 512 * gridDim.x";
        assert!(
            lengths
                .iter()
                .any(|r| r.w == "plane" && r.least().to_string() == wanted),
            "{lengths:?}"
        );
        // Without the guard, the ids reach the block's 16 × 16.
        a.path = Cond::Bool(true);
        let lengths = facts.row_lengths(&index, &a, "@1");
        assert!(
            lengths.iter().all(|r| r.least().to_string() != wanted),
            "{lengths:?}"
        );
        assert!(!lengths.is_empty());
    }

    #[test]
    fn padded_row_lengths_are_moduli() {
        // (n + 1) · (16 · by + ty + 1) + tx + 1, as Rodinia's backprop
        // indexes its weights: the row length is n + 1.
        let n1 = add(v("n"), Expr::Int(1));
        let row = add(
            add(mul(Expr::Int(16), v("bid.y@1")), v("tid.y@1")),
            Expr::Int(1),
        );
        let e = add(
            add(mul(n1.clone(), row.clone()), v("tid.x@1")),
            Expr::Int(1),
        );
        let facts = Facts::new(&[
            Cond::cmp(Rel::Ge, v("n"), Expr::Int(16)),
            Cond::cmp(Rel::Eq, v("blockDim.x"), Expr::Int(16)),
        ]);
        let m = facts.moduli(&e, "@1").into_iter().find(|m| m.modulus == n1);
        let m = m.expect("n + 1 is a modulus");
        let d = facts.divide(&e, &m, "@1").unwrap();
        let (y, x) = d.parts(false);
        let env: HashMap<&str, i64> = [("n", 20), ("bid.y@1", 3), ("tid.y@1", 5), ("tid.x@1", 7)]
            .into_iter()
            .collect();
        assert_eq!(ev(&y, &env), ev(&row, &env));
        assert_eq!(ev(&x, &env), 8);
        assert_eq!(ev(&e, &env), 21 * ev(&y, &env) + ev(&x, &env));
        // Below n + 1 under a guard `tx + 1 < n + 1`, not without one.
        let mut guarded = access(e.clone(), Vec::new());
        let x1 = add(v("tid.x@1"), Expr::Int(1));
        guarded.path = Cond::cmp(Rel::Lt, x1, n1.clone());
        assert!(d.remainder_below(&facts, &m, &guarded, false));
        assert!(!d.remainder_below(&naturals(&["n"]), &m, &access(e.clone(), Vec::new()), false));
        // The last column of a row, `(i + 1) · (n + 2) + n + 1`: row i + 1,
        // column n + 1, below n + 2.
        let n2 = add(v("n"), Expr::Int(2));
        let i1 = add(v("tid.x@1"), Expr::Int(1));
        let last = add(add(mul(i1.clone(), n2.clone()), v("n")), Expr::Int(1));
        let m = facts
            .moduli(&last, "@1")
            .into_iter()
            .find(|m| m.modulus == n2);
        let d = facts
            .divide(&last, &m.expect("n + 2 is a modulus"), "@1")
            .unwrap();
        let (y, x) = d.parts(false);
        assert_eq!(ev(&y, &env), ev(&i1, &env));
        assert_eq!(ev(&x, &env), 21);
        // Without a bound on n the row may be narrower than a block: the
        // least a caller must ensure is n + 1 > blockDim.x - 1, the largest
        // column once the 1 both threads add is set aside.
        let open = naturals(&["n"]);
        let lengths = open.row_lengths(&e, &access(e.clone(), Vec::new()), "@1");
        assert!(
            lengths
                .iter()
                .any(|r| r.w == "n" && r.least() == add(Expr::Int(-1), v("blockDim.x"))),
            "{lengths:?}"
        );
    }

    #[test]
    fn rows_within_planes_have_lengths_of_their_own() {
        // (z · ny + y) · nx + x under x < sx and y < sy: a row is nx long
        // and holds sx cells, a plane ny rows and holds sy of them.
        let (x, y, z) = (v("tid.x@1"), v("tid.y@1"), v("tid.z@1"));
        let index = add(mul(add(mul(z, v("ny")), y.clone()), v("nx")), x.clone());
        let mut a = access(index.clone(), Vec::new());
        a.path = Cond::and(
            Cond::cmp(Rel::Lt, x, v("sx")),
            Cond::cmp(Rel::Lt, y, v("sy")),
        );
        let facts = naturals(&["nx", "ny", "sx", "sy"]);
        let lengths = facts.row_lengths(&index, &a, "@1");
        for (w, least) in [("nx", "sx"), ("ny", "sy")] {
            assert!(
                lengths
                    .iter()
                    .any(|r| r.w == w && r.least().to_string() == least),
                "{w}: {lengths:?}"
            );
        }
    }

    #[test]
    fn remainders_are_bounded_by_digit_ranges_guards_and_loop_minimums() {
        let facts = naturals(&["nx"]);
        let below = |x: &Expr, m: Expr, a: &TraceAccess| {
            let index = add(mul(m.clone(), v("q@1")), x.clone());
            let modulus = facts
                .moduli(&index, "@1")
                .into_iter()
                .find(|k| k.modulus == mul(Expr::Int(1), m.clone()) || k.modulus == m)
                .expect("a modulus");
            let d = facts.divide(&index, &modulus, "@1").unwrap();
            d.remainder_below(&facts, &modulus, a, false)
        };
        // tid + blockDim.x is below 2·blockDim.x; tid + 2 need not be.
        let twice = mul(Expr::Int(2), v("blockDim.x"));
        let second = add(v("tid.x@1"), v("blockDim.x"));
        assert!(below(
            &second,
            twice.clone(),
            &access(second.clone(), Vec::new())
        ));
        let two_on = add(v("tid.x@1"), Expr::Int(2));
        assert!(!below(
            &two_on,
            twice.clone(),
            &access(two_on.clone(), Vec::new())
        ));
        // A global column is below nx only under its guard.
        let i = add(mul(v("bid.x@1"), v("blockDim.x")), v("tid.x@1"));
        let mut a = access(i.clone(), Vec::new());
        assert!(!below(&i, v("nx"), &a));
        a.path = Cond::cmp(Rel::Lt, i.clone(), Expr::sub(v("nx"), Expr::Int(1)));
        assert!(below(&i, v("nx"), &a));
        // for (p = 18·t; p < min(18·t + 18, 1089); p++): p is below 1096.
        let base = mul(Expr::Int(18), v("tid.x@1"));
        let end = add(base.clone(), Expr::Int(18));
        let loop_to = |hi: Expr| {
            let b = Binder {
                var: "p@1".into(),
                lo: base.clone(),
                hi,
            };
            access(v("p@1"), vec![b])
        };
        let min = Expr::Ite(
            Box::new(Cond::cmp(Rel::Gt, end.clone(), Expr::Int(1089))),
            Box::new(Expr::Int(1089)),
            Box::new(end.clone()),
        );
        assert!(below(&v("p@1"), Expr::Int(1096), &loop_to(min)));
        // The maximum of the two has no bound.
        let max = Expr::Ite(
            Box::new(Cond::cmp(Rel::Gt, end.clone(), Expr::Int(1089))),
            Box::new(end.clone()),
            Box::new(Expr::Int(1089)),
        );
        assert!(!below(&v("p@1"), Expr::Int(1096), &loop_to(max)));
    }

    #[test]
    fn a_column_counted_down_borrows_a_row_and_a_halved_guard_bounds_it() {
        // A ring per thread: `ring < n / 2`, `for i in ring..n - 1 - ring`.
        let facts = Facts::new(&[]);
        let ring = add(mul(v("bid.x@1"), Expr::Int(256)), v("tid.x@1"));
        let last = Expr::sub(Expr::sub(v("n"), Expr::Int(1)), ring.clone());
        let i = Binder {
            var: "i@1".into(),
            lo: ring.clone(),
            hi: last.clone(),
        };
        let guarded = |index: Expr| {
            let mut a = access(index, vec![i.clone()]);
            a.path = Cond::cmp(
                Rel::Lt,
                ring.clone(),
                Expr::bin(Op::Div, v("n"), Expr::Int(2)),
            );
            a
        };
        let by_n = |index: &Expr| {
            facts
                .moduli(index, "@1")
                .into_iter()
                .find(|m| m.modulus == v("n") || m.modulus == mul(Expr::Int(1), v("n")))
                .expect("n is a modulus")
        };
        let env: HashMap<&str, i64> = [("n", 9), ("bid.x@1", 0), ("tid.x@1", 2), ("i@1", 4)]
            .into_iter()
            .collect();
        // `i·n + (n - 1 - ring)` reads `(i + 1)·n - 1 - ring`, a negative
        // remainder, until a row is borrowed back.
        let right = add(mul(v("i@1"), v("n")), last.clone());
        // `(n - 1 - i)·n + ring`: the remainder is below `n` by the guard.
        let left = add(
            mul(
                Expr::sub(last.clone(), Expr::sub(v("i@1"), ring.clone())),
                v("n"),
            ),
            ring.clone(),
        );
        for (index, row, column) in [
            (&right, v("i@1"), last.clone()),
            (
                &left,
                Expr::sub(Expr::sub(v("n"), Expr::Int(1)), v("i@1")),
                ring.clone(),
            ),
        ] {
            let a = guarded(index.clone());
            let m = by_n(index);
            let d = facts
                .divide(index, &m, "@1")
                .unwrap()
                .borrowing(&facts, &m, &a);
            assert!(d.remainder_below(&facts, &m, &a, false), "{index:?}");
            let (y, x) = d.parts(false);
            assert_eq!(ev(&y, &env), ev(&row, &env), "{y:?}");
            assert_eq!(ev(&x, &env), ev(&column, &env), "{x:?}");
        }
        // Without the guard, nothing keeps `ring` below `n`.
        let a = access(left.clone(), vec![i.clone()]);
        let m = by_n(&left);
        let d = facts
            .divide(&left, &m, "@1")
            .unwrap()
            .borrowing(&facts, &m, &a);
        assert!(!d.remainder_below(&facts, &m, &a, false));
        // A remainder that may be in range is left as it is.
        let plain = add(mul(v("ring@1"), v("n")), v("i@1"));
        let a = guarded(plain.clone());
        let m = by_n(&plain);
        let d = facts
            .divide(&plain, &m, "@1")
            .unwrap()
            .borrowing(&facts, &m, &a);
        assert_eq!(ev(&d.parts(false).1, &env), 4);
    }

    proptest! {
        /// Whatever the rewrite accepts equals what it replaces, for every
        /// value of the dividend and every non-negative radix (zero
        /// included), in both digit forms, with digits left out, repeated
        /// or given wrong coefficients, and with other terms beside them.
        #[test]
        fn recomposition_agrees_with_the_evaluator(
            radices in proptest::collection::vec(0usize..4, 1..4),
            remainder_first in any::<bool>(),
            coefficient_of in proptest::collection::vec(0usize..5, 4),
            extra in -2i64..=2,
            values in proptest::collection::vec(0i64..5, 3),
            xs in proptest::collection::vec(-40i64..120, 6),
        ) {
            let names = ["A", "B", "C"];
            let r: Vec<Expr> = radices
                .iter()
                .map(|&i| if i == 3 { Expr::Int(4) } else { v(names[i]) })
                .collect();
            let x = add(mul(v("y"), Expr::Int(3)), v("z"));
            let d = digits(&x, &r, remainder_first);
            // Place values 1, r0, r0 r1, …; a coefficient index past them
            // picks a wrong one (or drops the digit).
            let mut places = vec![Expr::Int(1)];
            for radix in &r {
                places.push(mul(places.last().unwrap().clone(), radix.clone()));
            }
            let mut e = mul(Expr::Int(extra), v("w"));
            for (k, digit) in d.iter().enumerate() {
                let c = coefficient_of.get(k).copied().unwrap_or(k);
                let c = if c == 4 { k } else { c };
                if c < places.len() {
                    e = add(e, mul(digit.clone(), places[c].clone()));
                }
            }
            let facts = naturals(&names);
            let Some(got) = recomposed(&e, &facts) else { return Ok(()) };
            for &y in &xs {
                let env: HashMap<&str, i64> = [("A", values[0]), ("B", values[1]), ("C", values[2]),
                    ("y", y), ("z", 1), ("w", 5)].into_iter().collect();
                prop_assert_eq!(run(&e, &env), run(&got, &env), "{:?} became {:?}", e, got);
            }
        }

        /// A dividend written out as quotient and remainder keeps the
        /// value, for every sign of dividend and divisor (zero included),
        /// multiples of the dividend that do not cover it, and other terms.
        #[test]
        fn decomposition_agrees_with_the_evaluator(
            c in -3i64..=3, k in -3i64..=3, whole in any::<bool>(), extra in -2i64..=2,
            divisor_shift in -2i64..=2,
            xs in proptest::collection::vec((-40i64..40, -6i64..6, -3i64..3), 8),
        ) {
            // `c * (2y + z) - k * ((2y + z) % (s + shift)) + extra * w`,
            // with `z` dropped from the multiple unless `whole`.
            let x = add(mul(Expr::Int(2), v("y")), v("z"));
            let multiple = if whole { x.clone() } else { mul(Expr::Int(2), v("y")) };
            let d = add(v("s"), Expr::Int(divisor_shift));
            let e = add(
                Expr::bin(Op::Sub, mul(Expr::Int(c), multiple), mul(Expr::Int(k), Expr::bin(Op::Mod, x, d))),
                mul(Expr::Int(extra), v("w")),
            );
            let Some(got) = decomposed(&e, &mut |_| None) else { return Ok(()) };
            prop_assert!(whole && c != 0, "{:?} became {:?}", e, got);
            for &(y, z, s) in &xs {
                let env: HashMap<&str, i64> =
                    [("y", y), ("z", z), ("s", s), ("w", 3)].into_iter().collect();
                prop_assert_eq!(run(&e, &env), run(&got, &env), "{:?} became {:?}", e, got);
            }
        }
    }

    #[test]
    fn quotients_of_multiples_are_exact_and_guards_lose_their_common_factor() {
        let even = Cond::cmp(
            Rel::Eq,
            Expr::bin(Op::Mod, v("w"), Expr::Int(2)),
            Expr::Int(0),
        );
        let facts = Facts::new(std::slice::from_ref(&even));
        let two = |e: Expr| mul(Expr::Int(2), e);
        let stride = || mul(v("k@1"), mul(v("b"), Expr::Int(2)));
        // `(row * w + 2 * t + k * (b * 2)) >> 1`, a half2 cell's index.
        let dividend = add(add(mul(v("row@1"), v("w")), two(v("t@1"))), stride());
        let cell = Expr::bin(Op::Shr, dividend, Expr::Int(1));
        let exact = exact_quotients(&cell, &facts).expect("an exact quotient");
        let mut found = Vec::new();
        divisions(&exact, &mut found);
        assert!(
            found.iter().all(|(_, x, _)| **x == v("w")),
            "only `w / 2` is left: {exact}"
        );
        // `2 * t + k * (b * 2) < w` reads `t + k * b < w / 2`.
        let guard = Cond::cmp(Rel::Lt, add(two(v("t@1")), stride()), v("w"));
        let halved = exact_comparisons(&guard, &facts).expect("a common factor");
        let Cond::Cmp(Rel::Lt, _, Expr::Bin(Op::Div, w, _)) = &halved else {
            panic!("not a comparison with `w / 2`: {halved}");
        };
        assert_eq!(**w, v("w"));
        let truth = |c: &Cond, env: &HashMap<&str, i64>| {
            crate::protocol::eval::eval_cond(c, &|n| env.get(n).copied()).unwrap()
        };
        for w in (-6..=6).filter(|w| w % 2 == 0) {
            for row in -3..=3 {
                for t in -3..=3 {
                    for k in -2..=2 {
                        for b in -2..=2 {
                            let env: HashMap<&str, i64> =
                                [("w", w), ("row@1", row), ("t@1", t), ("k@1", k), ("b", b)].into();
                            assert_eq!(ev(&exact, &env), ev(&cell, &env), "{env:?}");
                            assert_eq!(truth(&halved, &env), truth(&guard, &env), "{env:?}");
                        }
                    }
                }
            }
        }
        // Without the fact, or with an odd term, nothing is exact.
        assert!(exact_quotients(&cell, &Facts::new(&[])).is_none());
        let odd = Expr::bin(
            Op::Shr,
            add(mul(v("row@1"), v("w")), v("t@1")),
            Expr::Int(1),
        );
        assert!(exact_quotients(&odd, &facts).is_none());
        let odd_guard = Cond::cmp(Rel::Lt, add(two(v("t@1")), Expr::Int(1)), v("w"));
        assert!(exact_comparisons(&odd_guard, &facts).is_none());
        // What would make the cell's quotient exact: `w` a multiple of 2;
        // the odd term `t` leaves no such variable.
        assert_eq!(quotient_multiples(&cell), vec![("w".to_string(), 2)]);
        assert!(quotient_multiples(&odd).is_empty());
    }

    #[test]
    fn a_butterfly_index_reads_as_quotient_times_modulus_plus_remainder() {
        let t = v("tid.x");
        let e = Expr::bin(
            Op::Sub,
            mul(Expr::Int(2), t.clone()),
            Expr::bin(Op::Mod, t.clone(), v("s")),
        );
        let got = decomposed(&e, &mut |_| None).expect("decomposed");
        let text = got.to_string();
        assert!(
            text.contains("tid.x / s") && !text.contains("2 * tid.x"),
            "{text}"
        );
        // A constant divisor is left to the digit lemmas.
        let e = Expr::bin(
            Op::Sub,
            mul(Expr::Int(2), t.clone()),
            Expr::bin(Op::Mod, t, Expr::Int(4)),
        );
        assert_eq!(decomposed(&e, &mut |_| None), None);
    }
}

/// One way to read an index as `W · Y + X`: a positive thread-global
/// modulus `W` (a coefficient of a thread-local term), and for each access
/// its quotient part `Y` (the monomials `W` divides, divided) and its
/// remainder part `X` (the others). When `0 ≤ X < W` for both threads,
/// equal indices have equal `Y` and equal `X`: division is unique. The
/// solver checks the premise itself, from the guards (`if (col < width)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Modulus {
    pub modulus: Expr,
    key: Magnitude,
    /// `W` is `key + offset`: a padded row length (`(n + 1) * row + col`,
    /// whose polynomial form `n·row + row + col` no longer shows it).
    offset: i128,
}

/// A number divided by a [`Modulus`]: its quotient and remainder parts.
pub struct Division {
    y: Poly,
    x: Poly,
    atoms: Atoms,
    suffix: String,
}

impl Division {
    /// The remainder part's thread-global monomials.
    pub fn global_rest(&self) -> Vec<(Vec<String>, i128)> {
        self.x
            .iter()
            .filter(|(vars, _)| !vars.iter().any(|v| v.ends_with(&self.suffix)))
            .map(|(m, c)| (m.clone(), *c))
            .collect()
    }

    /// Whether the remainder part (without its thread-global monomials
    /// when `drop_globals`) is below `m` wherever `access` runs, as far as
    /// a look without the solver tells: by the ranges of its digits, or by
    /// a guard `X < b` with `b ≤ W`. Divisions whose premise cannot be
    /// seen this way are seldom of use and slow the solver down.
    pub fn remainder_below(
        &self,
        facts: &Facts,
        m: &Modulus,
        access: &TraceAccess,
        drop_globals: bool,
    ) -> bool {
        let mut x = self.x.clone();
        if drop_globals {
            x.retain(|vars, _| vars.iter().any(|v| v.ends_with(&self.suffix)));
        }
        let facts = &facts.with_path(&access.path, &self.suffix);
        let mut w: Poly = [(m.key.vars.clone(), m.key.constant as i128)]
            .into_iter()
            .collect();
        if m.offset != 0 {
            *w.entry(Vec::new()).or_default() += m.offset;
        }
        if let Some(top) = facts.upper_bound(&x, &self.atoms, access, &self.suffix) {
            if facts.at_least(&minus(&w, &top), 1) {
                return true;
            }
        }
        facts
            .guard_ceilings(&access.path, &x, &self.suffix)
            .iter()
            .any(|b| facts.at_least(&minus(&w, b), 0))
    }

    /// The same number with one row borrowed when the remainder is
    /// negative wherever `access` runs: `i·n - 1 - tid` is row `i - 1`,
    /// column `n - 1 - tid`. A remainder never in range makes no lemma.
    pub fn borrowing(mut self, facts: &Facts, m: &Modulus, access: &TraceAccess) -> Division {
        let facts = facts.with_path(&access.path, &self.suffix);
        let negative = facts
            .upper_bound(&self.x, &self.atoms, access, &self.suffix)
            .is_some_and(|top| facts.at_least(&minus(&Poly::new(), &top), 1));
        if negative {
            *self.y.entry(Vec::new()).or_default() -= 1;
            *self.x.entry(m.key.vars.clone()).or_default() += m.key.constant as i128;
            *self.x.entry(Vec::new()).or_default() += m.offset;
            self.y.retain(|_, c| *c != 0);
            self.x.retain(|_, c| *c != 0);
        }
        self
    }

    /// Whether the remainder part (without its thread-global monomials
    /// when `drop_globals`) is zero: the number is a whole count of `W`
    /// (`row * cols`, a row's first cell), in range exactly when `W ≥ 1`.
    pub fn remainder_is_zero(&self, drop_globals: bool) -> bool {
        self.x.iter().all(|(vars, c)| {
            *c == 0 || (drop_globals && !vars.iter().any(|v| v.ends_with(&self.suffix)))
        })
    }

    /// `(Y, X)` as expressions, without `X`'s thread-global monomials when
    /// `drop_globals` (they are the same for both threads, so equal numbers
    /// stay equal without them).
    pub fn parts(&self, drop_globals: bool) -> (Expr, Expr) {
        let mut x = self.x.clone();
        if drop_globals {
            x.retain(|vars, _| vars.iter().any(|v| v.ends_with(&self.suffix)));
        }
        (
            expr_with_atoms(&self.y, &self.atoms),
            expr_with_atoms(&x, &self.atoms),
        )
    }
}

impl Facts {
    /// The moduli worth trying for `index`: the coefficients of its
    /// thread-local terms, when positive and not 1.
    pub fn moduli(&self, index: &Expr, suffix: &str) -> Vec<Modulus> {
        let Some((p, atoms)) = self.poly_with_atoms(index, suffix) else {
            return Vec::new();
        };
        // A global division is a modulus only when exact (`width / 2` of
        // an even `width`, what a vector access's index is in): the
        // others round, and their products seldom recompose an index.
        let exact = |v: &String| {
            atoms.iter().any(|(n, e)| {
                n == v
                    && matches!(e, Expr::Bin(Op::Div, x, k)
                        if matches!((&**x, &**k), (Expr::Var(x), Expr::Int(k))
                            if self.multiples.get(self.known.name(x)).is_some_and(|m| m.contains(&i128::from(*k)))))
            })
        };
        let mut out: Vec<Modulus> = Vec::new();
        for (vars, c) in &p {
            if !vars.iter().any(|v| v.ends_with(suffix)) {
                continue;
            }
            // The lemma's premise `0 ≤ X < W` makes `W` positive itself: any
            // thread-global coefficient will do, but not a global division.
            let globals: Vec<String> = vars
                .iter()
                .filter(|v| !v.ends_with(suffix))
                .cloned()
                .collect();
            if globals.iter().any(|v| v.starts_with('[') && !exact(v)) {
                continue;
            }
            let m = Magnitude {
                vars: globals,
                constant: c.unsigned_abs(),
            };
            if m.vars.is_empty() && m.constant <= 1 {
                continue;
            }
            // A row of `w` cells stepped by several rows at once (`w *
            // (8 * (tid / 64) + r) + col`) divides by `w` itself too: the
            // multiple of `w` is no bound on the column.
            let mut keys = vec![m.clone()];
            if m.constant > 1 && !m.vars.is_empty() {
                keys.push(Magnitude {
                    vars: m.vars.clone(),
                    constant: 1,
                });
            }
            for key in keys {
                if !out.iter().any(|o| o.key == key && o.offset == 0) {
                    let c = i64::try_from(key.constant).unwrap_or(i64::MAX);
                    out.push(Modulus {
                        modulus: expr_with_atoms(
                            &[(key.vars.clone(), i128::from(c))].into_iter().collect(),
                            &atoms,
                        ),
                        key,
                        offset: 0,
                    });
                }
            }
            // `(v + c) · Y + X` reads `v·Y + c·Y + X`: the thread's terms of
            // `Y` come back, `c` times, beside `v`'s.
            if let ([v], 1) = (m.vars.as_slice(), m.constant) {
                let mut rest = vars.clone();
                let Some(at) = rest.iter().position(|x| x == v) else {
                    continue;
                };
                rest.remove(at);
                let Some(&beside) = p.get(&rest).filter(|b| **b != 0) else {
                    continue;
                };
                if beside % c != 0 || beside / c < 1 {
                    continue;
                }
                let offset = beside / c;
                if !out.iter().any(|o| o.key == m && o.offset == offset) {
                    out.push(Modulus {
                        modulus: Expr::add(Expr::var(v), Expr::Int(offset as i64)),
                        key: m,
                        offset,
                    });
                }
            }
        }
        out
    }

    /// The columns of `index` a row length may bound though no guard says
    /// so: for each modulus by thread-global sizes (`W` in `W * row + X`),
    /// the remainder part `X` with terms of the thread's own, as `(X, W)`.
    /// A solver may find `0 <= X < W` implied by the access's path and the
    /// launch (`tid + blockDim.x` under `!(W % 2 && tid == blockDim.x -
    /// 1)` in blocks of `(W + 1) / 2` threads).
    pub fn unguarded_columns(&self, index: &Expr, suffix: &str) -> Vec<(Expr, Expr)> {
        let mut out = Vec::new();
        for m in self.moduli(index, suffix) {
            let sizes = !m.key.vars.is_empty()
                && m.key
                    .vars
                    .iter()
                    .all(|v| !v.ends_with(suffix) && !v.starts_with('['));
            if m.offset != 0 || !sizes {
                continue;
            }
            let Some(d) = self.divide(index, &m, suffix) else {
                continue;
            };
            if !d.x.keys().flatten().any(|v| v.ends_with(suffix)) {
                continue;
            }
            let column = (expr_with_atoms(&d.x, &d.atoms), m.modulus.clone());
            if !out.contains(&column) {
                out.push(column);
            }
        }
        out
    }

    /// `index` (of the thread of `suffix`) divided by `m`.
    pub fn divide(&self, index: &Expr, m: &Modulus, suffix: &str) -> Option<Division> {
        let (p, atoms) = self.poly_with_atoms(index, suffix)?;
        let (mut y, mut x) = (Poly::new(), Poly::new());
        for (vars, c) in p {
            let mut rest = vars.clone();
            let divides = m
                .key
                .vars
                .iter()
                .all(|v| match rest.iter().position(|r| r == v) {
                    Some(i) => {
                        rest.remove(i);
                        true
                    }
                    None => false,
                })
                && c % (m.key.constant as i128) == 0;
            if divides {
                *y.entry(rest).or_default() += c / m.key.constant as i128;
            } else {
                *x.entry(vars).or_default() += c;
            }
        }
        // `W = key + offset`: the remainder gives back `offset · Y`.
        for (vars, c) in &y {
            *x.entry(vars.clone()).or_default() -= m.offset * c;
        }
        // A negative constant rest borrows whole rows: `(i + 1) · (n + 2)
        // + n + 1` is row `i + 1`, column `n + 1`, not row `i + 2`, column
        // `-1`.
        let mut borrowed = 0;
        while m.offset != 0 && x.get(&Vec::new()).copied().unwrap_or(0) < 0 && borrowed < 4 {
            *y.entry(Vec::new()).or_default() -= 1;
            *x.entry(m.key.vars.clone()).or_default() += m.key.constant as i128;
            *x.entry(Vec::new()).or_default() += m.offset;
            borrowed += 1;
        }
        y.retain(|_, c| *c != 0);
        x.retain(|_, c| *c != 0);
        Some(Division {
            y,
            x,
            atoms,
            suffix: suffix.to_string(),
        })
    }
}

impl Facts {
    /// The row lengths `index` assumes: for each thread-global variable
    /// `W` it multiplies a thread's term by (`W * row + col`), the least
    /// `W` that keeps the rest of the index (`col`, the thread's part)
    /// below it, as far as the ranges of its digits tell: `ldc >= 128 *
    /// gridDim.x` for `ldc * (by * 16 + i) + bx * 128 + mid`. A caller
    /// that ensures it makes such indices of two threads differ whenever
    /// their rows or columns do.
    pub fn row_lengths(&self, index: &Expr, access: &TraceAccess, suffix: &str) -> Vec<RowLength> {
        self.nested_row_lengths(index, access, suffix, 0)
    }

    fn nested_row_lengths(
        &self,
        index: &Expr,
        access: &TraceAccess,
        suffix: &str,
        depth: usize,
    ) -> Vec<RowLength> {
        let mut out: Vec<RowLength> = Vec::new();
        let mut planes: Vec<Expr> = Vec::new();
        let facts = self.with_path(&access.path, suffix);
        for m in self.moduli(index, suffix) {
            let ([w], 1) = (m.key.vars.as_slice(), m.key.constant) else {
                continue;
            };
            if builtin::is_dim(w) || w.starts_with('[') {
                continue;
            }
            let Some(d) = self.divide(index, &m, suffix) else {
                continue;
            };
            // The row number may itself be a place in a plane, `(z * ny +
            // y) * nx + x`: the plane's rows need their length too (`ny`
            // above `y`'s bound), once the row's holds.
            if depth < MAX_ROW_NESTING && d.y.keys().flatten().any(|v| v.ends_with(suffix)) {
                planes.push(expr_with_atoms(&d.y, &d.atoms));
            }
            // A guard that keeps the column below a size (`col < n` for
            // `w * row + col`): the row holds it when `w >= n`, what the
            // programmer had in mind, and weaker than any bound by ranges.
            // Only a column of the thread's own: a guard bounds a constant
            // one trivially (`i < n` for `i * incx`, whose rows need only
            // `incx >= 1`).
            let own_column = d.x.keys().flatten().any(|v| v.ends_with(suffix));
            let guards = if own_column {
                facts.guard_bounds(&access.path, &d.x, suffix)
            } else {
                Vec::new()
            };
            for b in guards {
                let Some(pb) = poly(&b, &self.known) else {
                    continue;
                };
                let shared = pb.keys().flatten().all(|v| !v.ends_with(suffix) && v != w);
                if shared {
                    // Rows of `w + offset` cells (`(y + 1) * (stride + 2) +
                    // x + 1`) hold the column when `w >= n - offset`.
                    let mut least = pb;
                    *least.entry(Vec::new()).or_default() -= m.offset;
                    least.retain(|_, c| *c != 0);
                    let found = RowLength {
                        w: w.clone(),
                        least,
                        atoms: Atoms::new(),
                        constant: None,
                    };
                    if !out.contains(&found) {
                        out.push(found);
                    }
                }
            }
            let mut x = d.x.clone();
            // A constant both threads add cancels out; the caller adds the
            // spread of the constants of several accesses (`col`, `col + 3`).
            let constant = x.get(&Vec::new()).copied().unwrap_or(0);
            // A column every thread takes, named by sizes (`row[cols]`, a
            // cell past a row's `cols` values): inside the row when `w`
            // exceeds it.
            let fixed: Poly = x
                .iter()
                .filter(|(vars, _)| !vars.is_empty() && !vars.iter().any(|v| v.ends_with(suffix)))
                .map(|(vars, c)| (vars.clone(), *c))
                .collect();
            let local = x
                .keys()
                .any(|vars| vars.iter().any(|v| v.ends_with(suffix)));
            if !fixed.is_empty()
                && !local
                && !fixed.keys().flatten().any(|v| v == w || v.starts_with('['))
            {
                let mut least = fixed;
                *least.entry(Vec::new()).or_default() += constant + 1 - m.offset;
                least.retain(|_, c| *c != 0);
                out.push(RowLength {
                    w: w.clone(),
                    least,
                    atoms: d.atoms.clone(),
                    constant: None,
                });
            }
            x.retain(|vars, _| vars.iter().any(|v| v.ends_with(suffix)));
            let Some(mut top) = facts.upper_bound(&x, &d.atoms, access, suffix) else {
                continue;
            };
            if top.keys().flatten().any(|v| v.ends_with(suffix) || v == w) {
                continue;
            }
            // `w + offset > top`.
            *top.entry(Vec::new()).or_default() += 1 - m.offset;
            top.retain(|_, c| *c != 0);
            out.push(RowLength {
                w: w.clone(),
                least: top,
                atoms: d.atoms.clone(),
                constant: Some(constant),
            });
        }
        out.extend(self.plane_lengths(index, access, suffix));
        for rows in planes {
            for r in self.nested_row_lengths(&rows, access, suffix, depth + 1) {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
        out
    }

    /// The planes `index` assumes its guarded part fits (`n <= H * W` for
    /// `b * C * H * W + c * H * W + i` under `i < n`): each bound `n` of a
    /// guard whose sum the index adds as it is, with each product of two or
    /// more thread-global sizes that multiplies a digit of the thread's own.
    pub fn plane_ceilings(
        &self,
        index: &Expr,
        access: &TraceAccess,
        suffix: &str,
    ) -> Vec<(String, Expr)> {
        let mut out = Vec::new();
        let Some((p, _)) = self.poly_with_atoms(index, suffix) else {
            return out;
        };
        let local = |v: &String| v.ends_with(suffix);
        let planes: Vec<Vec<String>> = p
            .keys()
            .filter(|vars| vars.iter().filter(|v| local(v)).count() == 1)
            .map(|vars| {
                vars.iter()
                    .filter(|v| !local(v))
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .filter(|g: &Vec<String>| {
                g.len() >= 2 && !g.iter().any(|v| builtin::is_dim(v) || v.starts_with('['))
            })
            .collect();
        for (a, b) in strictly_below(&access.path) {
            let Expr::Var(n) = &b else { continue };
            if local(n) || builtin::is_dim(n) {
                continue;
            }
            let Some((pa, _)) = self.poly_with_atoms(&a, suffix) else {
                continue;
            };
            let added = pa.keys().any(|vars| vars.iter().any(local))
                && pa.iter().all(|(vars, c)| p.get(vars) == Some(c));
            if !added {
                continue;
            }
            for g in &planes {
                if g.contains(n) {
                    continue;
                }
                let m = g
                    .iter()
                    .map(|v| Expr::var(v.as_str()))
                    .reduce(|x, y| Expr::bin(Op::Mul, x, y));
                if let Some(m) = m {
                    if !out.iter().any(|(v, e)| v == n && *e == m) {
                        out.push((n.clone(), m));
                    }
                }
            }
        }
        out
    }

    /// The strides of a tensor `index` walks, `i1 * nb1 + i2 * nb2 + i0`
    /// with `i1`, `i2` the thread's ids or loop variables and `nb1`, `nb2`
    /// thread-global: each stride with the extent of its id, and the least
    /// value beyond the innermost part of the index (`ne00` for `i0 <
    /// ne00`). `None` without two such strides.
    pub fn strides(&self, index: &Expr, access: &TraceAccess, suffix: &str) -> Option<Strides> {
        let (p, atoms) = self.poly_with_atoms(index, suffix)?;
        let facts = self.with_path(&access.path, suffix);
        // Each stride with the thread's terms it multiplies: `(tid + bz) *
        // s` steps by `s` over both.
        let mut groups: Vec<(String, Poly)> = Vec::new();
        let mut inner = Poly::new();
        let global =
            |v: &String| !v.ends_with(suffix) && !v.starts_with('[') && !builtin::is_dim(v);
        for (vars, c) in &p {
            let globals: Vec<&String> = vars.iter().filter(|v| !v.ends_with(suffix)).collect();
            match globals.as_slice() {
                [s] if global(s) && globals.len() < vars.len() => {
                    let mut rest = vars.clone();
                    rest.retain(|v| v != *s);
                    match groups.iter_mut().find(|(t, _)| t == *s) {
                        Some((_, ids)) => *ids.entry(rest).or_default() += c,
                        None => groups.push(((*s).clone(), [(rest, *c)].into_iter().collect())),
                    }
                }
                _ => *inner.entry(vars.clone()).or_default() += c,
            }
        }
        let mut strides: Vec<(String, Expr)> = Vec::new();
        for (s, ids) in &groups {
            let mut extent = facts.upper_bound(ids, &atoms, access, suffix)?;
            if extent
                .keys()
                .flatten()
                .any(|v| v.ends_with(suffix) || v == s)
            {
                return None;
            }
            *extent.entry(Vec::new()).or_default() += 1;
            extent.retain(|_, c| *c != 0);
            strides.push((
                s.clone(),
                without_unit_factors(expr_with_atoms(&extent, &atoms)),
            ));
        }
        if strides.len() < 2
            || inner
                .keys()
                .flatten()
                .any(|v| strides.iter().any(|(s, _)| s == v))
        {
            return None;
        }
        inner.retain(|vars, _| vars.iter().any(|v| v.ends_with(suffix)));
        let mut least = if inner.is_empty() {
            Poly::new()
        } else {
            facts.upper_bound(&inner, &atoms, access, suffix)?
        };
        if least.keys().flatten().any(|v| v.ends_with(suffix)) {
            return None;
        }
        *least.entry(Vec::new()).or_default() += 1;
        least.retain(|_, c| *c != 0);
        Some(Strides {
            strides,
            inner: vec![without_unit_factors(expr_with_atoms(&least, &atoms))],
        })
    }

    /// The plane sizes `index` assumes: a thread-global variable `W` the
    /// index adds a constant number of times (`id + 2 * offset`, the third
    /// component of a structure of arrays) keeps the planes apart when it
    /// exceeds the thread's part of the index, `offset >= 512 * gridDim.x`
    /// for `id = blockIdx.x * 512 + …`. Different accesses name different
    /// planes, so no thread's term multiplies `W`.
    fn plane_lengths(&self, index: &Expr, access: &TraceAccess, suffix: &str) -> Vec<RowLength> {
        let mut out: Vec<RowLength> = Vec::new();
        let Some((p, atoms)) = self.poly_with_atoms(index, suffix) else {
            return out;
        };
        let facts = self.with_path(&access.path, suffix);
        for (vars, c) in &p {
            let [w] = vars.as_slice() else { continue };
            if *c == 0 || w.ends_with(suffix) || w.starts_with('[') || builtin::is_dim(w) {
                continue;
            }
            // `W` multiplying a thread's term too is a row length instead.
            if p.keys().any(|k| k.len() > 1 && k.contains(w)) {
                continue;
            }
            let mut x = p.clone();
            x.remove(vars);
            let constant = x.get(&Vec::new()).copied().unwrap_or(0);
            x.retain(|vars, _| vars.iter().any(|v| v.ends_with(suffix)));
            if x.is_empty() {
                continue;
            }
            let Some(mut top) = facts.upper_bound(&x, &atoms, access, suffix) else {
                continue;
            };
            if top.keys().flatten().any(|v| v.ends_with(suffix) || v == w) {
                continue;
            }
            *top.entry(Vec::new()).or_default() += 1;
            top.retain(|_, c| *c != 0);
            let found = RowLength {
                w: w.clone(),
                least: top,
                atoms: atoms.clone(),
                constant: Some(constant),
            };
            if !out.contains(&found) {
                out.push(found);
            }
        }
        out
    }
}

/// The strides of a tensor index ([`Facts::strides`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Strides {
    /// Each stride, with the extent of the id it multiplies.
    pub strides: Vec<(String, Expr)>,
    /// The least innermost stride: beyond the rest of the index, of
    /// each access over these strides.
    pub inner: Vec<Expr>,
}

impl Strides {
    /// The condition that keeps the index's cells apart when the strides
    /// nest in `order` (innermost first): each stride at least the one
    /// inside it times that one's extent, the innermost beyond the rest of
    /// the index: `nb1 >= ne00 && nb2 >= nb1 * gridDim.x`.
    pub fn nested(&self, order: &[&str]) -> Option<Cond> {
        let mut conds = Vec::new();
        let mut below = self.inner.clone();
        for s in order {
            let (_, extent) = self.strides.iter().find(|(t, _)| t == s)?;
            conds.extend(
                below
                    .into_iter()
                    .map(|b| Cond::cmp(Rel::Ge, Expr::var(s), b)),
            );
            below = vec![without_unit_factors(Expr::bin(
                Op::Mul,
                Expr::var(s),
                extent.clone(),
            ))];
        }
        conds.into_iter().reduce(Cond::and)
    }
}

/// How many levels of rows within planes [`Facts::row_lengths`] looks
/// through: a volume's `(z * ny + y) * nx + x` has two.
const MAX_ROW_NESTING: usize = 2;

/// A row length an index assumes ([`Facts::row_lengths`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RowLength {
    /// The variable the thread's row is multiplied by.
    pub w: String,
    /// The least `w` that holds the column, the column's constant aside.
    least: Poly,
    atoms: Atoms,
    /// The column's constant, which only differences between accesses
    /// make count; none for a bound a guard gives.
    constant: Option<i128>,
}

impl RowLength {
    fn least(&self) -> Expr {
        without_unit_factors(expr_with_atoms(&self.least, &self.atoms))
    }
}

/// The row lengths of several accesses made one per variable and shape:
/// a row holds the columns of all of them, so the least of one shape
/// grows by the spread of their constants (`w * r + c` and `w * r + c +
/// 3` need three cells more than either).
pub fn widest_rows(found: &[RowLength]) -> Vec<(String, Expr)> {
    let mut out: Vec<(String, Expr)> = Vec::new();
    for (i, r) in found.iter().enumerate() {
        let same = |o: &&RowLength| o.w == r.w && o.least == r.least && o.atoms == r.atoms;
        if found[..i]
            .iter()
            .any(|o| same(&o) && o.constant.is_some() == r.constant.is_some())
        {
            continue;
        }
        let constants: Vec<i128> = found
            .iter()
            .filter(same)
            .filter_map(|o| o.constant)
            .collect();
        let spread = constants.iter().max().zip(constants.iter().min());
        let mut widest = r.clone();
        if let (Some(_), Some((hi, lo))) = (r.constant, spread) {
            *widest.least.entry(Vec::new()).or_default() += hi - lo;
            widest.least.retain(|_, c| *c != 0);
        }
        let found = (r.w.clone(), widest.least());
        if !out.contains(&found) {
            out.push(found);
        }
    }
    out
}

/// `e` without factors of 1 (`1 * blockDim.x` reads `blockDim.x`).
fn without_unit_factors(e: Expr) -> Expr {
    match e {
        Expr::Bin(op, a, b) => {
            let (a, b) = (without_unit_factors(*a), without_unit_factors(*b));
            match (op, a, b) {
                (Op::Mul, Expr::Int(1), x) | (Op::Mul, x, Expr::Int(1)) => x,
                (op, a, b) => Expr::bin(op, a, b),
            }
        }
        e => e,
    }
}

/// `a - b`.
fn minus(a: &Poly, b: &Poly) -> Poly {
    let mut out = a.clone();
    for (m, c) in b {
        *out.entry(m.clone()).or_default() -= c;
    }
    out.retain(|_, c| *c != 0);
    out
}

/// A polynomial as an expression, with atoms put back.
fn expr_with_atoms(p: &Poly, atoms: &Atoms) -> Expr {
    let mut out: Option<Expr> = None;
    for (vars, c) in p {
        let mut term = Expr::Int(*c as i64);
        for v in vars {
            let factor = match atoms.iter().find(|(n, _)| n == v) {
                Some((_, e)) => e.clone(),
                None => Expr::var(v),
            };
            term = Expr::bin(Op::Mul, term, factor);
        }
        out = Some(match out {
            None => term,
            Some(e) => Expr::add(e, term),
        });
    }
    out.unwrap_or(Expr::Int(0))
}
