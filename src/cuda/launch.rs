//! Launch inference: the launch configurations that host code of the
//! translation unit gives each kernel (`k<<<grid, block>>>(…)`,
//! `cudaLaunchKernel`, `cudaLaunchCooperativeKernel`), with the dimensions
//! that are constants (literals, macros, `constexpr`, `dim3` values and local
//! variables that are never changed after their initialisation) or one of a
//! few constants: an element of a table of sizes, a counter of a benchmark
//! loop, a parameter of the host function that launches, read at each of
//! its callers. Such a launch stands for one site per configuration.
//!
//! A kernel whose every launch in the unit is seen is analysed under those
//! launches only. A kernel whose address escapes (passed to anything but a
//! launch or an attribute query) or that the unit never launches keeps
//! symbolic dimensions.

use super::clang::{kind as K, op, Node};
use super::lower::{strip, unresolved_operator};
use super::TemplateArgs;
use crate::protocol::{builtin, Cond, Expr, Loc, Rel};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::rc::Rc;

/// One axis of a dimension: a known size or not.
pub type Dims = [Option<u64>; 3];

/// One launch seen in host code.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LaunchSite {
    pub grid: Dims,
    pub block: Dims,
    /// Where the launch is, in the file that contains it.
    pub file: String,
    pub loc: Loc,
    /// What host code says of the launch beyond constant sizes: sizes it
    /// computes from values it passes to the kernel (`dim3 grid(M / 16)`
    /// launched with `M` as an argument) and arguments it passes as
    /// constants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<Relation>,
}

/// What a launch makes true of a launch size or a kernel argument: it
/// equals a term over the kernel's arguments (or, for a loop's counter
/// passed on, lies within the loop's bounds).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Relation {
    pub lhs: Side,
    #[serde(default = "equal")]
    pub rel: Rel,
    pub term: Term,
}

fn equal() -> Rel {
    Rel::Eq
}

impl Relation {
    fn eq(lhs: Side, term: Term) -> Relation {
        Relation {
            lhs,
            rel: Rel::Eq,
            term,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// `gridDim.x`, `blockDim.y`, ….
    Dim(String),
    /// The kernel's argument at this position, with its parameter's name.
    Arg(u32, String),
    /// Host arithmetic over the arguments that an assertion or an early
    /// exit before the launch bounds (`assert(C % 8 == 0)`).
    Term(Term),
}

/// Host arithmetic over the kernel's arguments, as C computes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Term {
    Int(i64),
    /// The kernel's argument at this position, with its parameter's name.
    Arg(u32, String),
    /// A host value the launch analysis does not follow, by the name of
    /// the host variable that holds it, where a constant multiplies it
    /// (`gridDim.x = 4 * xRegionDim`): the size is then a multiple of the
    /// constant, whatever the value.
    Host(String),
    /// A non-type parameter of the host template around the launch that
    /// the launch passes on as the kernel's template argument at this
    /// position (`k<T, block><<<g, block>>>`), by name: each instantiation
    /// the launch makes has its own constant there
    /// ([`LaunchSite::instantiated`]).
    TemplateArg(u32, String),
    /// A template parameter the kernel's analysis leaves open, by its name
    /// in the protocol: what a [`Term::TemplateArg`] is for the template
    /// itself ([`LaunchSite::with_template_names`]).
    Open(String),
    Bin(TermOp, Box<Term>, Box<Term>),
    /// `a rel b ? then : otherwise` (`iDivUp(n, b)`, `big ? 512 : 256`).
    Ite(Rel, Box<[Term; 4]>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TermOp {
    Add,
    Sub,
    /// A subtraction in an unsigned type: what it computes wraps around
    /// when the difference is negative, so the term holds only where it
    /// is not.
    SubUnsigned,
    Mul,
    Div,
    Rem,
}

impl Term {
    /// `a o b`, folded to its value when both are constants (`8 * 16`).
    /// `w / 8 / 16` is `w / 128`: truncating divisions by positive
    /// constants compose, and one quotient bounds its dividend.
    fn bin(o: TermOp, a: Term, b: Term) -> Term {
        if let (TermOp::Div, Term::Bin(TermOp::Div, t, c1), Term::Int(c2)) = (o, &a, &b) {
            if let (Term::Int(c1), true) = (&**c1, *c2 > 0) {
                if let Some(c) = c1.checked_mul(*c2).filter(|_| *c1 > 0) {
                    return Term::Bin(TermOp::Div, t.clone(), Box::new(Term::Int(c)));
                }
            }
        }
        let t = Term::Bin(o, Box::new(a), Box::new(b));
        t.value().map_or(t, Term::Int)
    }

    /// `t / d - less` with a constant `d > 0` and `less >= 0`: a quotient
    /// of at least 1 wherever the term is at least 1.
    fn quotient(&self) -> Option<(&Term, i64, i64)> {
        let (q, less) = match self {
            Term::Bin(TermOp::Sub, q, k) => match **k {
                Term::Int(k) if k >= 0 => (&**q, k),
                _ => return None,
            },
            Term::Bin(TermOp::Add, q, k) => match **k {
                Term::Int(k) if k <= 0 => (&**q, -k),
                _ => return None,
            },
            q => (q, 0),
        };
        match q {
            Term::Bin(TermOp::Div, t, d) => match **d {
                Term::Int(d) if d > 0 => Some((&**t, d, less)),
                _ => None,
            },
            _ => None,
        }
    }

    fn has_arg(&self) -> bool {
        match self {
            Term::Int(_) | Term::Host(_) | Term::TemplateArg(..) => false,
            Term::Arg(..) | Term::Open(_) => true,
            Term::Bin(_, a, b) => a.has_arg() || b.has_arg(),
            Term::Ite(_, parts) => parts.iter().any(Term::has_arg),
        }
    }

    /// Whether the term is arithmetic over constants and a host
    /// template's parameters ([`Term::TemplateArg`]), some of them.
    fn only_template_args(&self) -> bool {
        fn only(t: &Term) -> bool {
            match t {
                Term::Int(_) | Term::TemplateArg(..) => true,
                Term::Bin(_, a, b) => only(a) && only(b),
                Term::Ite(_, parts) => parts.iter().all(only),
                _ => false,
            }
        }
        fn any(t: &Term) -> bool {
            match t {
                Term::TemplateArg(..) => true,
                Term::Bin(_, a, b) => any(a) || any(b),
                Term::Ite(_, parts) => parts.iter().any(any),
                _ => false,
            }
        }
        only(self) && any(self)
    }

    /// Whether a launch size equal to the term says something of it: the
    /// term has an argument or a host value a constant multiplies.
    fn informs(&self) -> bool {
        match self {
            Term::Int(_) => false,
            Term::Arg(..) | Term::Host(_) | Term::TemplateArg(..) | Term::Open(_) => true,
            Term::Bin(_, a, b) => a.informs() || b.informs(),
            Term::Ite(_, parts) => parts.iter().any(Term::informs),
        }
    }

    /// The value of a term without arguments.
    fn value(&self) -> Option<i64> {
        match self {
            Term::Int(v) => Some(*v),
            Term::Arg(..) | Term::Host(_) | Term::TemplateArg(..) | Term::Open(_) => None,
            Term::Bin(o, a, b) => {
                let (a, b) = (a.value()?, b.value()?);
                match o {
                    TermOp::Add => a.checked_add(b),
                    TermOp::Sub => a.checked_sub(b),
                    TermOp::SubUnsigned => a.checked_sub(b).filter(|d| *d >= 0),
                    TermOp::Mul => a.checked_mul(b),
                    TermOp::Div => a.checked_div(b),
                    TermOp::Rem => a.checked_rem(b),
                }
            }
            Term::Ite(rel, parts) => {
                let [a, b, then, otherwise] = &**parts;
                let (a, b) = (a.value()?, b.value()?);
                if rel.holds(a, b) {
                    then.value()
                } else {
                    otherwise.value()
                }
            }
        }
    }

    /// The term over the protocol's names of the kernel's parameters
    /// (`names[i]` for argument `i`; `None` where the parameter is no
    /// integer the protocol names). C's division and remainder truncate
    /// toward zero where the protocol's are Euclidean, so a dividend that
    /// may be negative is split by its sign; only constant divisors are
    /// kept, so the term stays linear. An unsigned subtraction adds to
    /// `valid` that its difference is not negative.
    fn expr(&self, names: &[Option<String>], valid: &mut Vec<Cond>) -> Option<Expr> {
        use crate::protocol::Op;
        Some(match self {
            Term::Int(v) => Expr::Int(*v),
            Term::Arg(i, _) => Expr::var(names.get(*i as usize)?.as_deref()?),
            // Only a whole size can be said to be a multiple (see
            // `Relation::cond`).
            Term::Host(_) | Term::TemplateArg(..) => return None,
            Term::Open(name) => Expr::var(name),
            Term::Bin(o, a, b) => {
                let (a, b) = (a.expr(names, valid)?, b.expr(names, valid)?);
                match o {
                    TermOp::Add => Expr::add(a, b),
                    TermOp::Sub => Expr::bin(Op::Sub, a, b),
                    TermOp::SubUnsigned => {
                        valid.push(Cond::cmp(Rel::Ge, a.clone(), b.clone()));
                        Expr::bin(Op::Sub, a, b)
                    }
                    TermOp::Mul => Expr::bin(Op::Mul, a, b),
                    TermOp::Div | TermOp::Rem => {
                        let Expr::Int(d) = b else { return None };
                        if d <= 0 {
                            return None;
                        }
                        let op = if *o == TermOp::Div { Op::Div } else { Op::Mod };
                        let negated = Expr::bin(Op::Sub, Expr::Int(0), a.clone());
                        Expr::Ite(
                            Box::new(Cond::cmp(Rel::Ge, a.clone(), Expr::Int(0))),
                            Box::new(Expr::bin(op, a, Expr::Int(d))),
                            Box::new(Expr::bin(
                                Op::Sub,
                                Expr::Int(0),
                                Expr::bin(op, negated, Expr::Int(d)),
                            )),
                        )
                    }
                }
            }
            Term::Ite(rel, parts) => {
                let [a, b, then, otherwise] = &**parts;
                let c = Cond::cmp(*rel, a.expr(names, valid)?, b.expr(names, valid)?);
                Expr::Ite(
                    Box::new(c),
                    Box::new(then.expr(names, valid)?),
                    Box::new(otherwise.expr(names, valid)?),
                )
            }
        })
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Term::Int(v) => write!(f, "{v}"),
            Term::Arg(_, name)
            | Term::Host(name)
            | Term::TemplateArg(_, name)
            | Term::Open(name) => {
                write!(f, "{name}")
            }
            Term::Ite(rel, parts) => {
                let [a, b, then, otherwise] = &**parts;
                write!(
                    f,
                    "({a} {} {b} ? {then} : {otherwise})",
                    crate::protocol::print::rel_str(*rel)
                )
            }
            Term::Bin(o, a, b) => {
                let (op, binds) = match o {
                    TermOp::Add => ("+", 1),
                    TermOp::Sub | TermOp::SubUnsigned => ("-", 1),
                    TermOp::Mul => ("*", 2),
                    TermOp::Div => ("/", 2),
                    TermOp::Rem => ("%", 2),
                };
                // As C reads it: left to right, products before sums.
                let side = |t: &Term, right: bool| match t {
                    Term::Bin(inner, ..) => {
                        let additive =
                            matches!(inner, TermOp::Add | TermOp::Sub | TermOp::SubUnsigned);
                        let inner = if additive { 1 } else { 2 };
                        if inner < binds || (right && inner == binds) {
                            format!("({t})")
                        } else {
                            t.to_string()
                        }
                    }
                    t => t.to_string(),
                };
                write!(f, "{} {op} {}", side(a, false), side(b, true))
            }
        }
    }
}

impl Relation {
    /// The equation over the protocol's names (see [`Term::expr`]), where
    /// host code computes what the term says.
    fn cond(&self, names: &[Option<String>]) -> Option<Cond> {
        let mut valid = Vec::new();
        let lhs = match &self.lhs {
            Side::Dim(d) => Expr::var(d),
            Side::Arg(i, _) => Expr::var(names.get(*i as usize)?.as_deref()?),
            Side::Term(t) => t.expr(names, &mut valid)?,
        };
        // `gridDim.x = 4 * xRegionDim`: a multiple of 4, whatever the
        // host's value.
        if let (Term::Bin(TermOp::Mul, a, b), Rel::Eq) = (&self.term, self.rel) {
            if let (Term::Int(c), Term::Host(_)) | (Term::Host(_), Term::Int(c)) = (&**a, &**b) {
                use crate::protocol::Op;
                let rem = Expr::bin(Op::Mod, lhs, Expr::Int(*c));
                return Some(Cond::cmp(Rel::Eq, rem, Expr::Int(0)));
            }
        }
        let mut equal = Cond::cmp(self.rel, lhs.clone(), self.term.expr(names, &mut valid)?);
        // A size that is a quotient (`M / 16`, `(n - off) / 16 - 1`) gives
        // a quotient of at least 1, so the dividend is positive and bounds
        // the size linearly: `M >= 16 * gridDim.x`, the form in which the
        // solver's lemmas on row-major indices take a row length to hold a
        // row.
        let quotient = self.term.quotient().filter(|_| self.rel == Rel::Eq);
        if let (Side::Dim(_), Some((t, d, less))) = (&self.lhs, quotient) {
            if let Some(t) = t.expr(names, &mut valid) {
                use crate::protocol::Op;
                let quotient = Expr::add(lhs, Expr::Int(less));
                let scaled = Expr::bin(Op::Mul, Expr::Int(d), quotient);
                let most = Expr::add(scaled.clone(), Expr::Int(d - 1));
                // `n - off >= e` reads `n >= e + off`: a bound on `n`.
                let (t, scaled, most) = match t {
                    Expr::Bin(Op::Sub, a, b) if matches!(*a, Expr::Var(_)) => {
                        (*a, Expr::add(scaled, (*b).clone()), Expr::add(most, *b))
                    }
                    t => (t, scaled, most),
                };
                equal = Cond::and(equal, Cond::cmp(Rel::Ge, t.clone(), scaled));
                equal = Cond::and(equal, Cond::cmp(Rel::Le, t, most));
            }
        }
        valid.dedup();
        Some(match valid.into_iter().reduce(Cond::and) {
            Some(v) => Cond::or(Cond::not(v), equal),
            None => equal,
        })
    }
}

impl LaunchSite {
    /// `<<<(?, 1, 1), (16, 16, 1)>>>`.
    /// `<<<(M / 16, ?, 1), (16, 16, 1)>>>(K = 1024)`: sizes host code
    /// computes from the kernel's arguments are shown as it computes them,
    /// and arguments it passes as constants after the launch.
    pub fn describe(&self) -> String {
        let d = |x: &Dims, names: [&str; 3]| {
            let parts: Vec<String> = x
                .iter()
                .zip(names)
                .map(|(v, n)| match (v, self.related(n)) {
                    (Some(v), _) => v.to_string(),
                    (None, Some(t)) => t.to_string(),
                    (None, None) => "?".to_string(),
                })
                .collect();
            format!("({})", parts.join(", "))
        };
        let mut out = format!(
            "<<<{}, {}>>>",
            d(&self.grid, builtin::GRID_DIM),
            d(&self.block, builtin::BLOCK_DIM)
        );
        let args: Vec<String> = self
            .relations
            .iter()
            .filter_map(|r| match &r.lhs {
                Side::Arg(_, name) => {
                    let rel = if r.rel == Rel::Eq {
                        "="
                    } else {
                        crate::protocol::print::rel_str(r.rel)
                    };
                    Some(format!("{name} {rel} {}", r.term))
                }
                Side::Term(t) => Some(format!(
                    "{t} {} {}",
                    crate::protocol::print::rel_str(r.rel),
                    r.term
                )),
                Side::Dim(_) => None,
            })
            .collect();
        if !args.is_empty() {
            out.push_str(&format!("({})", args.join(", ")));
        }
        out
    }

    /// The launch with its arguments named as `names` (by position) names
    /// them, where they have a name.
    pub fn with_arg_names(&self, names: &[Option<String>]) -> LaunchSite {
        fn rename(t: &Term, names: &[Option<String>]) -> Term {
            match t {
                Term::Int(v) => Term::Int(*v),
                Term::Host(_) | Term::TemplateArg(..) | Term::Open(_) => t.clone(),
                Term::Arg(i, name) => {
                    let named = names.get(*i as usize).cloned().flatten();
                    Term::Arg(*i, named.unwrap_or_else(|| name.clone()))
                }
                Term::Bin(o, a, b) => {
                    Term::Bin(*o, Box::new(rename(a, names)), Box::new(rename(b, names)))
                }
                Term::Ite(rel, parts) => {
                    Term::Ite(*rel, Box::new(parts.clone().map(|t| rename(&t, names))))
                }
            }
        }
        let mut site = self.clone();
        for r in &mut site.relations {
            r.term = rename(&r.term, names);
            match &mut r.lhs {
                Side::Arg(i, name) => {
                    if let Some(Some(n)) = names.get(*i as usize) {
                        *name = n.clone();
                    }
                }
                Side::Term(t) => *t = rename(t, names),
                Side::Dim(_) => {}
            }
        }
        site
    }

    /// The launch as it launches the kernel's instantiation with the
    /// template arguments `args`: sizes that become constants are sizes.
    fn instantiated(&self, args: &TemplateArgs) -> LaunchSite {
        fn bind(t: &Term, args: &TemplateArgs) -> Term {
            match t {
                Term::TemplateArg(i, _) => match args.get(*i as usize) {
                    Some(Ok(v)) => Term::Int(*v),
                    _ => t.clone(),
                },
                Term::Bin(o, a, b) => Term::bin(*o, bind(a, args), bind(b, args)),
                Term::Ite(rel, parts) => {
                    let t = Term::Ite(*rel, Box::new(parts.clone().map(|t| bind(&t, args))));
                    t.value().map_or(t, Term::Int)
                }
                _ => t.clone(),
            }
        }
        let mut site = self.clone();
        site.relations = Vec::new();
        for r in &self.relations {
            let mut r = r.clone();
            r.term = bind(&r.term, args);
            if let Side::Term(t) = &mut r.lhs {
                *t = bind(t, args);
            }
            let sized = match (&r.lhs, r.rel, r.term.value()) {
                (Side::Dim(d), Rel::Eq, Some(v)) => u64::try_from(v).ok().and_then(|v| {
                    let (dims, names) = if builtin::GRID_DIM.contains(&d.as_str()) {
                        (&mut site.grid, builtin::GRID_DIM)
                    } else {
                        (&mut site.block, builtin::BLOCK_DIM)
                    };
                    let axis = names.iter().position(|n| n == d)?;
                    dims[axis] = Some(v);
                    Some(())
                }),
                _ => None,
            };
            if sized.is_none() && !site.relations.contains(&r) {
                site.relations.push(r);
            }
        }
        site
    }

    /// The launch as it launches the template itself, whose open
    /// parameters the protocol names `names` (by template position).
    pub fn with_template_names(&self, names: &[Option<String>]) -> LaunchSite {
        fn open(t: &Term, names: &[Option<String>]) -> Term {
            match t {
                Term::TemplateArg(i, _) => match names.get(*i as usize) {
                    Some(Some(name)) => Term::Open(name.clone()),
                    _ => t.clone(),
                },
                Term::Bin(o, a, b) => {
                    Term::Bin(*o, Box::new(open(a, names)), Box::new(open(b, names)))
                }
                Term::Ite(rel, parts) => {
                    Term::Ite(*rel, Box::new(parts.clone().map(|t| open(&t, names))))
                }
                _ => t.clone(),
            }
        }
        let mut site = self.clone();
        for r in &mut site.relations {
            r.term = open(&r.term, names);
            if let Side::Term(t) = &mut r.lhs {
                *t = open(t, names);
            }
        }
        site
    }

    /// The term host code computes the launch size `dim` from.
    fn related(&self, dim: &str) -> Option<&Term> {
        self.relations
            .iter()
            .find(|r| r.rel == Rel::Eq && matches!(&r.lhs, Side::Dim(d) if d == dim))
            .map(|r| &r.term)
    }

    /// Whether analysing under this launch also covers `other`: each size
    /// this one fixes, `other` fixes the same, and whatever this one says
    /// beyond sizes, `other` says too.
    pub fn covers(&self, other: &LaunchSite) -> bool {
        let dims = |a: &Dims, b: &Dims| a.iter().zip(b).all(|(x, y)| x.is_none() || x == y);
        dims(&self.grid, &other.grid)
            && dims(&self.block, &other.block)
            && self.relations.iter().all(|r| other.relations.contains(r))
    }

    /// `<<<(?, 1, 1), (16, 16, 1)>>> at main.cu:12:5`.
    pub fn describe_at(&self) -> String {
        format!("{} at {}:{}", self.describe(), self.file, self.loc)
    }
}

/// A kernel as launches name it: the function (or, for an instantiation,
/// its template) and the template arguments.
pub type KernelKey = (u32, TemplateArgs);

/// Every kernel's launches in one unit.
#[derive(Default)]
pub struct Launches {
    sites: HashMap<KernelKey, Vec<LaunchSite>>,
    /// Kernels whose address is taken other than to launch them.
    escaped: Vec<KernelKey>,
    /// How each kernel seen reads in reports (`k`, `k<32>`).
    names: HashMap<KernelKey, String>,
    /// Keys of launches in host templates, which name an instantiation
    /// only in part: their type arguments may stand for any type, and the
    /// arguments they leave to deduction for any value.
    partial: Vec<KernelKey>,
    /// What each function template called from host code launches, when
    /// it is a launch wrapper ([`wrapper_launch`]), by template.
    wrappers: HashMap<u32, Option<Rc<WrapperLaunch>>>,
}

/// Gives each host template parameter a relation reads
/// ([`Term::TemplateArg`]) its position among the kernel's template
/// arguments `written` at the launch; a relation that reads one the
/// launch does not pass on says nothing an instantiation fixes, and goes.
fn place_template_args(relations: &mut Vec<Relation>, written: &[String]) {
    fn place(t: &mut Term, written: &[String]) -> bool {
        match t {
            Term::TemplateArg(i, name) => match written.iter().position(|w| w == name) {
                Some(p) => {
                    *i = p as u32;
                    true
                }
                None => false,
            },
            Term::Bin(_, a, b) => place(a, written) & place(b, written),
            Term::Ite(_, parts) => parts.iter_mut().fold(true, |ok, t| place(t, written) & ok),
            _ => true,
        }
    }
    relations.retain_mut(|r| {
        let lhs = match &mut r.lhs {
            Side::Term(t) => place(t, written),
            _ => true,
        };
        place(&mut r.term, written) && lhs
    });
}

/// Whether a launch keyed `general` (a launch in a host template) may
/// launch the instantiation keyed `key`.
/// The template analysed whole (`key` without arguments) stands for every
/// instantiation, so every launch of it counts.
fn may_launch(general: &KernelKey, key: &KernelKey) -> bool {
    general.0 == key.0
        && (key.1.is_empty() || general.1.len() <= key.1.len())
        && general
            .1
            .iter()
            .zip(&key.1)
            .all(|(g, k)| g.is_err() || g == k)
}

/// What host code of one unit does with a kernel that another unit defines
/// (`main.cu` launching a kernel of `kernels.cu` through a declaration):
/// its launches, or `None` when its address escapes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignLaunches {
    pub kernel: String,
    pub sites: Option<Vec<LaunchSite>>,
}

impl Launches {
    /// Walks the host code of every project file of the unit.
    pub fn collect(root: &Node, project: &dyn Fn(&Node) -> bool) -> Launches {
        let callers = Callers::index(root, project);
        let mut out = Launches::default();
        out.walk(root, None, project, &callers);
        out
    }

    /// The launches of `key`, when they are all known: `None` when the
    /// kernel is never launched in the unit or its address escapes.
    pub fn of(&self, key: &KernelKey) -> Option<Vec<LaunchSite>> {
        if self.escapes(key) {
            return None;
        }
        let mut out: Vec<LaunchSite> = self.sites.get(key).cloned().unwrap_or_default();
        for p in self
            .partial
            .iter()
            .filter(|p| *p != key && may_launch(p, key))
        {
            for s in self.sites.get(p).into_iter().flatten() {
                let s = s.instantiated(&key.1);
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// Whether host code of the unit takes the kernel's address other than
    /// to launch it (a table of kernels launched through a pointer).
    pub fn escapes(&self, key: &KernelKey) -> bool {
        self.escaped
            .iter()
            .any(|e| e == key || (self.partial.contains(e) && may_launch(e, key)))
    }

    /// The launches and escapes of kernels the unit names but does not
    /// define (`defined` holds the keys of those it does), by name.
    pub fn foreign(&self, defined: &[KernelKey]) -> Vec<ForeignLaunches> {
        let mut out: Vec<ForeignLaunches> = self
            .names
            .iter()
            .filter(|(key, _)| !defined.contains(key))
            .map(|(key, name)| ForeignLaunches {
                kernel: name.clone(),
                sites: (!self.escaped.contains(key))
                    .then(|| self.sites.get(key).cloned().unwrap_or_default()),
            })
            .filter(|f| f.sites.as_ref().is_none_or(|s| !s.is_empty()))
            .collect();
        out.sort_by(|a, b| a.kernel.cmp(&b.kernel));
        out
    }

    fn name(&mut self, key: &KernelKey, f: &Node) {
        if !self.names.contains_key(key) {
            let name = kernel_name(&f.spelling(), &key.1);
            self.names.insert(key.clone(), name);
        }
    }

    fn walk<'a>(
        &mut self,
        n: &Node<'a>,
        func: Option<Node<'a>>,
        project: &dyn Fn(&Node) -> bool,
        callers: &Callers<'a>,
    ) {
        for c in n.children() {
            let k = c.kind();
            if !project(&c) {
                continue;
            }
            // Device code launches nothing the host can see.
            if (k == K::FUNCTION || k == K::FUNCTION_TEMPLATE || k == K::METHOD)
                && c.has_attr(K::CUDA_GLOBAL)
            {
                continue;
            }
            let func = if k == K::FUNCTION
                || k == K::METHOD
                || k == K::FUNCTION_TEMPLATE
                || k == K::CONSTRUCTOR
            {
                Some(c)
            } else {
                func
            };
            if k == K::CALL {
                if self.call(&c, func, callers) {
                    continue;
                }
            } else if k == K::VAR && kernel_alias(&c).is_some() && only_launched(&c, func) {
                // `auto kernel = k<T, 128>; kernel<<<g, b>>>(…)`.
                continue;
            } else if (k == K::VAR && pointer_targets(&c, func).is_some())
                || (k == K::BINARY && kernel_pointer_operand(&c, func))
            {
                // Storing a kernel in a pointer that is only launched, or
                // comparing with it, lets no address escape.
                continue;
            } else if k == K::DECL_REF {
                if let Some(r) = c.referenced() {
                    if let Some(key) = kernel_key(&r) {
                        self.name(&key, &r);
                        self.escaped.push(key);
                    }
                }
            }
            self.walk(&c, func, project, callers);
        }
    }

    /// One site per configuration the launch may stand for (a table of
    /// block sizes, a parameter with several callers).
    fn launch(
        &mut self,
        key: KernelKey,
        (grid, block): (Vec<Dims>, Vec<Dims>),
        relations: Vec<Relation>,
        file: String,
        loc: Loc,
    ) {
        if grid.is_empty() || block.is_empty() {
            // On a path the program never takes (`if (block_size > 64)`
            // where it is always 32).
            return;
        }
        let grid = if grid.len() * block.len() > MAX_ALTERNATIVES {
            vec![agree(&grid)]
        } else {
            grid
        };
        let block = if grid.len() * block.len() > MAX_ALTERNATIVES {
            vec![agree(&block)]
        } else {
            block
        };
        let sites = self.sites.entry(key).or_default();
        for g in &grid {
            for b in &block {
                let site = LaunchSite {
                    grid: *g,
                    block: *b,
                    file: file.clone(),
                    loc,
                    relations: relations.clone(),
                };
                if !sites.contains(&site) {
                    sites.push(site);
                }
            }
        }
    }

    /// A launch or a call that only names kernels; `true` when `c` was
    /// handled whole.
    fn call<'a>(&mut self, c: &Node<'a>, func: Option<Node<'a>>, callers: &Callers<'a>) -> bool {
        let pos = c.pos();
        let loc = Loc::new(pos.line, pos.column);
        if self.wrapped_launch(c, func, callers) {
            return true;
        }
        // A launch through a pointer that may hold several kernels.
        if let Some(targets) = c
            .referenced()
            .filter(|v| v.kind() == K::VAR)
            .and_then(|v| pointer_targets(&v, func))
        {
            let Some(config) = launch_config(c) else {
                return false;
            };
            let grid = dims(&config.arg(0), func, callers);
            let block = dims(&config.arg(1), func, callers);
            for (key, kernel) in targets {
                let relations =
                    relations(c, [&config.arg(0), &config.arg(1)], &kernel, func, callers);
                self.name(&key, &kernel);
                self.launch(
                    key,
                    (grid.clone(), block.clone()),
                    relations,
                    pos.file.clone(),
                    loc,
                );
            }
            for ch in c.children().iter().skip(1) {
                self.walk(ch, func, &|_| true, callers);
            }
            return true;
        }
        // A launch in a host template names its kernel through a template
        // id clang leaves unresolved (`reduce<T, 512><<<…>>>`, or `k<<<…>>>`
        // with every argument deduced).
        let alias = c
            .referenced()
            .filter(|v| v.kind() == K::VAR)
            .and_then(|v| kernel_alias(&v));
        let target = match c.referenced() {
            Some(_) if alias.is_some() => {
                let (key, kernel, dependent) = alias.expect("checked");
                if dependent && !self.partial.contains(&key) {
                    self.partial.push(key.clone());
                }
                Some((key, kernel))
            }
            Some(callee) => kernel_key(&callee).map(|key| (key, callee)),
            None => {
                let dependent = c.children().first().and_then(|f| named_kernel(f, true));
                if let Some((t, args)) = &dependent {
                    let key = (t.id(), args.clone());
                    if !self.partial.contains(&key) {
                        self.partial.push(key);
                    }
                }
                dependent.map(|(t, args)| ((t.id(), args), t))
            }
        };
        let Some(callee) = c.referenced().or_else(|| target.as_ref().map(|t| t.1)) else {
            return false;
        };
        if let Some((key, callee)) = target {
            let children = c.children();
            let Some(config) = launch_config(c) else {
                return false;
            };
            let grid = dims(&config.arg(0), func, callers);
            let block = dims(&config.arg(1), func, callers);
            let mut relations =
                relations(c, [&config.arg(0), &config.arg(1)], &callee, func, callers);
            let written = children
                .first()
                .and_then(|f| written_template_args(&strip(*f), &callee.spelling()));
            place_template_args(&mut relations, written.as_deref().unwrap_or_default());
            self.name(&key, &callee);
            self.launch(key, (grid, block), relations, pos.file.clone(), loc);
            for ch in children.iter().skip(1) {
                if ch.kind() != K::CALL || ch.referenced().is_none_or(|f| kernel_key(&f).is_some())
                {
                    self.walk(ch, func, &|_| true, callers);
                }
            }
            return true;
        }
        let name = callee.spelling();
        if (name == "cudaLaunchKernel" || name == "cudaLaunchCooperativeKernel")
            && c.num_args() >= 3
        {
            let Some((key, f)) = self.runtime_kernel(&c.arg(0)) else {
                return false;
            };
            let grid = dims(&c.arg(1), func, callers);
            let block = dims(&c.arg(2), func, callers);
            self.name(&key, &f);
            self.launch(key, (grid, block), Vec::new(), pos.file.clone(), loc);
            for i in 3..c.num_args().max(3) as u32 {
                self.walk(&c.arg(i), func, &|_| true, callers);
            }
            return true;
        }
        if (name == "cudaLaunchKernelEx" || name == "cudaLaunchKernelExC") && c.num_args() >= 2 {
            // `cudaLaunchKernelEx(&config, k, args…)`: the sizes are the
            // configuration's `gridDim` and `blockDim` at the launch.
            let Some((key, f)) = self.runtime_kernel(&c.arg(1)) else {
                return false;
            };
            let size = |field: &str| match config_field(&c.arg(0), field, func, c.byte_range()) {
                Some(v) => dims(&v, func, callers),
                None => vec![[None; 3]],
            };
            let (grid, block) = (size("gridDim"), size("blockDim"));
            self.name(&key, &f);
            self.launch(key, (grid, block), Vec::new(), pos.file.clone(), loc);
            for i in 2..c.num_args().max(2) as u32 {
                self.walk(&c.arg(i), func, &|_| true, callers);
            }
            return true;
        }
        attribute_query(&name)
    }
}

impl Launches {
    /// The kernel the runtime API's launch or query `n` names: the kernel
    /// itself (`(const void *)k<T, 128>`, `&k`) or a local that names it
    /// (`auto kernel = k<T, 128>;`).
    fn runtime_kernel<'a>(&mut self, n: &Node<'a>) -> Option<(KernelKey, Node<'a>)> {
        if let Some(found) = referenced_kernel(n) {
            return Some(found);
        }
        let mut v = strip(*n);
        if v.kind() == K::UNARY && v.unop() == super::clang::op::ADDR_OF {
            v = strip(*v.children().first()?);
        }
        let var = v
            .referenced()
            .filter(|r| v.kind() == K::DECL_REF && r.kind() == K::VAR)?;
        let (key, f, dependent) = kernel_alias(&var)?;
        if dependent && !self.partial.contains(&key) {
            self.partial.push(key.clone());
        }
        Some((key, f))
    }

    /// A call of a launch wrapper (`launch(k<T>, params, args…)` of
    /// `template <class K, class... A> void launch(K kernel, const Params
    /// &p, A&&... a) { kernel<<<p.grid, p.block>>>(a…); }`): a launch of
    /// the kernel passed, with the sizes the wrapper's launch reads,
    /// read at the call. `true` when `c` was handled whole.
    fn wrapped_launch<'a>(
        &mut self,
        c: &Node<'a>,
        func: Option<Node<'a>>,
        callers: &Callers<'a>,
    ) -> bool {
        let Some(w) = callee_template(c) else {
            return false;
        };
        let launch = self
            .wrappers
            .entry(w.id())
            .or_insert_with(|| wrapper_launch(&w).map(Rc::new))
            .clone();
        let Some(launch) = launch else {
            return false;
        };
        let (n, kernel_at) = (c.num_args(), launch.kernel as i32);
        if kernel_at >= n {
            return false;
        }
        let arg = c.arg(launch.kernel);
        let (key, kernel) = match referenced_kernel(&arg) {
            Some(found) => found,
            None => match named_kernel(&arg, true) {
                Some((t, args)) => {
                    let key = (t.id(), args);
                    if !self.partial.contains(&key) {
                        self.partial.push(key.clone());
                    }
                    (key, t)
                }
                None => return false,
            },
        };
        let at_call = |size: &WrappedSize| -> Vec<Dims> {
            let unknown = vec![[None; 3]];
            if size.param as i32 >= n {
                return unknown;
            }
            let a = c.arg(size.param);
            match &size.field {
                None => dims(&a, func, callers),
                Some(field) => match field_at_call(&a, field, func) {
                    Some(e) => dims(&e, func, callers),
                    None => unknown,
                },
            }
        };
        let (grid, block) = (at_call(&launch.grid), at_call(&launch.block));
        self.name(&key, &kernel);
        let pos = c.pos();
        self.launch(
            key,
            (grid, block),
            Vec::new(),
            pos.file.clone(),
            Loc::new(pos.line, pos.column),
        );
        for i in (0..n).filter(|i| *i != kernel_at) {
            self.walk(&c.arg(i as u32), func, &|_| true, callers);
        }
        true
    }
}

/// The function template a call names: resolved (`launch<…>(…)`, a
/// specialization), or the one template of an unresolved name in a host
/// template.
fn callee_template<'a>(c: &Node<'a>) -> Option<Node<'a>> {
    if let Some(f) = c.referenced() {
        return f
            .specialized_template()
            .filter(|t| t.kind() == K::FUNCTION_TEMPLATE);
    }
    let callee = strip(*c.children().first()?);
    let callee = if callee.kind() == K::DECL_REF {
        strip(*callee.children().first()?)
    } else {
        callee
    };
    if callee.kind() != K::OVERLOADED_REF {
        return None;
    }
    let templates: Vec<Node> = callee
        .overloaded_decls()
        .into_iter()
        .filter(|d| d.kind() == K::FUNCTION_TEMPLATE)
        .collect();
    match templates.as_slice() {
        [t] => Some(*t),
        _ => None,
    }
}

/// A size a launch wrapper passes: its parameter, or a field of it.
struct WrappedSize {
    param: u32,
    field: Option<String>,
}

/// The launch a wrapper makes of the kernel it is passed.
struct WrapperLaunch {
    kernel: u32,
    grid: WrappedSize,
    block: WrappedSize,
}

/// The launch `w` makes of a parameter (`kernel<<<p.grid, p.block>>>`),
/// with the parameters (or their fields) its sizes are; `None` unless it
/// makes exactly one.
fn wrapper_launch(w: &Node) -> Option<WrapperLaunch> {
    let params = w.params();
    let index = |n: &Node| -> Option<u32> {
        let r = strip(*n).referenced()?;
        params
            .iter()
            .position(|p| p.id() == r.id())
            .map(|i| i as u32)
    };
    let size = |n: &Node| -> Option<WrappedSize> {
        let n = uncopied(n);
        if n.kind() == K::DECL_REF {
            return Some(WrappedSize {
                param: index(&n)?,
                field: None,
            });
        }
        if n.kind() == K::MEMBER_REF {
            let base = *n.children().first()?;
            return Some(WrappedSize {
                param: index(&base)?,
                field: Some(n.spelling()),
            });
        }
        None
    };
    let mut found = Vec::new();
    fn calls<'a>(n: &Node<'a>, out: &mut Vec<Node<'a>>) {
        for c in n.children() {
            if c.kind() == K::CALL {
                out.push(c);
            }
            calls(&c, out);
        }
    }
    let mut all = Vec::new();
    calls(w, &mut all);
    for c in all {
        let (Some(config), Some(callee)) = (launch_config(&c), c.children().first().copied())
        else {
            continue;
        };
        let Some(kernel) = index(&callee) else {
            continue;
        };
        found.push(WrapperLaunch {
            kernel,
            grid: size(&config.arg(0))?,
            block: size(&config.arg(1))?,
        });
    }
    match found.len() {
        1 => found.pop(),
        _ => None,
    }
}

/// The initialiser of the local `var`, when it has one.
fn initializer<'a>(var: &Node<'a>) -> Option<Node<'a>> {
    var.children().into_iter().rev().find(|c| c.is_expression())
}

/// The call that configures the launch `c` (`k<<<g, b>>>(…)`), with the
/// grid and the block as its first two arguments.
fn launch_config<'a>(c: &Node<'a>) -> Option<Node<'a>> {
    let config = c.children().into_iter().find(|ch| {
        ch.kind() == K::CALL
            && ch.referenced().is_some_and(|f| {
                let s = f.spelling();
                s == "cudaConfigureCall" || s == "__cudaPushCallConfiguration"
            })
    })?;
    (config.num_args() >= 2).then_some(config)
}

/// `n` without the copies around it (a `dim3` constructed from a `dim3`
/// or `uint3`).
fn uncopied<'a>(n: &Node<'a>) -> Node<'a> {
    let mut n = strip(*n);
    while n.kind() == K::CALL
        && n.num_args() == 1
        && n.referenced().is_some_and(|c| c.kind() == K::CONSTRUCTOR)
    {
        n = strip(n.arg(0));
    }
    n
}

/// The value field `field` of the argument `a` holds at the call: `a` a
/// local never changed after its initialisation, by braces (`{grid,
/// block, 0, s}`, fields in order) or by a constructor that sets the
/// field from one of its parameters (`Params(g, b) : grid(g), block(b)
/// {}`).
fn field_at_call<'a>(a: &Node<'a>, field: &str, func: Option<Node<'a>>) -> Option<Node<'a>> {
    let a = uncopied(a);
    let var = a
        .referenced()
        .filter(|v| a.kind() == K::DECL_REF && v.kind() == K::VAR)?;
    let f = func?;
    if var.semantic_parent().is_none_or(|p| p.id() != f.id()) || local_modified(&f, &var) {
        return None;
    }
    let init = initializer(&var)?;
    field_of_init(&init, field, &var.record_fields())
}

fn field_of_init<'a>(init: &Node<'a>, field: &str, fields: &[Node<'a>]) -> Option<Node<'a>> {
    let init = strip(*init);
    match init.kind() {
        K::INIT_LIST => {
            let items: Vec<Node> = init
                .children()
                .into_iter()
                .filter(|c| c.is_expression())
                .collect();
            if let [one] = items.as_slice() {
                if strip(*one).kind() == K::CALL {
                    return field_of_init(one, field, fields);
                }
            }
            let at = fields.iter().position(|f| f.spelling() == field)?;
            (items.len() == fields.len()).then(|| items[at])
        }
        K::CALL => {
            let ctor = init.referenced().filter(|c| c.kind() == K::CONSTRUCTOR)?;
            let ctor = ctor.definition().unwrap_or(ctor);
            let ch = ctor.children();
            let params = ctor.params();
            let at = ch
                .iter()
                .position(|c| c.kind() == K::MEMBER && c.spelling() == field)?;
            let value = uncopied(ch.get(at + 1)?);
            let r = value.referenced().filter(|_| value.kind() == K::DECL_REF)?;
            let k = params.iter().position(|p| p.id() == r.id())? as u32;
            ((k as i32) < init.num_args()).then(|| init.arg(k))
        }
        _ => None,
    }
}

/// The value the field `field` (`gridDim`, `blockDim`) of the launch
/// configuration `arg` points to holds at the launch spanning `call`
/// (`cudaLaunchKernelEx(&config, …)`): the value of the last assignment
/// `config.blockDim = …` that reaches the launch with nothing changing the
/// field in between, or, when nothing assigns the field, the local's
/// initialiser (`= {grid, block, 0, stream}`, fields in order).
fn config_field<'a>(
    arg: &Node<'a>,
    field: &str,
    func: Option<Node<'a>>,
    call: (u32, u32),
) -> Option<Node<'a>> {
    use super::clang::op;
    let a = strip(*arg);
    if a.kind() != K::UNARY || a.unop() != op::ADDR_OF {
        return None;
    }
    let a = strip(*a.children().first()?);
    let var = a
        .referenced()
        .filter(|v| a.kind() == K::DECL_REF && v.kind() == K::VAR)?;
    let f = func?;
    if var.semantic_parent().is_none_or(|p| p.id() != f.id()) {
        return None;
    }
    let changes = field_changes(&f, &var, field, call);
    let sets = |lhs: &Node| {
        lhs.kind() == K::MEMBER_REF
            && lhs.spelling() == field
            && lhs.children().first().is_some_and(|b| reads_var(b, &var))
    };
    if let Some((at, value)) = last_assignment(&f, call.0, &sets) {
        let mut others = changes;
        without_one(&mut others, at);
        return none_between(&f, &others, at, call.0).then(|| innermost_value(value));
    }
    if !changes.is_empty() {
        return None;
    }
    field_of_init(&initializer(&var)?, field, &var.record_fields())
}

/// Where `f` may change the field `field` of the local `var`, outside the
/// call spanning `call`: assignments to the field, to one of its axes or
/// to the whole, increments, its address taken, the local passed whole.
fn field_changes(f: &Node, var: &Node, field: &str, call: (u32, u32)) -> Vec<u32> {
    use super::clang::op;
    // `var`, `var.field` or `var.field.x`.
    fn touches(n: &Node, var: &Node, field: &str) -> bool {
        let n = strip(*n);
        if reads_var(&n, var) {
            return true;
        }
        let Some(base) = n.children().first().map(|b| strip(*b)) else {
            return false;
        };
        n.kind() == K::MEMBER_REF
            && ((n.spelling() == field && reads_var(&base, var))
                || (base.kind() == K::MEMBER_REF && touches(&base, var, field)))
    }
    fn walk(n: &Node, var: &Node, field: &str, call: (u32, u32), out: &mut Vec<u32>) {
        for c in n.children() {
            let (start, end) = c.byte_range();
            if start >= call.0 && end <= call.1 {
                continue;
            }
            let k = c.kind();
            let ch = c.children();
            let assigns = (k == K::BINARY && c.binop() == op::ASSIGN)
                || k == K::COMPOUND_ASSIGN
                || (k == K::CALL && c.spelling().starts_with("operator") && c.num_args() >= 1);
            let ch = if k == K::CALL { c.args() } else { ch };
            let steps = k == K::UNARY
                && matches!(
                    c.unop(),
                    op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC | op::ADDR_OF
                );
            let passed = k == K::CALL && c.args().iter().any(|a| reads_var(a, var));
            if ((assigns || steps) && ch.first().is_some_and(|l| touches(l, var, field))) || passed
            {
                out.push(c.offset());
            }
            walk(&c, var, field, call, out);
        }
    }
    let mut out = Vec::new();
    walk(f, var, field, call, &mut out);
    out
}

/// The arguments every launch of `sites` passes as one constant, by
/// position.
pub fn constant_args(sites: &[LaunchSite]) -> Vec<(usize, i64)> {
    let constant = |r: &Relation| match (&r.lhs, &r.term) {
        (Side::Arg(i, _), Term::Int(c)) if r.rel == Rel::Eq => Some((*i as usize, *c)),
        _ => None,
    };
    let Some((first, rest)) = sites.split_first() else {
        return Vec::new();
    };
    first
        .relations
        .iter()
        .filter_map(constant)
        .filter(|a| {
            rest.iter()
                .all(|s| s.relations.iter().any(|r| constant(r) == Some(*a)))
        })
        .collect()
}

/// The kernel template and template arguments an unresolved template id
/// of a host template names (`reduce<T, 512, true>` in the body of
/// `template <class T> void run(…)`): the arguments that are constants, and
/// the spelling of those that are types. `None` when it names no kernel
/// template or an argument is a value only an instantiation knows.
pub(crate) fn dependent_kernel<'a>(n: &Node<'a>) -> Option<(Node<'a>, TemplateArgs)> {
    named_kernel(n, false).filter(|(_, args)| !args.is_empty())
}

/// The kernel template an unresolved name of a host template names, with
/// its explicit arguments. With `prefix`, the arguments up to the first
/// that only an instantiation knows (possibly none): the rest may be any.
fn named_kernel<'a>(n: &Node<'a>, prefix: bool) -> Option<(Node<'a>, TemplateArgs)> {
    let n = strip(*n);
    if n.kind() != K::DECL_REF
        || n.referenced()
            .is_some_and(|r| r.kind() != K::OVERLOADED_REF)
    {
        return None;
    }
    let ch = n.children();
    let (first, rest) = ch.split_first()?;
    if first.kind() != K::OVERLOADED_REF {
        return None;
    }
    let templates: Vec<Node> = first
        .overloaded_decls()
        .into_iter()
        .filter(|d| d.kind() == K::FUNCTION_TEMPLATE && d.has_attr(K::CUDA_GLOBAL))
        .collect();
    let [template] = templates.as_slice() else {
        return None;
    };
    // The arguments as written: a builtin type (`k<float, 256>`) has no
    // cursor of its own, so the cursors alone would shift the values that
    // follow it onto the wrong parameters. The cursors are the other
    // arguments, in order.
    let written: Vec<Option<String>> = match written_template_args(&n, &template.spelling()) {
        Some(texts) => texts
            .into_iter()
            .map(|t| is_builtin_type(&t).then_some(t))
            .collect(),
        // Not spelled there (a macro's expansion): the cursors, when there
        // is one per parameter of the template, so that none is left out.
        None => {
            let params = template.template_params().len();
            vec![None; params]
        }
    };
    if written.iter().filter(|t| t.is_none()).count() != rest.len() {
        return None;
    }
    let mut cursors = rest.iter();
    let mut args = Vec::new();
    for text in written {
        let arg = match text {
            Some(builtin) => Some(Err(builtin)),
            None => match cursors.next() {
                Some(a) if a.kind() == K::TYPE_REF => Some(Err(a.spelling())),
                Some(a) if a.is_expression() => a.eval_int().map(Ok),
                _ => None,
            },
        };
        match arg {
            Some(arg) => args.push(arg),
            None if prefix => break,
            None => return None,
        }
    }
    Some((*template, args))
}

/// The template arguments of a name as written (`k<float, 2 * B>`), each
/// as its tokens joined by spaces; none for a name without a list (`k`
/// with every argument deduced). `None` when the name `name` is not
/// spelled there or the list is cut short.
fn written_template_args(n: &Node, name: &str) -> Option<Vec<String>> {
    let tokens = n.tokens();
    // `k<…>` or `ns::k<…>`.
    let at = tokens.iter().position(|(t, _)| t == name)?;
    if tokens[..at]
        .iter()
        .enumerate()
        .any(|(i, (t, _))| (i % 2 == 1) != (t == "::"))
    {
        return None;
    }
    let open = at + 1;
    if tokens.get(open).is_none_or(|(t, _)| t != "<") {
        return Some(Vec::new());
    }
    template_arg_list(&tokens[open..])
}

/// The arguments of the template argument list `tokens` opens with its
/// `<`, each as its tokens joined by spaces; `None` when it is cut short.
pub(crate) fn template_arg_list(tokens: &[(String, u32)]) -> Option<Vec<String>> {
    let mut args = Vec::new();
    // Open brackets; a `>` closes a `<` only, and is a comparison inside
    // parentheses (`k<T, (N > 4)>`).
    let mut open_brackets: Vec<&str> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    // `>>` closes two lists (`k<T, vec<int>>`), or shifts inside parentheses.
    for (tok, _) in tokens.iter().skip(1) {
        let halves: Vec<&str> = match tok.as_str() {
            ">>" if open_brackets.last() != Some(&"(") => vec![">", ">"],
            t => vec![t],
        };
        for tok in halves {
            match tok {
                "<" | "(" | "[" | "{" => open_brackets.push(tok),
                ">" if open_brackets.last() == Some(&"<") => {
                    open_brackets.pop();
                }
                ">" if open_brackets.is_empty() => {
                    if !current.is_empty() {
                        args.push(current.join(" "));
                    }
                    return Some(args);
                }
                ")" | "]" | "}" => {
                    open_brackets.pop();
                }
                "," if open_brackets.is_empty() => {
                    args.push(std::mem::take(&mut current).join(" "));
                    continue;
                }
                _ => {}
            }
            current.push(tok);
        }
    }
    None
}

/// Whether `text` spells a builtin type (`float`, `unsigned int`).
fn is_builtin_type(text: &str) -> bool {
    const WORDS: [&str; 12] = [
        "void", "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
        "wchar_t", "__int128",
    ];
    const QUALIFIERS: [&str; 4] = ["const", "volatile", "*", "&"];
    let words: Vec<&str> = text.split(' ').collect();
    words.iter().any(|w| WORDS.contains(w))
        && words
            .iter()
            .all(|w| WORDS.contains(w) || QUALIFIERS.contains(w))
}

/// The key of a kernel that `f` declares or specialises, if it is one.
fn kernel_key(f: &Node) -> Option<KernelKey> {
    if f.kind() != K::FUNCTION && f.kind() != K::FUNCTION_TEMPLATE {
        return None;
    }
    match f.specialized_template() {
        Some(t) if t.kind() == K::FUNCTION_TEMPLATE => {
            let global = t.has_attr(K::CUDA_GLOBAL) || f.has_attr(K::CUDA_GLOBAL);
            global.then(|| (t.id(), f.template_args()))
        }
        _ => f.has_attr(K::CUDA_GLOBAL).then(|| (f.id(), Vec::new())),
    }
}

/// How a kernel reads in reports: its name, with the template arguments of
/// an instantiation (`reduce<float, 256>`).
pub fn kernel_name(spelling: &str, targs: &TemplateArgs) -> String {
    if targs.is_empty() {
        return spelling.to_string();
    }
    let args: Vec<String> = targs
        .iter()
        .map(|a| match a {
            Ok(v) => v.to_string(),
            Err(t) => t.clone(),
        })
        .collect();
    format!("{spelling}<{}>", args.join(", "))
}

/// The kernel a local variable is initialised to (`auto kernel =
/// k<T, 128>;` or `= &k<float>`), with whether a host template leaves it
/// an instantiation only in part.
fn kernel_alias<'a>(var: &Node<'a>) -> Option<(KernelKey, Node<'a>, bool)> {
    let init = initializer(var)?;
    if let Some((key, f)) = referenced_kernel(&init) {
        return Some((key, f, false));
    }
    let init = strip(init);
    let init = if init.kind() == K::UNARY {
        strip(*init.children().first()?)
    } else {
        init
    };
    named_kernel(&init, true).map(|(t, args)| ((t.id(), args), t, true))
}

/// Whether `var` is used in `func`, and every use of it there is the
/// kernel of a launch or the subject of an attribute or occupancy query:
/// naming the kernel there lets no address escape.
fn only_launched(var: &Node, func: Option<Node>) -> bool {
    fn walk(n: &Node, var: u32, uses: &mut usize, allowed: &mut usize) {
        for c in n.children() {
            let k = c.kind();
            if k == K::DECL_REF && c.referenced().is_some_and(|r| r.id() == var) {
                *uses += 1;
            }
            if k == K::CALL {
                let names = |i: u32| strip(c.arg(i)).referenced().is_some_and(|r| r.id() == var);
                let api = c.referenced().map(|f| f.spelling()).unwrap_or_default();
                let launch = c.referenced().is_some_and(|r| r.id() == var)
                    || (matches!(
                        api.as_str(),
                        "cudaLaunchKernel" | "cudaLaunchCooperativeKernel"
                    ) && names(0))
                    || (api.starts_with("cudaLaunchKernelEx") && names(1));
                if launch || queries(&c, var) {
                    *allowed += 1;
                }
            }
            walk(&c, var, uses, allowed);
        }
    }
    let Some(func) = func else {
        return false;
    };
    let (mut uses, mut allowed) = (0, 0);
    walk(&func, var.id(), &mut uses, &mut allowed);
    uses > 0 && uses == allowed
}

/// The kernels a function pointer local to `func` may hold, when host code
/// only stores kernels in it and only launches, compares or queries
/// through it (`kernel = &transpose; … if (kernel == &copy) …;
/// kernel<<<grid, threads>>>(…)`): each launch through it is a launch of
/// every kernel it may hold, and none of their addresses escapes.
fn pointer_targets<'a>(
    var: &Node<'a>,
    func: Option<Node<'a>>,
) -> Option<Vec<(KernelKey, Node<'a>)>> {
    struct Uses<'a> {
        var: u32,
        uses: usize,
        allowed: usize,
        targets: Vec<(KernelKey, Node<'a>)>,
        launches: usize,
        stray: bool,
    }
    fn names(n: &Node, var: u32) -> bool {
        let n = strip(*n);
        n.kind() == K::DECL_REF && n.referenced().is_some_and(|r| r.id() == var)
    }
    fn stored<'a>(u: &mut Uses<'a>, value: &Node<'a>) {
        if let Some(t) = referenced_kernel(value) {
            if !u.targets.iter().any(|(k, _)| *k == t.0) {
                u.targets.push(t);
            }
        } else if !matches!(strip(*value).kind(), K::NULLPTR | K::GNU_NULL)
            && strip(*value).eval_int() != Some(0)
        {
            u.stray = true;
        }
    }
    fn walk<'a>(n: &Node<'a>, u: &mut Uses<'a>) {
        for c in n.children() {
            let k = c.kind();
            if k == K::DECL_REF && c.referenced().is_some_and(|r| r.id() == u.var) {
                u.uses += 1;
            }
            if k == K::BINARY {
                let ch = c.children();
                if ch.len() == 2 && c.binop() == op::ASSIGN && names(&ch[0], u.var) {
                    u.allowed += 1;
                    stored(u, &ch[1]);
                } else if ch.len() == 2
                    && matches!(c.binop(), op::EQ | op::NE)
                    && (names(&ch[0], u.var) || names(&ch[1], u.var))
                {
                    u.allowed += 1;
                }
            } else if k == K::CALL {
                let launched =
                    c.referenced().is_some_and(|r| r.id() == u.var) && launch_config(&c).is_some();
                if launched || queries(&c, u.var) {
                    u.allowed += 1;
                }
                if launched {
                    u.launches += 1;
                }
            }
            walk(&c, u);
        }
    }
    let func = func?;
    if !var.ty().canonical().pointee().spelling().contains('(')
        || !var.semantic_parent().is_some_and(|p| p.same(&func))
    {
        return None;
    }
    let mut u = Uses {
        var: var.id(),
        uses: 0,
        allowed: 0,
        targets: Vec::new(),
        launches: 0,
        stray: false,
    };
    if let Some(init) = initializer(var) {
        stored(&mut u, &init);
    }
    walk(&func, &mut u);
    (!u.stray && u.uses == u.allowed && u.launches > 0 && !u.targets.is_empty())
        .then_some(u.targets)
}

/// Whether `c` stores into, or compares with, a pointer local that only
/// holds kernels ([`pointer_targets`]).
fn kernel_pointer_operand(c: &Node, func: Option<Node>) -> bool {
    let ch = c.children();
    let operand = |n: &Node| {
        let n = strip(*n);
        n.kind() == K::DECL_REF
            && n.referenced()
                .is_some_and(|v| v.kind() == K::VAR && pointer_targets(&v, func).is_some())
    };
    match c.binop() {
        op::ASSIGN => ch.len() == 2 && operand(&ch[0]),
        op::EQ | op::NE => ch.len() == 2 && (operand(&ch[0]) || operand(&ch[1])),
        _ => false,
    }
}

/// Whether the runtime function `name` queries a kernel's attributes or
/// occupancy (`cudaFuncSetAttribute`, …): naming a kernel there launches
/// nothing.
fn attribute_query(name: &str) -> bool {
    name.starts_with("cudaFuncGetAttributes")
        || name.starts_with("cudaFuncSet")
        || name.starts_with("cudaOccupancy")
}

/// Whether the call `c` is an attribute or occupancy query with the
/// variable `var` among its arguments.
fn queries(c: &Node, var: u32) -> bool {
    let api = c.referenced().map(|f| f.spelling()).unwrap_or_default();
    attribute_query(&api)
        && (0..c.num_args().max(0) as u32)
            .any(|i| strip(c.arg(i)).referenced().is_some_and(|r| r.id() == var))
}

fn referenced_kernel<'a>(n: &Node<'a>) -> Option<(KernelKey, Node<'a>)> {
    let n = strip(*n);
    if n.kind() == K::UNARY {
        return n.children().first().and_then(referenced_kernel);
    }
    let r = n.referenced()?;
    kernel_key(&r).map(|key| (key, r))
}

/// The most launch configurations one launch expression may stand for
/// (`k<<<g, sizes[i]>>>` over a table of block sizes); past it, the axes
/// that differ are unknown.
const MAX_ALTERNATIVES: usize = 64;

/// What host code of a unit passes to its own functions, so that a launch
/// size that is a parameter of the function making the launch can be read
/// at that function's callers (`void run(int threads) { k<<<g, threads>>>(…); }`
/// called as `run(256)`).
#[derive(Default)]
struct Callers<'a> {
    /// Each function's calls, with the function that makes them.
    calls: HashMap<u32, Vec<Call<'a>>>,
    /// Per function template, which of its parameters is a callable it
    /// calls with the rest of its arguments ([`forwarded_callable`]).
    harnesses: HashMap<u32, Option<u32>>,
    /// How often each function is named at all: a function named other
    /// than as the callee of a call seen here (its address taken, a call in
    /// a template clang leaves unresolved) has callers drfscan does not see.
    named: HashMap<u32, usize>,
    /// Whether the unit defines `main`.
    program: bool,
}

/// A call of a function: the call expression, the function making it,
/// and which of the expression's arguments is the callee's first. That is
/// 0 but for a harness (`benchmark(repeats, run, a, b)` calling `run(a,
/// b)`), whose callee's arguments follow it.
#[derive(Clone, Copy)]
struct Call<'a> {
    expr: Node<'a>,
    caller: Option<Node<'a>>,
    first: u32,
}

/// The identity of a function as calls name it: a template's
/// specialisations are calls of the template.
fn function_id(f: &Node) -> u32 {
    f.specialized_template()
        .filter(|t| t.kind() == K::FUNCTION_TEMPLATE)
        .unwrap_or(*f)
        .id()
}

impl<'a> Callers<'a> {
    fn index(root: &Node<'a>, project: &dyn Fn(&Node) -> bool) -> Callers<'a> {
        let mut out = Callers::default();
        out.walk(root, None, project);
        out
    }

    fn walk(&mut self, n: &Node<'a>, func: Option<Node<'a>>, project: &dyn Fn(&Node) -> bool) {
        for c in n.children() {
            if !project(&c) {
                continue;
            }
            let k = c.kind();
            let func =
                if [K::FUNCTION, K::METHOD, K::FUNCTION_TEMPLATE, K::CONSTRUCTOR].contains(&k) {
                    if k == K::FUNCTION && c.spelling() == "main" && c.is_definition() {
                        self.program = true;
                    }
                    Some(c)
                } else {
                    func
                };
            match k {
                K::CALL => {
                    if let Some(f) = c.referenced().filter(|f| f.kind() == K::FUNCTION) {
                        self.calls.entry(function_id(&f)).or_default().push(Call {
                            expr: c,
                            caller: func,
                            first: 0,
                        });
                        if let Some((callee, first)) = self.harnessed(&c, &f) {
                            self.calls
                                .entry(function_id(&callee))
                                .or_default()
                                .push(Call {
                                    expr: c,
                                    caller: func,
                                    first,
                                });
                        }
                    }
                }
                K::DECL_REF => {
                    if let Some(f) = c
                        .referenced()
                        .filter(|f| f.kind() == K::FUNCTION || f.kind() == K::FUNCTION_TEMPLATE)
                    {
                        *self.named.entry(function_id(&f)).or_default() += 1;
                    }
                }
                K::OVERLOADED_REF => {
                    for f in c.overloaded_decls() {
                        // Which overload a dependent call picks is unknown:
                        // count it as a use no call accounts for.
                        *self.named.entry(function_id(&f)).or_default() += 2;
                    }
                }
                _ => {}
            }
            self.walk(&c, func, project);
        }
    }

    /// The function `c`, a call of the harness `h`, calls with the
    /// arguments after it, and where they start: named in the argument
    /// [`forwarded_callable`] picks. Its name there is the one mention a
    /// call of it accounts for.
    fn harnessed(&mut self, c: &Node<'a>, h: &Node<'a>) -> Option<(Node<'a>, u32)> {
        let template = h
            .specialized_template()
            .filter(|t| t.kind() == K::FUNCTION_TEMPLATE)?;
        let k = *self
            .harnesses
            .entry(template.id())
            .or_insert_with(|| forwarded_callable(&template));
        let k = k?;
        if k as i32 >= c.num_args() {
            return None;
        }
        let mut arg = strip(c.arg(k));
        if arg.kind() == K::UNARY && arg.unop() == super::clang::op::ADDR_OF {
            arg = strip(*arg.children().first()?);
        }
        let callee = arg
            .referenced()
            .filter(|f| arg.kind() == K::DECL_REF && f.kind() == K::FUNCTION)?;
        Some((callee, k + 1))
    }

    /// The calls of `f` when they are all the calls the program makes of
    /// it: `f` is named only as their callee, and no other unit can call it
    /// (it is `static`, or this unit is the program's main file and defines
    /// `f`).
    fn of(&self, f: &Node) -> Option<&[Call<'a>]> {
        let id = f.id();
        let calls = self.calls.get(&id)?;
        let alone = f.internal_linkage() || (self.program && f.is_definition());
        (alone && self.named.get(&id) == Some(&calls.len())).then_some(calls.as_slice())
    }
}

/// Which parameter of the function template `t` is a callable that `t`
/// calls with its last parameter, a pack, passed on whole
/// (`template <class F, class... A> float time(int n, F f, A&&... a) {
/// … f(std::forward<A>(a)...); }`), doing nothing else with it: a call of
/// `t` then calls that argument with the arguments after it.
fn forwarded_callable(t: &Node) -> Option<u32> {
    let ch = t.children();
    let params: Vec<String> = ch
        .iter()
        .filter(|c| c.kind() == K::PARM)
        .map(Node::spelling)
        .collect();
    let body = ch.iter().find(|c| c.kind() == K::COMPOUND)?;
    let (pack, rest) = params.split_last()?;
    let signature: Vec<String> = t.tokens().into_iter().map(|(t, _)| t).collect();
    let declared_pack = signature.windows(2).any(|w| w[0] == "..." && &w[1] == pack);
    if !declared_pack || rest.is_empty() {
        return None;
    }
    let callable = &rest[rest.len() - 1];
    let toks: Vec<String> = body.tokens().into_iter().map(|(t, _)| t).collect();
    let forwarded = |args: &[String]| -> bool {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        match a.as_slice() {
            [p, "..."] => p == pack,
            ["std", "::", "forward", "<", .., ">", "(", p, ")", "..."]
            | ["forward", "<", .., ">", "(", p, ")", "..."] => p == pack,
            _ => false,
        }
    };
    let mut calls = 0;
    for (i, t) in toks.iter().enumerate() {
        if t != callable {
            continue;
        }
        if toks.get(i + 1).map(String::as_str) != Some("(") {
            return None;
        }
        let mut level = 0;
        let mut end = None;
        for (j, u) in toks.iter().enumerate().skip(i + 1) {
            match u.as_str() {
                "(" => level += 1,
                ")" => {
                    level -= 1;
                    if level == 0 {
                        end = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        if !forwarded(&toks[i + 2..end?]) {
            return None;
        }
        calls += 1;
    }
    // The pack goes nowhere else.
    let uses_of_pack = toks.iter().filter(|t| *t == pack).count();
    (calls > 0 && uses_of_pack == calls).then_some(rest.len() as u32 - 1)
}

/// Where a launch argument is read: the host function, and the place in
/// it of the launch (or of the call that leads to it), where the branches
/// around it say what the variables it reads hold.
#[derive(Clone, Copy)]
struct Here<'a> {
    func: Option<Node<'a>>,
    at: u32,
    /// The launch argument or call at `at`: what the branches around it
    /// are found by, where a macro expansion gives every statement the
    /// same place.
    node: Option<Node<'a>>,
}

/// The sizes a launch argument may give, as far as they are constants: one
/// `Dims` per configuration it may stand for.
fn dims(n: &Node, func: Option<Node>, callers: &Callers) -> Vec<Dims> {
    let here = Here {
        func,
        at: n.offset(),
        node: Some(*n),
    };
    let mut out = dims_at(n, here, callers, 0);
    out.sort();
    out.dedup();
    out
}

/// A launch in device code (dynamic parallelism), which clang drops from
/// the tree: its sizes read from the source text `src` at the kernel's
/// name (`line`, `column`, 1-based), when they are integer literals, macros
/// the file defines as such, or `dim3` of those. An unread size is `None`,
/// as for host launches; `None` for the whole when there is no `<<<`.
pub fn device_site(src: &str, file: &str, line: u32, column: u32) -> Option<LaunchSite> {
    let start = src
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum::<usize>()
        + column.saturating_sub(1) as usize;
    let rest = src.get(start..)?;
    // The name and its template arguments, then the configuration.
    let open = rest.find("<<<")?;
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(rest.len());
    let targs = rest[name_end.min(open)..open].trim();
    let is_targs = targs.is_empty() || (targs.starts_with('<') && targs.ends_with('>'));
    if name_end == 0 || !is_targs || targs.contains([';', '{', '}']) {
        return None;
    }
    let config = &rest[open + 3..];
    let close = config.find(">>>")?;
    let args = split_outside(&config[..close], EXPRESSION_BRACKETS);
    let macros = object_macros(src);
    let dims = |arg: Option<&&str>| -> Dims {
        let Some(arg) = arg else {
            return [None; 3];
        };
        let arg = arg.trim();
        let value = |t: &str| text_constant(t.trim(), &macros);
        match arg
            .strip_prefix("dim3")
            .map(str::trim_start)
            .and_then(|a| a.strip_prefix('('))
            .and_then(|a| a.strip_suffix(')'))
        {
            Some(inner) => {
                let parts = split_outside(inner, EXPRESSION_BRACKETS);
                let mut out = [Some(1); 3];
                for (o, p) in out.iter_mut().zip(&parts) {
                    *o = value(p);
                }
                if parts.len() > 3 {
                    return [None; 3];
                }
                out
            }
            None => match value(arg) {
                Some(v) => [Some(v), Some(1), Some(1)],
                None => [None; 3],
            },
        }
    };
    Some(LaunchSite {
        grid: dims(args.first()),
        block: dims(args.get(1)),
        file: file.to_string(),
        loc: Loc::new(line, column),
        relations: Vec::new(),
    })
}

/// The brackets a C expression's commas may sit inside.
const EXPRESSION_BRACKETS: &[(char, char)] = &[('(', ')'), ('[', ']'), ('{', '}')];

/// `text` split at its commas outside the brackets `pairs` open and close.
pub(crate) fn split_outside<'t>(text: &'t str, pairs: &[(char, char)]) -> Vec<&'t str> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in text.char_indices() {
        if pairs.iter().any(|(open, _)| *open == c) {
            depth += 1;
        } else if pairs.iter().any(|(_, close)| *close == c) {
            depth -= 1;
        } else if c == ',' && depth == 0 {
            out.push(&text[from..i]);
            from = i + 1;
        }
    }
    out.push(&text[from..]);
    out
}

/// The largest block `__launch_bounds__(max, …)` admits, from the tokens
/// of the kernel's declaration before its body: the first argument, of
/// integer literals, names `value` gives (template parameters, macros)
/// and `+ - * / ( )`. A launch of more threads fails, so every block that
/// runs is at most that wide along each axis.
pub(crate) fn launch_bound(toks: &[String], value: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    let head = toks.iter().position(|t| t == "{").unwrap_or(toks.len());
    let at = toks[..head]
        .iter()
        .position(|t| t == "__launch_bounds__" || t == "launch_bounds")?;
    if toks.get(at + 1).map(String::as_str) != Some("(") {
        return None;
    }
    let mut arg: Vec<&str> = Vec::new();
    let mut depth = 0;
    for t in &toks[at + 2..head] {
        match t.as_str() {
            "(" => depth += 1,
            ")" if depth == 0 => break,
            ")" => depth -= 1,
            "," if depth == 0 => break,
            _ => {}
        }
        arg.push(t);
    }
    let mut at = 0;
    let v = bound_expr(&arg, &mut at, 0, value)?;
    (at == arg.len() && v > 0).then_some(v)
}

/// C tokens of `text`, roughly: names, numbers and single punctuation
/// marks; comments and strings are not told apart.
pub(crate) fn text_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some((j, d)) = chars.peek().copied() {
                if !(d.is_ascii_alphanumeric() || d == '_') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out.push(text[i..end].to_string());
        } else {
            out.push(c.to_string());
        }
    }
    out
}

/// Operators by how tightly they bind, loosest first.
const BOUND_OPERATORS: [[&str; 2]; 2] = [["+", "-"], ["*", "/"]];

/// An expression of operators binding at least as tightly as level
/// `level` of [`BOUND_OPERATORS`], left to right.
fn bound_expr(
    t: &[&str],
    at: &mut usize,
    level: usize,
    value: &dyn Fn(&str) -> Option<i64>,
) -> Option<i64> {
    let Some(ops) = BOUND_OPERATORS.get(level) else {
        return bound_atom(t, at, value);
    };
    let mut v = bound_expr(t, at, level + 1, value)?;
    while let Some(op) = t.get(*at).filter(|o| ops.contains(*o)) {
        *at += 1;
        let r = bound_expr(t, at, level + 1, value)?;
        v = match *op {
            "+" => v.checked_add(r)?,
            "-" => v.checked_sub(r)?,
            "*" => v.checked_mul(r)?,
            _ => v.checked_div(r)?,
        };
    }
    Some(v)
}

fn bound_atom(t: &[&str], at: &mut usize, value: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    let tok = *t.get(*at)?;
    *at += 1;
    if tok == "(" {
        let v = bound_expr(t, at, 0, value)?;
        if t.get(*at) != Some(&")") {
            return None;
        }
        *at += 1;
        return Some(v);
    }
    text_value(tok, &HashMap::new()).or_else(|| value(tok))
}

/// The file's object-like macros whose body is one token (`#define N 128`).
pub(crate) fn object_macros(src: &str) -> HashMap<&str, &str> {
    src.lines()
        .filter_map(|l| {
            let l = l.trim_start().strip_prefix('#')?.trim_start();
            let l = l.strip_prefix("define")?;
            let mut words = l.split_whitespace();
            let (name, body) = (words.next()?, words.next()?);
            (words.next().is_none() && !name.contains('(')).then_some((name, body))
        })
        .collect()
}

/// The template arguments written after a name's `<` (`toks` runs on past
/// its `>`), one per parameter of `params` in order: a type as written
/// (`Err`), or a value that is an integer literal, `true`/`false` or a
/// macro of one (`Ok`). `None` when an argument is neither, or when more
/// arguments are written than there are parameters (a pack).
pub(crate) fn written_args(
    toks: &[(String, u32)],
    params: &[Node],
    macros: &HashMap<&str, &str>,
) -> Option<TemplateArgs> {
    let mut parts: Vec<Vec<&str>> = vec![Vec::new()];
    let mut depth = 1i32;
    for (t, _) in toks {
        match t.as_str() {
            "<" | "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            ">" => depth -= 1,
            ">>" => depth -= 2,
            _ => {}
        }
        if depth <= 0 {
            break;
        }
        if depth == 1 && t == "," {
            parts.push(Vec::new());
        } else {
            parts.last_mut().expect("one part at least").push(t);
        }
    }
    if depth > 0 || parts.len() > params.len() || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    parts
        .iter()
        .zip(params)
        .map(|(p, param)| {
            if param.kind() == K::TEMPLATE_TYPE_PARAM {
                return Some(Err(join_type_tokens(p)));
            }
            if param.kind() != K::NON_TYPE_TEMPLATE_PARAM {
                return None;
            }
            match p.as_slice() {
                ["true"] => Some(Ok(1)),
                ["false"] => Some(Ok(0)),
                ["-", v] => text_value(v, macros).map(|v| Ok(-v)),
                [v] => text_value(v, macros).map(Ok),
                _ => None,
            }
        })
        .collect()
}

/// A type's tokens as clang spells it: a space between words only
/// (`unsigned int`, `const float*`, `Vec<float>`).
fn join_type_tokens(toks: &[&str]) -> String {
    let word = |t: &str| {
        t.chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    let mut out = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && word(toks[i - 1]) && word(t) {
            out.push(' ');
        }
        out.push_str(t);
    }
    out
}

/// An integer literal (`0` too) or a one-token macro of one.
pub(crate) fn text_value(t: &str, macros: &HashMap<&str, &str>) -> Option<i64> {
    if t == "0" {
        return Some(0);
    }
    let body = macros.get(t).copied().unwrap_or(t);
    if body == "0" {
        return Some(0);
    }
    text_constant(body, &HashMap::new()).and_then(|v| i64::try_from(v).ok())
}

/// A positive integer literal (with `u`/`l` suffixes), or a macro of one.
fn text_constant(t: &str, macros: &HashMap<&str, &str>) -> Option<u64> {
    let t = t.trim_start_matches('(').trim_end_matches(')').trim();
    let digits = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let n = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        u64::from_str_radix(hex, 16).ok()
    } else if digits.chars().all(|c| c.is_ascii_digit()) && !digits.is_empty() {
        // `010` is octal; left unread.
        if digits.len() > 1 && digits.starts_with('0') {
            return None;
        }
        digits.parse().ok()
    } else {
        let body = macros.get(t)?;
        // One level: a macro of a macro is left unread.
        return text_constant(body, &HashMap::new());
    };
    n.filter(|&n| n > 0)
}

/// Per axis, the size every alternative agrees on.
fn agree(alternatives: &[Dims]) -> Dims {
    let Some(mut out) = alternatives.first().copied() else {
        return [None; 3];
    };
    for d in &alternatives[1..] {
        for (o, v) in out.iter_mut().zip(d) {
            if *o != *v {
                *o = None;
            }
        }
    }
    out
}

/// One size per alternative of a scalar launch argument (`threads`,
/// `sizes[i]`); `None` stands for an unknown.
fn scalars(n: &Node, here: Here, callers: &Callers, depth: usize) -> Vec<Option<u64>> {
    let mut v: Vec<Option<u64>> = dims_at(n, here, callers, depth)
        .iter()
        .map(|d| d[0])
        .collect();
    v.sort();
    v.dedup();
    if v.contains(&None) {
        vec![None]
    } else {
        v
    }
}

fn dims_at(n: &Node, here: Here, callers: &Callers, depth: usize) -> Vec<Dims> {
    const UNKNOWN: Dims = [None; 3];
    if depth > 8 {
        return vec![UNKNOWN];
    }
    let n = strip(*n);
    let scalar = |v: i64| [u64::try_from(v).ok().filter(|v| *v >= 1), Some(1), Some(1)];
    if let Some(v) = n.eval_int() {
        return vec![scalar(v)];
    }
    if n.kind() == K::CONDITIONAL {
        // `big ? 512 : 256`: either.
        let ch = n.children();
        if ch.len() == 3 {
            let mut out = dims_at(&ch[1], here, callers, depth + 1);
            out.extend(dims_at(&ch[2], here, callers, depth + 1));
            return bounded(out);
        }
        return vec![UNKNOWN];
    }
    if n.kind() == K::BINARY {
        return arithmetic(&n, here, callers, depth);
    }
    if let Some((base, axis)) = dim3_field(&n) {
        // `block.x` of a `dim3`: that axis of each alternative.
        let mut out: Vec<Dims> = dims_at(&base, here, callers, depth + 1)
            .iter()
            .map(|d| [d[axis], Some(1), Some(1)])
            .collect();
        out.dedup();
        return out;
    }
    if n.kind() == K::ARRAY_SUBSCRIPT {
        if let Some(values) = table(&n, here.func) {
            return values.into_iter().map(scalar).collect();
        }
        // `size_t local[2]; local[0] = 16; … dim3 block(local[0], …)`.
        if let Some((at, value)) = element_assignment(&n, here) {
            let there = Here {
                at,
                node: None,
                ..here
            };
            return dims_at(&value, there, callers, depth + 1);
        }
        return vec![UNKNOWN];
    }
    if n.kind() == K::CALL {
        let Some(ctor) = n.referenced() else {
            return vec![UNKNOWN];
        };
        if ctor.kind() != K::CONSTRUCTOR {
            return vec![UNKNOWN];
        }
        let args: Vec<Node> = n.args();
        if args.len() == 1 && !strip(args[0]).ty().is_integral() {
            // A copy or a conversion (`dim3(v)` of a `dim3` or `uint3`).
            return dims_at(&args[0], here, callers, depth + 1);
        }
        // Each axis a constant, or a local set once to one (`int threads =
        // T; … dim3(threads)`); several alternatives combine as a product.
        let mut out: Vec<Dims> = vec![[Some(1); 3]];
        for (i, a) in args.iter().take(3).enumerate() {
            let values = scalars(a, here, callers, depth + 1);
            out = out
                .iter()
                .flat_map(|d| {
                    values.iter().map(move |v| {
                        let mut d = *d;
                        d[i] = *v;
                        d
                    })
                })
                .collect();
            out = bounded(out);
        }
        return out;
    }
    if n.kind() == K::DECL_REF {
        let Some(var) = n.referenced() else {
            return vec![UNKNOWN];
        };
        if var.kind() == K::VAR {
            if let Some(init) = file_constant(&var) {
                return dims_at(&init, here, callers, depth + 1);
            }
        }
        let Some(f) = here.func else {
            return vec![UNKNOWN];
        };
        let values = if var.kind() == K::PARM {
            if modified(&f, &var.spelling()) {
                // `size = 16;` before the launch: what reaches it.
                return match reaching_assignment(&f, &var, n.offset()) {
                    Some(value) => dims_at(&value, here, callers, depth + 1),
                    None => vec![UNKNOWN],
                };
            }
            parameter(&var, &f, callers, depth)
        } else if var.kind() != K::VAR || var.semantic_parent().is_none_or(|p| p.id() != f.id()) {
            return vec![UNKNOWN];
        } else if let Some(values) = counted(&f, &var).or_else(|| ranged(&f, &var)) {
            values.into_iter().map(scalar).collect()
        } else {
            let init = initializer(&var);
            let start = match init {
                Some(i) => dims_at(&i, here, callers, depth + 1),
                // `dim3 b;` is (1, 1, 1).
                None if var.ty().canonical().spelling().ends_with("dim3") => vec![[Some(1); 3]],
                None => vec![UNKNOWN],
            };
            if local_modified(&f, &var) {
                // `int n; … n = 2048;`: the assignment that reaches the read.
                if let Some(value) = reaching_assignment(&f, &var, n.offset()) {
                    return dims_at(&value, here, callers, depth + 1);
                }
                // A field set from others (`grid.x = N / block.x`) is
                // read where it is set.
                let value_of = |rhs: &Node, at: u32| {
                    rhs.eval_int().or_else(|| {
                        let there = Here {
                            at,
                            node: None,
                            ..here
                        };
                        match dims_at(rhs, there, callers, depth + 1).as_slice() {
                            [d] => d[0].and_then(|v| i64::try_from(v).ok()),
                            _ => None,
                        }
                    })
                };
                return vec![assigned_fields(
                    &f,
                    &var,
                    agree(&start),
                    n.offset(),
                    &value_of,
                )];
            }
            // A local never changed after its initialisation.
            start
        };
        if !var.ty().is_integral() {
            return values;
        }
        return guarded(values, &guards(&f, &var, here));
    }
    vec![UNKNOWN]
}

/// `v.x` (`.y`, `.z`) of a `dim3` or `uint3` value: the value and the axis.
fn dim3_field<'a>(n: &Node<'a>) -> Option<(Node<'a>, usize)> {
    if n.kind() != K::MEMBER_REF {
        return None;
    }
    let axis = ["x", "y", "z"].iter().position(|a| *a == n.spelling())?;
    let base = *n.children().first()?;
    let ty = strip(base).ty().canonical().spelling();
    (ty.ends_with("dim3") || ty.ends_with("uint3")).then_some((base, axis))
}

/// A value of the launching function: one of its parameters or locals,
/// or an axis of one (`dimsB.x`).
#[derive(Clone, Copy, PartialEq, Eq)]
struct HostValue {
    decl: u32,
    axis: Option<usize>,
}

/// The value `n` reads, when it is a parameter or local of `f` (or an axis
/// of one), with its declaration.
fn host_value<'a>(n: &Node<'a>, f: &Node) -> Option<(HostValue, Node<'a>)> {
    let n = strip(*n);
    let (var, axis) = match dim3_field(&n) {
        Some((base, axis)) => (strip(base), Some(axis)),
        None => (n, None),
    };
    if var.kind() != K::DECL_REF {
        return None;
    }
    let decl = var.referenced()?;
    let mine = match decl.kind() {
        K::PARM => true,
        K::VAR => decl.semantic_parent().is_some_and(|p| p.id() == f.id()),
        _ => false,
    };
    mine.then(|| {
        (
            HostValue {
                decl: decl.id(),
                axis,
            },
            decl,
        )
    })
}

/// Whether nothing in `f` changes `var` between bytes `from` and `to`, so
/// that reads there agree: no change in between, and none in a loop that
/// holds one of them but not the other (its next iteration would run the
/// change between them).
fn unchanged_between(f: &Node, var: &Node, from: u32, to: u32) -> bool {
    unchanged_where(f, var, from, to, &|_| true, false)
}

/// [`unchanged_between`], counting only the changes `counts` takes: of
/// one field (`Some(axis)`) or of the whole (`None`).
/// `from_change`: the change at `from` is where the value comes from (an
/// assignment found to reach `to`), which is not counted.
fn unchanged_where(
    f: &Node,
    var: &Node,
    from: u32,
    to: u32,
    counts: &dyn Fn(Option<usize>) -> bool,
    from_change: bool,
) -> bool {
    let mut changes = Vec::new();
    visit_assignments(f, var, false, &constant, &mut |field, _, _, at| {
        if counts(field) {
            changes.push(at);
        }
    });
    if from_change {
        without_one(&mut changes, from);
    }
    none_between(f, &changes, from, to)
}

/// `changes` less one change at `at`.
fn without_one(changes: &mut Vec<u32>, at: u32) {
    if let Some(i) = changes.iter().position(|&c| c == at) {
        changes.remove(i);
    }
}

/// Whether none of the `changes` (places in `f`) can run between bytes
/// `from` and `to`: none lies between them or at either end, and none sits
/// in a loop that holds one of them but not the other. A change at an end
/// counts because places do not order what one macro expansion holds: its
/// statements all share the place it is expanded at.
fn none_between(f: &Node, changes: &[u32], from: u32, to: u32) -> bool {
    let (from, to) = (from.min(to), from.max(to));
    if changes.iter().any(|&c| from <= c && c <= to) {
        return false;
    }
    fn loops_apart(n: &Node, from: u32, to: u32, changes: &[u32]) -> bool {
        n.children().iter().any(|c| {
            let (start, end) = c.byte_range();
            let holds = |at: u32| (start..=end).contains(&at);
            if !holds(from) && !holds(to) {
                return false;
            }
            let looped = [K::FOR, K::WHILE, K::DO, K::FOR_RANGE].contains(&c.kind());
            if looped && holds(from) != holds(to) && changes.iter().any(|&at| holds(at)) {
                return true;
            }
            loops_apart(c, from, to, changes)
        })
    }
    !loops_apart(f, from, to, changes)
}

/// A value a launch passes to the kernel: which, where the argument reads
/// it, and the argument's position and parameter name.
#[derive(Clone)]
struct Passed {
    value: HostValue,
    at: u32,
    index: u32,
    name: String,
}

/// The argument of `passed` that `n` (read in `f`) equals: the same value,
/// unchanged between the two reads.
fn passed_as(n: &Node, f: &Node, passed: &[Passed]) -> Option<Term> {
    let (value, decl) = host_value(n, f)?;
    let p = passed.iter().find(|p| p.value == value)?;
    unchanged_between(f, &decl, n.offset(), p.at).then(|| Term::Arg(p.index, p.name.clone()))
}

/// What the launch `call` (configured by `config`: grid and block) says
/// of the kernel `kernel` beyond constant sizes: each size host code
/// computes from values it passes as arguments (`dim3 grid(M / block.x)`
/// with `M` passed), and each integer argument it passes as one constant.
fn relations(
    call: &Node,
    config: [&Node; 2],
    kernel: &Node,
    func: Option<Node>,
    callers: &Callers,
) -> Vec<Relation> {
    let Some(f) = func else { return Vec::new() };
    let here = Here {
        func,
        at: call.offset(),
        node: Some(*call),
    };
    let params: Vec<String> = kernel
        .children()
        .into_iter()
        .filter(|c| c.kind() == K::PARM)
        .map(|c| c.spelling())
        .collect();
    let mut passed: Vec<Passed> = Vec::new();
    let mut out = Vec::new();
    for i in 0..call.num_args().max(0) as u32 {
        // A declaration may leave the parameter unnamed; its position is
        // what counts.
        let name = match params.get(i as usize) {
            Some(p) if !p.is_empty() => p.clone(),
            _ => format!("#{i}"),
        };
        // The argument as the parameter takes it: `0` passed for a pointer
        // is no integer.
        if !call.arg(i).ty().is_integral() {
            continue;
        }
        let arg = strip(call.arg(i));
        if let Some((value, _)) = host_value(&arg, &f) {
            passed.push(Passed {
                value,
                at: arg.offset(),
                index: i,
                name: name.clone(),
            });
        }
        // Parameters are natural numbers in protocols: a negative
        // constant (`-1` for "none") leaves the parameter open.
        let term = term_at(&arg, here, callers, &[], 0);
        if let Some(v) = term.as_ref().and_then(Term::value) {
            if v >= 0 {
                out.push(Relation::eq(Side::Arg(i, name.clone()), Term::Int(v)));
            }
        } else if let Some(t) = term.filter(Term::only_template_args) {
            // `B / 2` in a host template: each instantiation's constant.
            out.push(Relation::eq(Side::Arg(i, name.clone()), t));
        } else if let Some((HostValue { axis: None, .. }, decl)) = host_value(&arg, &f) {
            if let Some(least) = (decl.kind() == K::VAR)
                .then(|| least_assigned(&f, &decl))
                .flatten()
            {
                out.push(Relation {
                    lhs: Side::Arg(i, name.clone()),
                    rel: Rel::Ge,
                    term: Term::Int(least),
                });
            }
        }
    }
    if passed.is_empty() {
        dim_relations(config, here, callers, &passed, &mut out);
        return out;
    }
    for r in asserted(call, &f, here, callers, &passed) {
        if !out.contains(&r) {
            out.push(r);
        }
    }
    // Arguments host code computes from other arguments (`block_width =
    // (cols - 1) / 16` passed beside `cols`), and the bounds of a loop
    // whose counter is passed (`for (i = 1; i <= block_width; i++)
    // k<<<i, 16>>>(…, i, block_width)`).
    for p in &passed {
        let others: Vec<Passed> = passed
            .iter()
            .filter(|q| q.index != p.index)
            .cloned()
            .collect();
        let arg = strip(call.arg(p.index));
        let side = || Side::Arg(p.index, p.name.clone());
        let known = out.iter().any(|r| r.lhs == side());
        if !known {
            // A value passed twice is said once.
            let later = |t: &Term| matches!(t, Term::Arg(j, _) if *j > p.index);
            if let Some(t) =
                term_at(&arg, here, callers, &others, 0).filter(|t| t.has_arg() && !later(t))
            {
                out.push(Relation::eq(side(), t));
            }
        }
        for (rel, t) in loop_bounds(&arg, here, callers, &others) {
            let r = Relation {
                lhs: side(),
                rel,
                term: t,
            };
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
    dim_relations(config, here, callers, &passed, &mut out);
    out
}

/// What host code makes sure of the values passed before the launch
/// `call` in `f`: the conditions of `assert`s, and the negations of the
/// conditions of `if`s that leave the function or the program (`if (n %
/// 16) { fprintf(…); exit(1); }`), in the blocks around the launch and
/// before it, over arguments only.
fn asserted(
    call: &Node,
    f: &Node,
    here: Here,
    callers: &Callers,
    passed: &[Passed],
) -> Vec<Relation> {
    let at = call.offset();
    let mut conds: Vec<(Node, bool)> = Vec::new();
    for block in around(f, at).iter().filter(|n| n.kind() == K::COMPOUND) {
        for s in block.children().iter().filter(|s| s.byte_range().1 < at) {
            if let Some(c) = assertion(s) {
                conds.push((c, true));
            } else if let Some(c) = early_exit(s) {
                conds.push((c, false));
            }
        }
    }
    let term = |x: &Node| term_at(x, here, callers, passed, 0);
    let mut out = Vec::new();
    for (c, holds) in conds {
        for (rel, a, b) in comparisons(&c, holds) {
            let tb = match b {
                Some(b) => term(&b),
                None => Some(Term::Int(0)),
            };
            let (Some(ta), Some(tb)) = (term(&a), tb) else {
                continue;
            };
            if !ta.has_arg() && !tb.has_arg() {
                continue;
            }
            let r = match (ta, tb) {
                (Term::Arg(i, name), t) => Relation {
                    lhs: Side::Arg(i, name),
                    rel,
                    term: t,
                },
                (t, Term::Arg(i, name)) => Relation {
                    lhs: Side::Arg(i, name),
                    rel: rel.flip(),
                    term: t,
                },
                (a, b) => Relation {
                    lhs: Side::Term(a),
                    rel,
                    term: b,
                },
            };
            out.push(r);
        }
    }
    out
}

/// The condition of `assert(c)` written as a statement: drfscan's own
/// `assert.h` makes it `(void)sizeof((c) ? 1 : 0)`, glibc's
/// `static_cast<bool>(c) ? void(0) : __assert_fail(…)`. (A macro's
/// expansion has no tokens of its own to read the name from.)
fn assertion<'a>(s: &Node<'a>) -> Option<Node<'a>> {
    let e = strip(*s);
    if e.kind() == K::UNARY_EXPR {
        let inner = strip(*e.children().first()?);
        let ch = inner.children();
        let [c, one, zero] = ch.as_slice() else {
            return None;
        };
        let bit = (one.eval_int(), zero.eval_int()) == (Some(1), Some(0));
        return (inner.kind() == K::CONDITIONAL && bit).then(|| strip(*c));
    }
    let ch = e.children();
    let [c, _, fail] = ch.as_slice() else {
        return None;
    };
    let failing = strip(*fail).kind() == K::CALL
        && matches!(
            strip(*fail).spelling().as_str(),
            "__assert_fail" | "__assert_rtn" | "_assert" | "__assertfail"
        );
    (e.kind() == K::CONDITIONAL && failing).then(|| strip(*c))
}

/// The condition of `if (c) { …; return; }` (or `exit(…)`, `abort()`,
/// `throw`) without an `else`: after it, `c` is false.
fn early_exit<'a>(s: &Node<'a>) -> Option<Node<'a>> {
    if s.kind() != K::IF {
        return None;
    }
    let ch = s.children();
    let [c, then] = ch.as_slice() else {
        return None;
    };
    let last = match then.kind() {
        k if k == K::COMPOUND => then.children().last().copied()?,
        _ => *then,
    };
    let leaves = match last.kind() {
        k if k == K::RETURN => true,
        k if k == K::CALL => {
            let name = last.spelling();
            matches!(name.as_str(), "exit" | "abort" | "_Exit" | "quick_exit")
        }
        _ => strip(last).kind() == K::THROW,
    };
    leaves.then(|| strip(*c))
}

/// The comparisons `c` (or, with `holds` false, its negation) makes true
/// together: the parts of a conjunction (of a disjunction negated), `!`
/// read through, and `x % k` alone for `x % k != 0`. A missing right side
/// is 0.
fn comparisons<'a>(c: &Node<'a>, holds: bool) -> Vec<(Rel, Node<'a>, Option<Node<'a>>)> {
    let c = strip(*c);
    if c.kind() == K::BINARY {
        let both = (holds && c.binop() == op::LAND) || (!holds && c.binop() == op::LOR);
        if both {
            return c
                .children()
                .iter()
                .flat_map(|p| comparisons(p, holds))
                .collect();
        }
        if let Some((rel, a, b)) = comparison(&c) {
            let rel = if holds { rel } else { rel.negate() };
            return vec![(rel, a, Some(b))];
        }
    }
    if c.kind() == K::UNARY && c.unop() == op::LNOT {
        return match c.children().first() {
            Some(inner) => comparisons(inner, !holds),
            None => Vec::new(),
        };
    }
    // `if (n % 16) exit(1);`: the remainder is 0 after it.
    if !holds && c.kind() == K::BINARY && c.binop() == op::REM {
        return vec![(Rel::Eq, c, None)];
    }
    Vec::new()
}

/// What a launch's sizes are in terms of the values passed (and host
/// values constants multiply).
fn dim_relations(
    config: [&Node; 2],
    here: Here,
    callers: &Callers,
    passed: &[Passed],
    out: &mut Vec<Relation>,
) {
    for (n, names) in config
        .into_iter()
        .zip([builtin::GRID_DIM, builtin::BLOCK_DIM])
    {
        let terms = dim_terms(n, here, callers, passed, 0);
        for (t, d) in terms.into_iter().zip(names) {
            if let Some(term) = t.filter(Term::informs) {
                out.push(Relation::eq(Side::Dim(d.to_string()), term));
            }
        }
    }
}

/// The host variable an integer expression reads, as a launch term's
/// unknown (see [`Term::Host`]).
fn host_variable(n: &Node) -> Option<Term> {
    let n = strip(*n);
    if n.kind() != K::DECL_REF || !n.ty().is_integral() {
        return None;
    }
    let v = n
        .referenced()
        .filter(|v| matches!(v.kind(), K::VAR | K::PARM))?;
    Some(Term::Host(v.spelling()))
}

/// What the loop whose counter `n` reads (declared in its initialisation,
/// left alone by its body, the read within the loop) says of it: at least
/// its start and below its bound when it counts up, the reverse when it
/// counts down, as terms over the values `passed`.
fn loop_bounds(n: &Node, here: Here, callers: &Callers, passed: &[Passed]) -> Vec<(Rel, Term)> {
    use super::clang::op;
    let (Some(f), K::DECL_REF) = (here.func, n.kind()) else {
        return Vec::new();
    };
    let Some(var) = n.referenced().filter(|v| v.kind() == K::VAR) else {
        return Vec::new();
    };
    let Some((found, init)) = loop_around(&f, &var, n.offset()) else {
        return Vec::new();
    };
    let ch = found.children();
    let [_, cond, inc, body] = ch.as_slice() else {
        return Vec::new();
    };
    let is_var = |x: &Node| refers_to(x, &var);
    let mut changes = Vec::new();
    visit_assignments(body, &var, false, &constant, &mut |_, _, _, at| {
        changes.push(at)
    });
    let cond = strip(*cond);
    let cc = cond.children();
    if !changes.is_empty() || cond.kind() != K::BINARY || cc.len() != 2 || !is_var(&cc[0]) {
        return Vec::new();
    }
    let inc = strip(*inc);
    let ic = inc.children();
    let up = match inc.kind() {
        K::UNARY if ic.first().is_some_and(is_var) => match inc.unop() {
            op::PRE_INC | op::POST_INC => true,
            op::PRE_DEC | op::POST_DEC => false,
            _ => return Vec::new(),
        },
        K::COMPOUND_ASSIGN if ic.len() == 2 && is_var(&ic[0]) => {
            match (
                super::lower::compound_base(inc.binop()),
                strip(ic[1]).eval_int(),
            ) {
                (op::ADD, Some(c)) if c > 0 => true,
                (op::SUB, Some(c)) if c > 0 => false,
                _ => return Vec::new(),
            }
        }
        _ => return Vec::new(),
    };
    let rel = match (up, cond.binop()) {
        (true, op::LT) => Rel::Lt,
        (true, op::LE) => Rel::Le,
        (false, op::GT) => Rel::Gt,
        (false, op::GE) => Rel::Ge,
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    if let Some(lo) = term_at(&init, here, callers, passed, 1) {
        out.push((if up { Rel::Ge } else { Rel::Le }, lo));
    }
    if let Some(bound) = term_at(&cc[1], here, callers, passed, 1) {
        out.push((rel, bound));
    }
    out
}

/// The three sizes of a launch configuration (`dim3(M / 16, N / 16)`, a
/// `dim3` local set once, a scalar) as terms over the values `passed`.
fn dim_terms(
    n: &Node,
    here: Here,
    callers: &Callers,
    passed: &[Passed],
    depth: usize,
) -> [Option<Term>; 3] {
    let none = [None, None, None];
    if depth > 8 {
        return none;
    }
    let n = strip(*n);
    if n.ty().is_integral() {
        return [
            term_at(&n, here, callers, passed, depth),
            Some(Term::Int(1)),
            Some(Term::Int(1)),
        ];
    }
    if n.kind() == K::CALL && n.referenced().is_some_and(|c| c.kind() == K::CONSTRUCTOR) {
        let args: Vec<Node> = n.args();
        if args.len() == 1 && !strip(args[0]).ty().is_integral() {
            return dim_terms(&args[0], here, callers, passed, depth + 1);
        }
        let mut out = [Some(Term::Int(1)), Some(Term::Int(1)), Some(Term::Int(1))];
        for (o, a) in out.iter_mut().zip(&args) {
            *o = term_at(a, here, callers, passed, depth);
        }
        return out;
    }
    if let Some(init) = unchanged_init(&n, here) {
        return dim_terms(&init, here, callers, passed, depth + 1);
    }
    // `dimGrid.x = i; dimGrid.y = 1;` before the launch: each axis from
    // the assignment to it that reaches the launch.
    let var = here.func.filter(|_| n.kind() == K::DECL_REF).and_then(|f| {
        n.referenced()
            .filter(|v| v.kind() == K::VAR)
            .map(|v| (f, v))
    });
    if let Some((f, var)) = var {
        let mut out = none;
        for (axis, o) in out.iter_mut().enumerate() {
            *o = reaching_field(&f, &var, axis, n.offset())
                .and_then(|value| term_at(&value, here, callers, passed, depth + 1));
        }
        return out;
    }
    none
}

/// The last plain assignment (`lhs = value`) before byte `at` of `f` whose
/// left side `target` takes, that runs on every path to `at`: under no
/// condition and in no loop but those that hold `at` (`if (n <= LIMIT) {
/// local = LIMIT / 2; dim3 block(local); … }`). With its place.
fn last_assignment<'a>(
    f: &Node<'a>,
    at: u32,
    target: &dyn Fn(&Node) -> bool,
) -> Option<(u32, Node<'a>)> {
    use super::clang::op;
    fn walk<'a>(
        n: &Node<'a>,
        at: u32,
        target: &dyn Fn(&Node) -> bool,
        out: &mut Option<(u32, Node<'a>)>,
        on_path: bool,
    ) {
        for c in n.children() {
            if c.offset() >= at {
                return;
            }
            let k = c.kind();
            let (start, end) = c.byte_range();
            let holds = (start..=end).contains(&at);
            let looped = [K::FOR, K::WHILE, K::DO, K::FOR_RANGE].contains(&k);
            // A switch's cases are statements of one body: which of them
            // ran before `at` is not read.
            let branched = [K::IF, K::CONDITIONAL].contains(&k);
            if k == K::SWITCH || ((branched || looped || on_path) && !holds) {
                continue;
            }
            let ch = c.children();
            if k == K::BINARY && c.binop() == op::ASSIGN && ch.len() == 2 && target(&strip(ch[0])) {
                *out = Some((c.offset(), ch[1]));
            }
            // On a class (`config.blockDim = dim3(256)`): its `operator=`.
            if k == K::CALL
                && c.spelling() == "operator="
                && c.num_args() == 2
                && target(&strip(c.arg(0)))
            {
                *out = Some((c.offset(), c.arg(1)));
            }
            // Of a branch that holds `at`, only the arm that holds it runs
            // on the way.
            walk(&c, at, target, out, branched);
        }
    }
    let mut found = None;
    walk(f, at, target, &mut found, false);
    found
}

/// Whether `n` reads the variable `var`.
fn reads_var(n: &Node, var: &Node) -> bool {
    let n = strip(*n);
    n.kind() == K::DECL_REF && n.referenced().is_some_and(|r| r.id() == var.id())
}

/// What `var.x = value` (the field of `axis`) assigns at the last such
/// assignment reaching byte `at` of `f` ([`last_assignment`]), when
/// nothing changes that field (or the whole of `var`) between the two.
fn reaching_field<'a>(f: &Node<'a>, var: &Node, axis: usize, at: u32) -> Option<Node<'a>> {
    let target =
        |lhs: &Node| dim3_field(lhs).is_some_and(|(base, a)| a == axis && reads_var(&base, var));
    let (offset, value) = last_assignment(f, at, &target)?;
    unchanged_where(
        f,
        var,
        offset,
        at,
        &|field| field.is_none_or(|a| a == axis),
        true,
    )
    .then(|| innermost_value(value))
}

/// The value a chain of assignments assigns (`2048` of `m = 2048` in `n
/// = m = 2048`).
fn innermost_value(mut value: Node) -> Node {
    use super::clang::op;
    loop {
        let v = strip(value);
        let ch = v.children();
        if v.kind() == K::BINARY && v.binop() == op::ASSIGN && ch.len() == 2 {
            value = ch[1];
        } else {
            return value;
        }
    }
}

/// What `var = value` assigns at the last such assignment reaching byte
/// `at` of `f` ([`last_assignment`]), when nothing changes `var` between
/// the two. Chained assignments (`n = m = 2048`) assign the innermost
/// value.
fn reaching_assignment<'a>(f: &Node<'a>, var: &Node, at: u32) -> Option<Node<'a>> {
    let (offset, value) = last_assignment(f, at, &|lhs: &Node| reads_var(lhs, var))?;
    unchanged_where(f, var, offset, at, &|_| true, true).then(|| innermost_value(value))
}

/// The initialiser of the local `n` names, when it is a local of the
/// function at `here` that nothing changes between its declaration and
/// `n`, or a host variable of file scope that nothing in its file changes
/// ([`file_constant`]).
fn unchanged_init<'a>(n: &Node<'a>, here: Here) -> Option<Node<'a>> {
    if n.kind() != K::DECL_REF {
        return None;
    }
    let var = n.referenced().filter(|v| v.kind() == K::VAR)?;
    if let Some(init) = file_constant(&var) {
        return Some(init);
    }
    let f = here.func?;
    if var.semantic_parent().is_none_or(|p| p.id() != f.id())
        || !unchanged_between(&f, &var, var.offset(), n.offset())
    {
        return None;
    }
    initializer(&var)
}

/// The initialiser of `var` when it is a host variable of file or
/// namespace scope, declared in the main file, whose file never assigns
/// it, a field of it, or its address after declaring it (`dim3
/// blockSize(16, 8);` above the host code of older SDK-style samples,
/// launched as `k<<<grid, blockSize>>>`).
/// A local of the same name anywhere in the file that is assigned counts
/// as a change: the tokens do not tell the two apart. Another file that
/// declares it `extern` and changes it is not seen.
fn file_constant<'a>(var: &Node<'a>) -> Option<Node<'a>> {
    // Only the main file's tokens are read: a variable a header declares
    // may be assigned before any mention the main file makes of it.
    if var.has_attr(K::CUDA_DEVICE)
        || var.has_attr(K::CUDA_CONSTANT)
        || var.is_shared()
        || !var.in_main_file()
    {
        return None;
    }
    let mut scope = var.semantic_parent()?;
    while scope.kind() == K::NAMESPACE {
        scope = scope.semantic_parent()?;
    }
    if scope.kind() != K::TRANSLATION_UNIT || modified(&scope, &var.spelling()) {
        return None;
    }
    initializer(var)
}

/// A host expression as a term over the values `passed` to the kernel:
/// those values become arguments, locals set once their initialiser, and
/// whatever else has one constant value (see [`dims_at`]) that constant.
fn term_at(
    n: &Node,
    here: Here,
    callers: &Callers,
    passed: &[Passed],
    depth: usize,
) -> Option<Term> {
    if depth > 8 {
        return None;
    }
    let n = strip(*n);
    if let Some(v) = n.eval_int() {
        return Some(Term::Int(v));
    }
    if let Some(arg) = here.func.and_then(|f| passed_as(&n, &f, passed)) {
        return Some(arg);
    }
    if n.kind() == K::BINARY {
        let ch = n.children();
        let [a, b] = ch.as_slice() else { return None };
        let o = term_op(&n)?;
        // Depth counts the definitions followed, not the operators.
        let (ta, tb) = (
            term_at(a, here, callers, passed, depth),
            term_at(b, here, callers, passed, depth),
        );
        // A constant times a host value: a multiple of the constant.
        let host = |c: &Option<Term>, x: &Node| match (o, c) {
            (TermOp::Mul, Some(Term::Int(c))) if *c > 1 => host_variable(x),
            _ => None,
        };
        return match (ta, tb) {
            (Some(a), Some(b)) => Some(Term::bin(o, a, b)),
            (Some(c), None) => host(&Some(c.clone()), b).map(|h| Term::bin(o, c, h)),
            (None, Some(c)) => host(&Some(c.clone()), a).map(|h| Term::bin(o, h, c)),
            (None, None) => None,
        };
    }
    if n.kind() == K::CONDITIONAL {
        let ch = n.children();
        let [c, then, otherwise] = ch.as_slice() else {
            return None;
        };
        let (rel, a, b) = comparison(c)?;
        let part = |x: &Node| term_at(x, here, callers, passed, depth);
        let parts = [part(&a)?, part(&b)?, part(then)?, part(otherwise)?];
        return Some(Term::Ite(rel, Box::new(parts)));
    }
    if n.kind() == K::CALL {
        if let Some(t) = helper_term(&n, &|a: &Node| term_at(a, here, callers, passed, depth + 1)) {
            return Some(t);
        }
    }
    if let Some((base, axis)) = dim3_field(&n) {
        let base = strip(base);
        if let Some(init) = unchanged_init(&base, here) {
            return dim_terms(&init, here, callers, passed, depth + 1)[axis].clone();
        }
    } else if n.ty().is_integral() && n.kind() == K::DECL_REF {
        let counted_here = here.func.is_some_and(|f| {
            n.referenced()
                .is_some_and(|v| counted(&f, &v).is_some() || ranged(&f, &v).is_some())
        });
        if !counted_here {
            if let Some(init) = unchanged_init(&n, here) {
                return term_at(&init, here, callers, passed, depth + 1);
            }
            let assigned = here.func.and_then(|f| {
                let var = n.referenced().filter(|v| v.kind() == K::VAR)?;
                reaching_assignment(&f, &var, n.offset())
            });
            if let Some(value) = assigned {
                return term_at(&value, here, callers, passed, depth + 1);
            }
        }
    }
    // A size with one known value (a constant table's one element, a
    // parameter every caller passes the same constant for).
    match scalars(&n, here, callers, depth + 1).as_slice() {
        [Some(v)] => i64::try_from(*v).ok().map(Term::Int),
        _ => (n.kind() == K::DECL_REF)
            .then(|| n.referenced())
            .flatten()
            .filter(|p| p.kind() == K::NON_TYPE_TEMPLATE_PARAM)
            .map(|p| Term::TemplateArg(u32::MAX, p.spelling())),
    }
}

/// The host operator of a binary expression as a term's (`-` in an
/// unsigned type wraps).
fn term_op(n: &Node) -> Option<TermOp> {
    use super::clang::op;
    Some(match n.binop() {
        op::ADD => TermOp::Add,
        op::SUB if n.ty().is_unsigned() => TermOp::SubUnsigned,
        op::SUB => TermOp::Sub,
        op::MUL => TermOp::Mul,
        op::DIV => TermOp::Div,
        op::REM => TermOp::Rem,
        _ => return None,
    })
}

/// `a rel b`, a comparison of two integers.
fn comparison<'a>(c: &Node<'a>) -> Option<(Rel, Node<'a>, Node<'a>)> {
    use super::clang::op;
    let c = strip(*c);
    let ch = c.children();
    let [a, b] = ch.as_slice() else { return None };
    if c.kind() != K::BINARY {
        return None;
    }
    let rel = match c.binop() {
        op::EQ => Rel::Eq,
        op::NE => Rel::Ne,
        op::LT => Rel::Lt,
        op::LE => Rel::Le,
        op::GT => Rel::Gt,
        op::GE => Rel::Ge,
        _ => return None,
    };
    Some((rel, *a, *b))
}

/// A call of a host helper whose body is one `return e;` (`ceil_div(n,
/// 256)`, `iDivUp(n, b)`): `e` with the helper's parameters bound to the
/// arguments as `arg` reads them.
fn helper_term(call: &Node, arg: &dyn Fn(&Node) -> Option<Term>) -> Option<Term> {
    let f = call.referenced().filter(|f| f.kind() == K::FUNCTION)?;
    fn with_body<'t>(d: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        d.children()
            .into_iter()
            .find(|c| c.kind() == K::COMPOUND)
            .map(|body| (d, body))
    }
    let (def, body) = f
        .definition()
        .and_then(with_body)
        .or_else(|| f.specialized_template().and_then(with_body))?;
    let stmts = body.children();
    let [ret] = stmts.as_slice() else { return None };
    let e = (ret.kind() == K::RETURN)
        .then(|| ret.children().first().copied())
        .flatten()?;
    let params: Vec<u32> = def
        .children()
        .into_iter()
        .filter(|c| c.kind() == K::PARM)
        .map(|c| c.id())
        .collect();
    if params.len() != call.num_args().max(0) as usize {
        return None;
    }
    let mut bound = Vec::new();
    for (i, p) in params.into_iter().enumerate() {
        bound.push((p, arg(&call.arg(i as u32))?));
    }
    inline_term(&e, &bound, 0)
}

/// A helper's return expression with its parameters bound (`bound`, by
/// declaration): arithmetic, conditionals and calls of other helpers.
fn inline_term(n: &Node, bound: &[(u32, Term)], depth: usize) -> Option<Term> {
    if depth > 8 {
        return None;
    }
    let n = strip(*n);
    if let Some(v) = n.eval_int() {
        return Some(Term::Int(v));
    }
    let ch = n.children();
    match n.kind() {
        K::DECL_REF => {
            let id = n.referenced()?.id();
            bound.iter().find(|(p, _)| *p == id).map(|(_, t)| t.clone())
        }
        K::BINARY => {
            let [a, b] = ch.as_slice() else { return None };
            let o = term_op(&n)?;
            let (a, b) = (inline_term(a, bound, depth)?, inline_term(b, bound, depth)?);
            Some(Term::bin(o, a, b))
        }
        K::CONDITIONAL => {
            let [c, then, otherwise] = ch.as_slice() else {
                return None;
            };
            let (rel, a, b) = comparison(c)?;
            let part = |x: &Node| inline_term(x, bound, depth);
            Some(Term::Ite(
                rel,
                Box::new([part(&a)?, part(&b)?, part(then)?, part(otherwise)?]),
            ))
        }
        K::CALL => helper_term(&n, &|a: &Node| inline_term(a, bound, depth + 1)),
        _ => None,
    }
}

/// What the branches around byte `at` of `f` say of `var`, which does not
/// change in `f`: `switch (threads) { case 256: … }` and `if (threads ==
/// 256) …` hold inside, `if (threads != 256) … else …` in the else branch.
fn guards(f: &Node, var: &Node, here: Here) -> Vec<(i32, i64)> {
    use super::clang::op;
    let mut out = Vec::new();
    // The statements around the launch, by identity where it is found in
    // `f` (the statements of one macro expansion share one place), by
    // place otherwise.
    let around = here.node.and_then(|n| enclosing(f, &n));
    let within = |n: &Node| match &around {
        Some(chain) => chain.iter().any(|c| c.same(n)),
        None => {
            let (start, end) = n.byte_range();
            (start..=end).contains(&here.at)
        }
    };
    let is_var = |x: &Node| refers_to(x, var);
    // `var REL c` (or `c REL var`), and the facts a condition gives when
    // it holds (`holds`) or fails.
    fn facts(c: &Node, holds: bool, is_var: &dyn Fn(&Node) -> bool, out: &mut Vec<(i32, i64)>) {
        let c = strip(*c);
        if c.kind() == K::UNARY && c.unop() == op::LNOT {
            if let Some(inner) = c.children().first() {
                facts(inner, !holds, is_var, out);
            }
            return;
        }
        if c.kind() != K::BINARY {
            return;
        }
        let ch = c.children();
        let [a, b] = ch.as_slice() else { return };
        let o = c.binop();
        if (o == op::LAND && holds) || (o == op::LOR && !holds) {
            facts(a, holds, is_var, out);
            facts(b, holds, is_var, out);
            return;
        }
        let flip = |o: i32| match o {
            op::LT => op::GT,
            op::GT => op::LT,
            op::LE => op::GE,
            op::GE => op::LE,
            o => o,
        };
        let (o, value) = if is_var(a) {
            (o, strip(*b).eval_int())
        } else if is_var(b) {
            (flip(o), strip(*a).eval_int())
        } else {
            return;
        };
        let Some(value) = value else { return };
        let negate = |o: i32| match o {
            op::EQ => op::NE,
            op::NE => op::EQ,
            op::LT => op::GE,
            op::GE => op::LT,
            op::GT => op::LE,
            op::LE => op::GT,
            o => o,
        };
        if [op::EQ, op::NE, op::LT, op::LE, op::GT, op::GE].contains(&o) {
            out.push((if holds { o } else { negate(o) }, value));
        }
    }
    let mut n = *f;
    loop {
        let Some(c) = n.children().into_iter().find(within) else {
            return out;
        };
        let ch = c.children();
        match c.kind() {
            K::IF if ch.len() >= 2 => {
                // Children: condition, then, else (a declaration in the
                // condition comes first: no fact from it).
                let k = ch.len();
                let (cond, then, other) = if k >= 3 && ch[k - 3].is_expression() {
                    (Some(ch[k - 3]), ch[k - 2], Some(ch[k - 1]))
                } else {
                    (Some(ch[k - 2]), ch[k - 1], None)
                };
                if let Some(cond) = cond.filter(|c| !within(c)) {
                    if within(&then) {
                        facts(&cond, true, &is_var, &mut out);
                    } else if other.as_ref().is_some_and(within) {
                        facts(&cond, false, &is_var, &mut out);
                    }
                }
            }
            K::SWITCH if ch.len() == 2 && is_var(&ch[0]) => {
                let body = ch[1].children();
                if let Some(i) = body.iter().position(within) {
                    // The labels of the case the statement belongs to: the
                    // nearest before it (`default` gives nothing).
                    let labelled = |k: &Node| k.kind() == K::CASE || k.kind() == K::DEFAULT;
                    let start = (0..=i).rev().find(|&j| labelled(&body[j]));
                    if let Some(j) = start.filter(|&j| body[j].kind() == K::CASE) {
                        let mut values = Vec::new();
                        let mut label = body[j];
                        while label.kind() == K::CASE {
                            let lc = label.children();
                            match lc.first().and_then(|v| v.eval_int()) {
                                Some(v) => values.push(v),
                                None => {
                                    values.clear();
                                    break;
                                }
                            }
                            match lc.last() {
                                Some(next) => label = *next,
                                None => break,
                            }
                        }
                        // No statement before the labels falls through
                        // into them with another value.
                        let closed = j == 0
                            || [K::BREAK, K::RETURN, K::CONTINUE, K::GOTO]
                                .contains(&body[j - 1].kind());
                        if closed && values.len() == 1 {
                            out.push((op::EQ, values[0]));
                        } else if closed && !values.is_empty() {
                            // One of several labels: within their range.
                            out.push((op::GE, *values.iter().min().expect("non-empty")));
                            out.push((op::LE, *values.iter().max().expect("non-empty")));
                        }
                    }
                }
            }
            _ => {}
        }
        n = c;
    }
}

/// The nodes of `root`'s tree that enclose `target`, outermost first and
/// `target` last; `None` when it is not in the tree.
fn enclosing<'a>(root: &Node<'a>, target: &Node) -> Option<Vec<Node<'a>>> {
    for c in root.children() {
        if c.same(target) {
            return Some(vec![c]);
        }
        let (start, end) = c.byte_range();
        let (t_start, t_end) = target.byte_range();
        if t_start < start || t_end > end {
            continue;
        }
        if let Some(mut chain) = enclosing(&c, target) {
            chain.insert(0, c);
            return Some(chain);
        }
    }
    None
}

/// The alternatives of a scalar that satisfy `facts`; an unknown one that
/// a fact pins (`== 256`) becomes that value. None left: the launch is on
/// a path the callers drfscan sees never take, and when a fact pins the
/// value, that is the one it runs with if any caller does (`if (block ==
/// 16) k<16><<<…, dim3(block, block)>>>` while `main` passes 32: the
/// instantiation `k<16>` is launched 16 wide or not at all).
fn guarded(values: Vec<Dims>, facts: &[(i32, i64)]) -> Vec<Dims> {
    use super::clang::op;
    if facts.is_empty() {
        return values;
    }
    let pinned = facts.iter().find(|(o, _)| *o == op::EQ).map(|(_, v)| *v);
    let holds = |v: i64| {
        facts.iter().all(|(o, c)| match *o {
            op::EQ => v == *c,
            op::NE => v != *c,
            op::LT => v < *c,
            op::LE => v <= *c,
            op::GT => v > *c,
            op::GE => v >= *c,
            _ => true,
        })
    };
    let mut out = Vec::new();
    for d in values {
        match d[0] {
            Some(v) if !holds(v as i64) => {}
            None => {
                let v = pinned.filter(|v| holds(*v));
                out.push([
                    v.and_then(|v| u64::try_from(v).ok()).filter(|v| *v >= 1),
                    d[1],
                    d[2],
                ]);
            }
            _ => out.push(d),
        }
    }
    if out.is_empty() {
        if let Some(v) = pinned
            .filter(|v| holds(*v))
            .and_then(|v| u64::try_from(v).ok())
        {
            out.push([Some(v).filter(|v| *v >= 1), Some(1), Some(1)]);
        }
    }
    out
}

/// `sizes[i] * 2`, `threads / 32`: the operation over each pair of
/// alternatives of the operands.
fn arithmetic(n: &Node, here: Here, callers: &Callers, depth: usize) -> Vec<Dims> {
    use super::clang::op;
    const UNKNOWN: Dims = [None; 3];
    let ch = n.children();
    let [a, b] = ch.as_slice() else {
        return vec![UNKNOWN];
    };
    let (a, b) = (
        scalars(a, here, callers, depth + 1),
        scalars(b, here, callers, depth + 1),
    );
    let o = n.binop();
    let mut out = Vec::new();
    for x in &a {
        for y in &b {
            let (Some(x), Some(y)) = (x, y) else {
                return vec![UNKNOWN];
            };
            let v = match o {
                op::ADD => x.checked_add(*y),
                op::SUB => x.checked_sub(*y),
                op::MUL => x.checked_mul(*y),
                op::DIV => x.checked_div(*y),
                op::REM => x.checked_rem(*y),
                op::SHL if *y < 32 => x.checked_mul(1 << y),
                op::SHR => x.checked_shr(*y as u32),
                _ => return vec![UNKNOWN],
            };
            out.push([v.filter(|v| *v >= 1), Some(1), Some(1)]);
        }
    }
    bounded(out)
}

/// Alternatives past [`MAX_ALTERNATIVES`] become one, with the axes they
/// disagree on unknown.
fn bounded(alternatives: Vec<Dims>) -> Vec<Dims> {
    let mut out = alternatives;
    out.sort();
    out.dedup();
    if out.len() > MAX_ALTERNATIVES {
        vec![agree(&out)]
    } else {
        out
    }
}

/// A parameter of the host function `f` that makes the launch, unchanged in
/// `f`: what `f`'s callers pass for it, when drfscan sees all of them.
fn parameter(p: &Node, f: &Node, callers: &Callers, depth: usize) -> Vec<Dims> {
    const UNKNOWN: Dims = [None; 3];
    // `dims_at` has checked that `f` leaves `p` unchanged.
    if ![K::FUNCTION, K::FUNCTION_TEMPLATE].contains(&f.kind()) {
        return vec![UNKNOWN];
    }
    let Some(index) = f
        .children()
        .iter()
        .filter(|c| c.kind() == K::PARM)
        .position(|c| c.id() == p.id())
    else {
        return vec![UNKNOWN];
    };
    let Some(calls) = callers.of(f) else {
        return vec![UNKNOWN];
    };
    let mut out = Vec::new();
    for call in calls {
        let at = call.first + index as u32;
        if at as i32 >= call.expr.num_args() {
            return vec![UNKNOWN];
        }
        let here = Here {
            func: call.caller,
            at: call.expr.offset(),
            node: Some(call.expr),
        };
        out.extend(dims_at(&call.expr.arg(at), here, callers, depth + 1));
        if out.len() > MAX_ALTERNATIVES {
            return vec![UNKNOWN];
        }
    }
    bounded(out)
}

/// The values `table[i]` may have: `table` is an array of integer constants
/// (`int sizes[] = {32, 64, 128};`) that is a local of `f` never written
/// after its initialisation, or a constant array of the file.
fn table(n: &Node, func: Option<Node>) -> Option<Vec<i64>> {
    table_named(n.children().first()?, func)
}

/// The value `a[i]` reads, with where it was stored, when `a` is an array
/// local to the function at `here` without an initialiser, `i` is a
/// constant, and the function stores into `a` only through constant
/// indexes, into `a[i]` once, before `n`, and never otherwise changes or
/// passes `a` (`size_t local[2]; local[0] = 16; local[1] = 4;`).
fn element_assignment<'a>(n: &Node<'a>, here: Here<'a>) -> Option<(u32, Node<'a>)> {
    struct Stores<'a> {
        var: u32,
        index: i64,
        found: Vec<(u32, Node<'a>)>,
        subscripted: usize,
        uses: usize,
        changed: bool,
    }
    fn base_index(n: &Node, var: u32) -> Option<Option<i64>> {
        let ch = n.children();
        let [base, index] = ch.as_slice() else {
            return None;
        };
        let base = strip(*base);
        (base.kind() == K::DECL_REF && base.referenced().is_some_and(|r| r.id() == var))
            .then(|| index.eval_int())
    }
    fn walk<'a>(n: &Node<'a>, s: &mut Stores<'a>) {
        for c in n.children() {
            let k = c.kind();
            if k == K::DECL_REF && c.referenced().is_some_and(|r| r.id() == s.var) {
                s.uses += 1;
            }
            if k == K::ARRAY_SUBSCRIPT && base_index(&c, s.var).is_some() {
                s.subscripted += 1;
            }
            let ch = c.children();
            let target = |t: &Node| {
                let t = strip(*t);
                if t.kind() == K::ARRAY_SUBSCRIPT {
                    base_index(&t, s.var)
                } else {
                    None
                }
            };
            match k {
                K::BINARY if c.binop() == op::ASSIGN && ch.len() == 2 => match target(&ch[0]) {
                    Some(Some(i)) if i == s.index => s.found.push((c.offset(), ch[1])),
                    Some(Some(_)) => {}
                    Some(None) => s.changed = true,
                    None => {}
                },
                K::COMPOUND_ASSIGN if !ch.is_empty() => {
                    if target(&ch[0]).is_some() {
                        s.changed = true;
                    }
                }
                K::UNARY if !ch.is_empty() => {
                    if matches!(
                        c.unop(),
                        op::POST_INC | op::POST_DEC | op::PRE_INC | op::PRE_DEC | op::ADDR_OF
                    ) && target(&ch[0]).is_some()
                    {
                        s.changed = true;
                    }
                }
                _ => {}
            }
            walk(&c, s);
        }
    }
    let f = here.func?;
    let ch = n.children();
    let [base, index] = ch.as_slice() else {
        return None;
    };
    let base = strip(*base);
    let var = base.referenced().filter(|v| {
        base.kind() == K::DECL_REF
            && v.kind() == K::VAR
            && v.ty().is_array()
            && v.semantic_parent().is_some_and(|p| p.id() == f.id())
    })?;
    // An array's only initialiser is a braced list (its other child may
    // be its written size).
    if var
        .children()
        .iter()
        .any(|c| matches!(c.kind(), K::INIT_LIST | K::STRING_LIT))
    {
        return None;
    }
    let mut s = Stores {
        var: var.id(),
        index: index.eval_int()?,
        found: Vec::new(),
        subscripted: 0,
        uses: 0,
        changed: false,
    };
    walk(&f, &mut s);
    // Every mention subscripts it: it is never passed or decays.
    if s.changed || s.uses != s.subscripted {
        return None;
    }
    match s.found.as_slice() {
        [(at, value)] if *at < n.offset() => Some((*at, *value)),
        _ => None,
    }
}

/// The constants of the array `base` names, as [`table`] reads them.
fn table_named(base: &Node, func: Option<Node>) -> Option<Vec<i64>> {
    let base = strip(*base);
    let var = base
        .referenced()
        .filter(|v| v.kind() == K::VAR && base.kind() == K::DECL_REF)?;
    let local = match (var.semantic_parent(), func) {
        (Some(p), Some(f)) if p.id() == f.id() => Some(f),
        _ => None,
    };
    match local {
        Some(f) if !table_unchanged(&f, &var.spelling()) => return None,
        None if !var.ty().element().is_const_qualified() => return None,
        _ => {}
    }
    let init = var
        .children()
        .into_iter()
        .find(|c| c.kind() == K::INIT_LIST)?;
    let values: Option<Vec<i64>> = init.children().iter().map(|c| c.eval_int()).collect();
    values.filter(|v| !v.is_empty() && v.len() <= MAX_ALTERNATIVES)
}

/// Whether every mention of the array `name` in `f` after its declaration
/// reads an element (`name[i]` not assigned, incremented or addressed),
/// takes its size (`sizeof(name)`) or is the range of a `for` over copies.
fn table_unchanged(f: &Node, name: &str) -> bool {
    let toks: Vec<String> = f.tokens().into_iter().map(|(t, _)| t).collect();
    let mut declared = false;
    for (i, t) in toks.iter().enumerate() {
        if t != name {
            continue;
        }
        if !declared {
            declared = true;
            continue;
        }
        let prev = if i > 0 { toks[i - 1].as_str() } else { "" };
        let next = toks.get(i + 1).map(String::as_str).unwrap_or("");
        if prev == "(" && i >= 2 && toks[i - 2] == "sizeof" {
            continue;
        }
        // The range of a `for` whose variable is a copy (`for (int b :
        // name)`), not a reference that could write the elements.
        if prev == ":" && next == ")" && i >= 3 && toks[i - 3] != "&" && toks[i - 3] != "&&" {
            continue;
        }
        if next != "[" || matches!(prev, "&" | "++" | "--") {
            return false;
        }
        let mut level = 0;
        let mut j = i + 1;
        while j < toks.len() {
            match toks[j].as_str() {
                "[" => level += 1,
                "]" => {
                    level -= 1;
                    if level == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        if toks
            .get(j + 1)
            .is_some_and(|t| is_assignment(t) || t == "[")
        {
            return false;
        }
    }
    declared
}

fn is_assignment(t: &str) -> bool {
    matches!(
        t,
        "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "<<=" | ">>=" | "&=" | "|=" | "^=" | "++" | "--"
    )
}

/// The values a counter of a `for` loop of `f` takes (`for (int b = 32; b <=
/// 1024; b *= 2)`): it starts at a constant, is compared with a constant,
/// steps by a constant and the body does not change it.
fn counted(f: &Node, var: &Node) -> Option<Vec<i64>> {
    use super::clang::op;
    let found = find_loop(f, var)?;
    let ch = found.children();
    let [_, cond, inc, body] = ch.as_slice() else {
        return None;
    };
    let init = initializer(var)?;
    let start = strip(init).eval_int()?;
    let is_var = |x: &Node| refers_to(x, var);
    let cond = strip(*cond);
    let cc = cond.children();
    if cond.kind() != K::BINARY || cc.len() != 2 || !is_var(&cc[0]) {
        return None;
    }
    let bound = strip(cc[1]).eval_int()?;
    let rel = cond.binop();
    let inc = strip(*inc);
    let ic = inc.children();
    let step: Box<dyn Fn(i64) -> Option<i64>> = match inc.kind() {
        K::UNARY if ic.first().is_some_and(is_var) => match inc.unop() {
            op::PRE_INC | op::POST_INC => Box::new(|v: i64| v.checked_add(1)),
            op::PRE_DEC | op::POST_DEC => Box::new(|v: i64| v.checked_sub(1)),
            _ => return None,
        },
        K::COMPOUND_ASSIGN if ic.len() == 2 && is_var(&ic[0]) => {
            let a = strip(ic[1]).eval_int()?;
            match super::lower::compound_base(inc.binop()) {
                op::ADD => Box::new(move |v: i64| v.checked_add(a)),
                op::SUB => Box::new(move |v: i64| v.checked_sub(a)),
                op::MUL => Box::new(move |v: i64| v.checked_mul(a)),
                op::DIV if a > 1 => Box::new(move |v: i64| Some(v / a)),
                op::SHL if (0..32).contains(&a) => Box::new(move |v: i64| v.checked_mul(1 << a)),
                op::SHR if (1..32).contains(&a) => Box::new(move |v: i64| Some(v >> a)),
                _ => return None,
            }
        }
        _ => return None,
    };
    let holds = |v: i64| match rel {
        op::LT => v < bound,
        op::LE => v <= bound,
        op::GT => v > bound,
        op::GE => v >= bound,
        op::NE => v != bound,
        _ => false,
    };
    if ![op::LT, op::LE, op::GT, op::GE, op::NE].contains(&rel) {
        return None;
    }
    let name = var.spelling();
    let toks: Vec<String> = body.tokens().into_iter().map(|(t, _)| t).collect();
    let writes = toks.iter().enumerate().any(|(i, t)| {
        t == &name
            && ((i > 0 && matches!(toks[i - 1].as_str(), "&" | "++" | "--"))
                || toks.get(i + 1).is_some_and(|n| is_assignment(n)))
    });
    if writes {
        return None;
    }
    let mut out = Vec::new();
    let mut v = start;
    while holds(v) {
        if out.len() >= MAX_ALTERNATIVES || out.contains(&v) {
            return None;
        }
        out.push(v);
        v = step(v)?;
    }
    (!out.is_empty()).then_some(out)
}

/// The least value a local `var` of `f` can hold, when every change to it
/// keeps it at least that: set to constants, and otherwise only grown
/// from its own value (`mul = mul * 512`, `n += 4`, `s <<= 1`, `i++`).
/// What srad's host code does to the stride it passes a reduction: the
/// kernel never sees 0 or a negative stride. `None` when some change is
/// anything else (or the variable's address is taken, or it is bound to a
/// non-const reference), or it is never set to a constant.
fn least_assigned(f: &Node, var: &Node) -> Option<i64> {
    use super::clang::op;
    let mut least: Option<i64> = initializer(var)
        .map(|init| strip(init).eval_int())
        .unwrap_or(None);
    // An initialiser that is no constant is a value of unknown sign.
    if var.children().iter().any(|c| c.is_expression()) && least.is_none() {
        return None;
    }
    let is_var = |x: &Node| refers_to(x, var);
    let constant = |x: &Node| strip(*x).eval_int();
    // `v * k` (k ≥ 1), `v + k` (k ≥ 0), `v << k`, in either order.
    let grows = |x: &Node| {
        let x = strip(*x);
        let ch = x.children();
        if x.kind() != K::BINARY || ch.len() != 2 {
            return false;
        }
        let (other, by) = if is_var(&ch[0]) {
            (&ch[1], x.binop())
        } else if is_var(&ch[1]) && [op::MUL, op::ADD].contains(&x.binop()) {
            (&ch[0], x.binop())
        } else {
            return false;
        };
        constant(other).is_some_and(|k| grows_by(by, k))
    };
    let mut ok = true;
    let mut walk_stack = vec![*f];
    while let Some(n) = walk_stack.pop() {
        for c in n.children() {
            let k = c.kind();
            let ch = c.children();
            if k == K::BINARY && c.binop() == op::ASSIGN && ch.len() == 2 && is_var(&ch[0]) {
                match constant(&ch[1]) {
                    Some(v) => least = Some(least.map_or(v, |l| l.min(v))),
                    None if grows(&ch[1]) => {}
                    None => ok = false,
                }
            } else if k == K::COMPOUND_ASSIGN && ch.len() == 2 && is_var(&ch[0]) {
                let by = super::lower::compound_base(c.binop());
                ok &= constant(&ch[1]).is_some_and(|k| grows_by(by, k));
            } else if k == K::UNARY && ch.first().is_some_and(is_var) {
                ok &= matches!(c.unop(), op::PRE_INC | op::POST_INC);
            } else if k == K::CALL
                && ((writes_through_reference(&c) && ch.iter().skip(1).any(&is_var))
                    || operator_assignment(&c, &is_var))
            {
                ok = false;
            }
            walk_stack.push(c);
        }
    }
    // The rules above hold the least value only from 0 up (`v * k` of a
    // negative `v` falls).
    least.filter(|l| ok && *l >= 0)
}

/// The values the variable of a range `for` over a table of constants
/// takes (`for (int b : block_sizes)`), when the body does not change it.
fn ranged(f: &Node, var: &Node) -> Option<Vec<i64>> {
    fn find<'a>(n: &Node<'a>, var: &Node) -> Option<Node<'a>> {
        n.children().into_iter().find_map(|c| {
            let declares = c.kind() == K::FOR_RANGE
                && c.children().first().is_some_and(|d| d.id() == var.id());
            if declares {
                Some(c)
            } else {
                find(&c, var)
            }
        })
    }
    let found = find(f, var)?;
    let ch = found.children();
    let [_, range, _body] = ch.as_slice() else {
        return None;
    };
    // The statement's tokens start with the variable's declaration, the
    // mention `modified` passes over.
    if modified(&found, &var.spelling()) {
        return None;
    }
    table_named(range, Some(*f))
}

/// Whether `v op k` is at least `v` for every `v >= 0`: `v * k` (k ≥ 1),
/// `v + k` (k ≥ 0), `v << k`.
fn grows_by(o: std::ffi::c_int, k: i64) -> bool {
    use super::clang::op;
    match o {
        op::MUL => k >= 1,
        op::ADD => k >= 0,
        op::SHL => (0..31).contains(&k),
        _ => false,
    }
}

/// Whether `x` (casts and parentheses aside) names the variable `var`.
fn refers_to(x: &Node, var: &Node) -> bool {
    let x = strip(*x);
    x.kind() == K::DECL_REF && x.referenced().is_some_and(|r| r.id() == var.id())
}

/// The innermost `for` loop of `f` around byte `at` that starts `var`
/// (`for (int i = e; …)`, or `for (i = e; …)` of a local declared before),
/// with the value it starts from.
fn loop_around<'a>(f: &Node<'a>, var: &Node<'a>, at: u32) -> Option<(Node<'a>, Node<'a>)> {
    use super::clang::op;
    let mut found = None;
    let mut stack = vec![*f];
    while let Some(n) = stack.pop() {
        let (start, end) = n.byte_range();
        if !(start..=end).contains(&at) {
            continue;
        }
        let ch = n.children();
        if n.kind() == K::FOR {
            let start = ch.first().and_then(|i| match i.kind() {
                K::DECL_STMT if i.children().iter().any(|d| d.id() == var.id()) => {
                    initializer(&var)
                }
                _ => {
                    let i = strip(*i);
                    let ic = i.children();
                    let assigns = i.kind() == K::BINARY
                        && i.binop() == op::ASSIGN
                        && ic.len() == 2
                        && refers_to(&ic[0], var);
                    assigns.then(|| ic[1])
                }
            });
            if let Some(init) = start {
                found = Some((n, init));
            }
        }
        stack.extend(ch);
    }
    found
}

/// The `for` statement of `f` whose initialisation declares `var`.
fn find_loop<'a>(n: &Node<'a>, var: &Node) -> Option<Node<'a>> {
    for c in n.children() {
        if c.kind() == K::FOR {
            let declares = c.children().first().is_some_and(|i| {
                i.kind() == K::DECL_STMT && i.children().iter().any(|d| d.id() == var.id())
            });
            if declares {
                return Some(c);
            }
        }
        if let Some(found) = find_loop(&c, var) {
            return Some(found);
        }
    }
    None
}

/// The value of a `dim3` local at a launch (at byte `at`) when the function
/// only sets its fields to constants (`b.x = 256;`, or what `value_of`
/// makes of an expression there: `grid.x = N / block.x`): straight-line
/// assignments before the launch replace a field; assignments under a
/// condition or loop, or after the launch when the launch is in a loop,
/// leave it known only when they agree. Any other change makes it unknown.
fn assigned_fields(
    f: &Node,
    var: &Node,
    start: Dims,
    at: u32,
    value_of: &dyn Fn(&Node, u32) -> Option<i64>,
) -> Dims {
    let mut dims = start;
    let mut ok = true;
    let in_loop = encloses_in_loop(f, at);
    visit_assignments(
        f,
        var,
        false,
        value_of,
        &mut |field, value, conditional, offset| {
            let Some(axis) = field else {
                ok = false;
                return;
            };
            if offset > at && !in_loop {
                return;
            }
            if !conditional && offset < at {
                dims[axis] = value;
            } else if dims[axis] != value {
                dims[axis] = None;
            }
        },
    );
    if ok {
        dims
    } else {
        [None; 3]
    }
}

/// A node's value when it is a constant expression.
fn constant(n: &Node, _: u32) -> Option<i64> {
    n.eval_int()
}

/// What one assignment found by [`visit_assignments`] does: the field it
/// sets (`None`: any other change), the constant it sets it to, whether it
/// sits under a condition or loop, and where.
type FoundAssignment<'a> = dyn FnMut(Option<usize>, Option<u64>, bool, u32) + 'a;

/// Reports each change to `var` in `n`: assignments to one of its fields,
/// with the value `value_of` gives the assigned expression at its place,
/// and anything else (an assignment to the whole, an increment).
fn visit_assignments(
    n: &Node,
    var: &Node,
    conditional: bool,
    value_of: &dyn Fn(&Node, u32) -> Option<i64>,
    found: &mut FoundAssignment,
) {
    use super::clang::op;
    for c in n.children() {
        let k = c.kind();
        let cond =
            conditional || [K::IF, K::FOR, K::WHILE, K::DO, K::SWITCH, K::CONDITIONAL].contains(&k);
        let ch = c.children();
        let is_var = |x: &Node| refers_to(x, var);
        let writes = (k == K::BINARY && c.binop() == op::ASSIGN) || k == K::COMPOUND_ASSIGN;
        if writes && ch.len() == 2 {
            let lhs = strip(ch[0]);
            if lhs.kind() == K::MEMBER_REF && lhs.children().first().is_some_and(is_var) {
                let axis = ["x", "y", "z"].iter().position(|a| *a == lhs.spelling());
                let value = if k == K::BINARY {
                    value_of(&strip(innermost_value(ch[1])), c.offset())
                        .and_then(|v| u64::try_from(v).ok())
                        .filter(|v| *v >= 1)
                } else {
                    None
                };
                found(axis, value, cond, c.offset());
                // A chain sets more (`t.x = t.y = 16`).
                visit_assignments(&c, var, cond, value_of, found);
                continue;
            }
            if is_var(&lhs) {
                found(None, None, cond, c.offset());
                visit_assignments(&c, var, cond, value_of, found);
                continue;
            }
        }
        let changes = matches!(
            c.unop(),
            op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC | op::ADDR_OF
        );
        if k == K::UNARY && changes && ch.first().is_some_and(is_var) {
            found(None, None, cond, c.offset());
            continue;
        }
        if operator_assignment(&c, &is_var) {
            found(None, None, cond, c.offset());
            continue;
        }
        // Passed to a non-const reference (`in >> n`, `read(n)`): bound to
        // the reference, it is an argument without a conversion to a value.
        if k == K::CALL
            && writes_through_reference(&c)
            && ch.iter().skip(1).any(|a| {
                a.kind() == K::DECL_REF && a.referenced().is_some_and(|r| r.id() == var.id())
            })
        {
            found(None, None, cond, c.offset());
            continue;
        }
        visit_assignments(&c, var, cond, value_of, found);
    }
}

/// Whether `c` is a call of an assignment operator (`=`, `*=`, `++`, …)
/// whose left operand `is_target` takes: `b = dim3(…)` on a class, or
/// `n *= t.size(i)` when clang cannot type `t` and some overload of the
/// operator is in scope (`cuda_fp16.h` declares them), which leaves the
/// call unresolved.
fn operator_assignment(c: &Node, is_target: &dyn Fn(&Node) -> bool) -> bool {
    if c.kind() != K::CALL {
        return false;
    }
    let (operator, operands) = match unresolved_operator(c) {
        Some(found) => found,
        None => (c.spelling(), c.children()),
    };
    operator.strip_prefix("operator").is_some_and(is_assignment)
        && operands.first().is_some_and(|l| is_target(l))
}

/// Whether the function `call` calls has a parameter that is a reference
/// to a non-const integer: an argument bound to it may be written.
fn writes_through_reference(call: &Node) -> bool {
    call.referenced().is_some_and(|f| {
        f.children().into_iter().any(|p| {
            let t = p.ty();
            p.kind() == K::PARM
                && t.is_reference()
                && t.pointee().is_integral()
                && !t.pointee().is_const_qualified()
        })
    })
}

/// Whether the code at byte `at` of `f` is inside a loop.
fn encloses_in_loop(f: &Node, at: u32) -> bool {
    around(f, at)
        .iter()
        .any(|n| [K::FOR, K::WHILE, K::DO, K::FOR_RANGE].contains(&n.kind()))
}

/// The nodes of `f` whose text holds byte `at`, outermost first, `f`
/// itself included.
fn around<'a>(f: &Node<'a>, at: u32) -> Vec<Node<'a>> {
    let mut out = vec![*f];
    while let Some(c) = out.last().unwrap().children().into_iter().find(|c| {
        let (start, end) = c.byte_range();
        (start..=end).contains(&at)
    }) {
        out.push(c);
    }
    out
}

/// Whether the function's text may change `name` after its declaration:
/// an assignment to it or to a field of it, an increment, or its address
/// taken.
fn modified(f: &Node, name: &str) -> bool {
    let toks: Vec<String> = f.tokens().into_iter().map(|(t, _)| t).collect();
    modified_in(&toks, name)
}

/// [`modified`] for the local `var` of `f`, read from its declaration to
/// the end of its scope: another local of the same name elsewhere in `f`
/// (`for (int b : sizes) …` then `int b = sizes[j];`) is not it.
fn local_modified(f: &Node, var: &Node) -> bool {
    let at = var.offset();
    let mut scope = *f;
    let mut n = *f;
    while let Some(c) = n.children().into_iter().find(|c| {
        let (start, end) = c.byte_range();
        (start..end).contains(&at) && c.id() != var.id()
    }) {
        if [
            K::COMPOUND,
            K::FOR,
            K::FOR_RANGE,
            K::WHILE,
            K::IF,
            K::SWITCH,
            K::DO,
        ]
        .contains(&c.kind())
        {
            scope = c;
        }
        n = c;
    }
    let toks: Vec<String> = scope
        .tokens()
        .into_iter()
        .filter(|(_, offset)| *offset >= at)
        .map(|(t, _)| t)
        .collect();
    modified_in(&toks, &var.spelling())
}

fn modified_in(toks: &[String], name: &str) -> bool {
    // Tokens that never name it are a macro's name and arguments, not the
    // statements its expansion holds, which may change it.
    if !toks.iter().any(|t| t == name) {
        return true;
    }
    let assign = is_assignment;
    let mut declared = false;
    for (i, t) in toks.iter().enumerate() {
        if t != name {
            continue;
        }
        let prev = if i > 0 { toks[i - 1].as_str() } else { "" };
        let next = toks.get(i + 1).map(String::as_str).unwrap_or("");
        if !declared {
            // The first mention declares it (`dim3 block = …`, `int t(…)`).
            declared = true;
            continue;
        }
        // `file >> n` reads into it (a shift by it changes nothing, but
        // the tokens do not tell the two apart).
        if prev == "&" || prev == "++" || prev == "--" || prev == ">>" || assign(next) {
            return true;
        }
        if next == "." && toks.get(i + 3).is_some_and(|t| assign(t)) {
            return true;
        }
    }
    false
}

/// The launch as conditions on the kernel's dimensions and parameters:
/// one launch's known sizes and relations, or the disjunction over several
/// launches. `names` are the protocol's names of the kernel's integer
/// parameters, by argument position. `None` when some launch constrains
/// nothing.
pub fn condition(sites: &[LaunchSite], names: &[Option<String>]) -> Option<Cond> {
    let mut alternatives: Vec<Cond> = Vec::new();
    for s in sites {
        let mut all = Cond::Bool(true);
        let mut known = false;
        for (dims, names) in [(&s.block, builtin::BLOCK_DIM), (&s.grid, builtin::GRID_DIM)] {
            for (v, n) in dims.iter().zip(names) {
                if let Some(v) = v {
                    known = true;
                    all = Cond::and(all, Cond::cmp(Rel::Eq, Expr::var(n), Expr::Int(*v as i64)));
                }
            }
        }
        for r in s.relations.iter().filter_map(|r| r.cond(names)) {
            known = true;
            all = Cond::and(all, r);
        }
        if !known {
            return None;
        }
        if !alternatives.contains(&all) {
            alternatives.push(all);
        }
    }
    // Launches that say the same (one helper called from two places) are
    // one alternative, so that a single one stays a conjunction.
    alternatives.into_iter().reduce(Cond::or)
}

/// Assumes the launches of `sites` in `kernel` (see [`condition`]). With
/// one launch, a parameter the launch passes as a size (`dim3
/// grid(mb_width, mb_height)` launched with `mb_width`) is written as that
/// size, whose relation to the block ids the solver knows (`blockIdx.x <
/// gridDim.x`), and stays equal to it.
pub fn relate(
    kernel: &mut crate::protocol::Kernel,
    sites: &[LaunchSite],
    names: &[Option<String>],
) {
    let Some(c) = condition(sites, names) else {
        return;
    };
    let single = !matches!(c, Cond::Or(..));
    kernel.assumes.push(c);
    let Some(site) = sites.first().filter(|_| single) else {
        return;
    };
    for r in site.relations.iter().filter(|r| r.rel == Rel::Eq) {
        // An argument passed as one constant is that constant in every
        // index, as a launch's constant sizes are: `tid & (size - 1)` with
        // `size` 1024 is a mask the solver reads as a remainder.
        if let (Side::Arg(i, _), Term::Int(c)) = (&r.lhs, &r.term) {
            if let Some(Some(p)) = names.get(*i as usize) {
                if kernel.params.contains(p) {
                    kernel.fix(p, *c);
                }
            }
            continue;
        }
        // `gridDim.x == w`, or an argument passed twice (`pitch == w`).
        let by = match &r.lhs {
            Side::Dim(d) => Expr::var(d),
            Side::Arg(j, _) => match names.get(*j as usize) {
                Some(Some(q)) => Expr::var(q),
                _ => continue,
            },
            Side::Term(_) => continue,
        };
        let Term::Arg(i, _) = &r.term else {
            continue;
        };
        let Some(Some(p)) = names.get(*i as usize) else {
            continue;
        };
        if !kernel.params.contains(p) || by == Expr::var(p) {
            continue;
        }
        for a in &mut kernel.arrays {
            a.body = a.body.subst(p, &by);
        }
        kernel.assumes = kernel.assumes.iter().map(|c| c.subst(p, &by)).collect();
        kernel.assumes.push(Cond::cmp(Rel::Eq, Expr::var(p), by));
    }
}

/// The sizes every launch agrees on, per axis, block then grid.
pub fn common(sites: &[LaunchSite]) -> (Dims, Dims) {
    let blocks: Vec<Dims> = sites.iter().map(|s| s.block).collect();
    let grids: Vec<Dims> = sites.iter().map(|s| s.grid).collect();
    (agree(&blocks), agree(&grids))
}

/// The kernel under the launches `sites` when it was lowered without them:
/// the sizes every launch agrees on are fixed as in-unit launches fix them,
/// and, with several launches, one of them happens.
pub fn apply(kernel: &mut crate::protocol::Kernel, sites: &[LaunchSite], names: &[Option<String>]) {
    if sites.is_empty() {
        return;
    }
    let (block, grid) = common(sites);
    for (dims, names) in [(block, builtin::BLOCK_DIM), (grid, builtin::GRID_DIM)] {
        for (v, n) in dims.iter().zip(names) {
            if let Some(v) = v {
                kernel.fix(n, *v as i64);
            }
        }
    }
    if sites.len() > 1 || sites.iter().any(|s| !s.relations.is_empty()) {
        relate(kernel, sites, names);
    }
    if let Some(note) = unread_block(sites, kernel) {
        if !kernel.approximations.contains(&note) {
            kernel.approximations.push(note);
        }
    }
    mark_unread_grid(kernel, sites);
}

/// The grid sizes some launch gives neither as a constant nor as a term
/// over the arguments (`dim3 grid; grid.x = table[k];`), on axes the
/// kernel uses: a race between blocks may need a grid the program never
/// launches, so such witnesses are not confirmed (see
/// `Kernel::unknown_params`).
fn unread_grid(sites: &[LaunchSite], kernel: &crate::protocol::Kernel) -> Vec<String> {
    let used = kernel.mentioned_vars();
    (0..3)
        .filter(|&a| used.contains(builtin::BID[a]) || used.contains(builtin::GRID_DIM[a]))
        .filter(|&a| {
            sites
                .iter()
                .any(|s| s.grid[a].is_none() && s.related(builtin::GRID_DIM[a]).is_none())
        })
        .map(|a| builtin::GRID_DIM[a].to_string())
        .collect()
}

/// Marks the grid sizes [`unread_grid`] finds as unknown.
pub fn mark_unread_grid(kernel: &mut crate::protocol::Kernel, sites: &[LaunchSite]) {
    for g in unread_grid(sites, kernel) {
        if !kernel.unknown_params.contains(&g) {
            kernel.unknown_params.push(g);
        }
    }
}

/// The note for `Kernel::approximations` of a kernel whose address host
/// code takes: it is launched in ways drfscan does not follow.
pub const ESCAPED: &str = "host code takes the kernel's address (to launch it through a pointer, say), so its block size is not known and a race's block may be one the program never launches";

/// When host code launches the kernel with a block size drfscan cannot
/// read (`k<<<g, block[i]>>>`, a size computed at run time) along an axis
/// the kernel uses: a note for `Kernel::approximations`. A witness's block
/// may then be one the program never launches, so no race is confirmed.
pub fn unread_block(sites: &[LaunchSite], kernel: &crate::protocol::Kernel) -> Option<String> {
    let used = kernel.mentioned_vars();
    let axis_used =
        |a: usize| a == 0 || used.contains(builtin::TID[a]) || used.contains(builtin::BLOCK_DIM[a]);
    // An axis the kernel itself fixes (a CUB collective's block shape).
    let fixed = |a: usize| {
        kernel.assumes.iter().any(|c| {
            matches!(c, Cond::Cmp(Rel::Eq, Expr::Var(d), Expr::Int(_)) if d == builtin::BLOCK_DIM[a])
        })
    };
    let site = sites
        .iter()
        .find(|s| (0..3).any(|a| s.block[a].is_none() && axis_used(a) && !fixed(a)))?;
    Some(format!(
        "the launch at {}:{} has a block size drfscan cannot read, so a race's block may be one the program never launches",
        site.file, site.loc
    ))
}
