//! Memory access protocols (Faial §3, Fig. 2): the language every later stage
//! speaks. A [`Kernel`] holds one [`ArrayProtocol`] per array; the CUDA front-end
//! and the text parser both produce it, and nothing downstream looks at source.

pub mod eval;
pub mod gen;
pub mod parse;
pub mod print;
pub mod wf;

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// A position in the source the protocol came from; 1-based, 0 when unknown.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Loc {
    pub line: u32,
    pub column: u32,
}

impl Loc {
    pub const NONE: Loc = Loc { line: 0, column: 0 };
    pub fn new(line: u32, column: u32) -> Loc {
        Loc { line, column }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Built-in variable names. `tid` in the text format is `tid.x`.
pub mod builtin {
    pub const TID: [&str; 3] = ["tid.x", "tid.y", "tid.z"];
    pub const BID: [&str; 3] = ["bid.x", "bid.y", "bid.z"];
    pub const BLOCK_DIM: [&str; 3] = ["blockDim.x", "blockDim.y", "blockDim.z"];
    pub const GRID_DIM: [&str; 3] = ["gridDim.x", "gridDim.y", "gridDim.z"];
    /// Threads per warp: `__syncwarp` orders this many consecutive linear
    /// thread ids.
    pub const WARP_SIZE: i64 = 32;
    /// The largest launch each size admits on every CUDA GPU: blocks of at
    /// most 1024 threads along x and y and 64 along z; grids of at most
    /// 2^31 - 1 blocks along x and 65535 along y and z.
    pub const BLOCK_DIM_MAX: [i64; 3] = [1024, 1024, 64];
    pub const GRID_DIM_MAX: [i64; 3] = [(1 << 31) - 1, 65535, 65535];
    /// The most threads a block has, whatever its shape.
    pub const BLOCK_THREADS_MAX: i64 = 1024;

    /// Thread and block ids: each thread has its own value.
    pub fn is_thread_id(name: &str) -> bool {
        TID.contains(&name) || BID.contains(&name)
    }
    /// The launch size a thread or block id (`tid.x`, `bid.y`) ranges
    /// below.
    pub fn count_of(id: &str) -> Option<&'static str> {
        if let Some(d) = TID.iter().position(|t| *t == id) {
            Some(BLOCK_DIM[d])
        } else {
            BID.iter().position(|b| *b == id).map(|d| GRID_DIM[d])
        }
    }
    /// Launch dimensions: shared by all threads, symbolic (≥ 1) unless assumed.
    pub fn is_dim(name: &str) -> bool {
        BLOCK_DIM.contains(&name) || GRID_DIM.contains(&name)
    }
    pub fn is_builtin(name: &str) -> bool {
        is_thread_id(name) || is_dim(name)
    }

    /// The y and z axes `used` never names, as (id, size) pairs: a
    /// thread's (`tid.y`, `blockDim.y`) and a block's (`bid.y`,
    /// `gridDim.y`), each unless either of its two names is used. A kernel
    /// is analysed with those sizes 1 ([`super::Kernel::unused_dimensions`]).
    pub fn unnamed_axes(
        used: &std::collections::BTreeSet<String>,
    ) -> Vec<(&'static str, &'static str)> {
        let mut out = Vec::new();
        for d in 1..3 {
            for (id, dim) in [(TID[d], BLOCK_DIM[d]), (BID[d], GRID_DIM[d])] {
                if !used.contains(id) && !used.contains(dim) {
                    out.push((id, dim));
                }
            }
        }
        out
    }

    /// The product of three dimensions (`blockDim.x * blockDim.y *
    /// blockDim.z`): threads per block, or blocks per grid.
    pub fn product(dims: [&str; 3]) -> super::Expr {
        use super::{Expr, Op};
        let [x, y, z] = dims.map(Expr::var);
        Expr::bin(Op::Mul, Expr::bin(Op::Mul, x, y), z)
    }

    /// A thread's linear id in its block, `x + y·X + z·(X·Y)`, from its ids
    /// and the block's dimensions by axis; an axis whose dimension is the
    /// constant 1 adds no term.
    pub fn linear_id(
        id: impl Fn(usize) -> super::Expr,
        dim: impl Fn(usize) -> super::Expr,
    ) -> super::Expr {
        use super::{Expr, Op};
        let mut linear = id(0);
        if dim(1) != Expr::Int(1) {
            linear = Expr::add(linear, Expr::bin(Op::Mul, id(1), dim(0)));
        }
        if dim(2) != Expr::Int(1) {
            let plane = Expr::bin(Op::Mul, dim(0), dim(1));
            linear = Expr::add(linear, Expr::bin(Op::Mul, id(2), plane));
        }
        linear
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Min,
    Max,
}

/// Numeric expressions over mathematical integers. Division and modulo are
/// Euclidean (as in SMT-LIB), so the evaluator and the solver agree.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Expr {
    Int(i64),
    Var(String),
    Bin(Op, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ite(Box<Cond>, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// The greatest common divisor of `a` and `b` (`b` itself when `a` is 0).
pub fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The constant one of `conds` fixes `var` to (`var == n` or `n == var`).
pub fn fixed_value(conds: &[Cond], var: &str) -> Option<i64> {
    conds.iter().find_map(|c| match c {
        Cond::Cmp(Rel::Eq, Expr::Var(v), Expr::Int(n))
        | Cond::Cmp(Rel::Eq, Expr::Int(n), Expr::Var(v))
            if v == var =>
        {
            Some(*n)
        }
        _ => None,
    })
}

impl Rel {
    /// The relation with its sides swapped: `a < b` iff `b > a`.
    pub fn flip(self) -> Rel {
        match self {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            r => r,
        }
    }

    /// The relation that holds exactly when this one does not: `a < b`
    /// fails iff `a >= b`.
    pub fn negate(self) -> Rel {
        match self {
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
            Rel::Ge => Rel::Lt,
        }
    }

    /// Whether `a rel b` holds.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Rel::Eq => a == b,
            Rel::Ne => a != b,
            Rel::Lt => a < b,
            Rel::Le => a <= b,
            Rel::Gt => a > b,
            Rel::Ge => a >= b,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Cond {
    Bool(bool),
    Cmp(Rel, Expr, Expr),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    /// `forall var in lo..hi: body`, a bounded universal. Only the analysis
    /// builds it: a run of synchronized-loop iterations that cross no barrier
    /// must have every one of them cross none.
    Forall {
        var: String,
        lo: Expr,
        hi: Expr,
        body: Box<Cond>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Read,
    Write,
    /// An atomic read-modify-write: never races with another atomic, does
    /// race with plain reads and writes.
    Atomic,
}

impl Mode {
    /// Whether two accesses to one cell by different threads conflict.
    pub fn conflicts(self, other: Mode) -> bool {
        match (self, other) {
            (Mode::Read, Mode::Read) | (Mode::Atomic, Mode::Atomic) => false,
            _ => true,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Read => "read",
            Mode::Write => "write",
            Mode::Atomic => "atomic",
        }
    }
}

/// One memory access `o[n1][n2]…`. `id` is unique within its array protocol
/// and survives every transformation, so a race found on a transformed
/// protocol can be traced back to (and replayed on) the source.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Access {
    pub id: u32,
    pub mode: Mode,
    pub index: Vec<Expr>,
    pub loc: Loc,
    /// For a write, the value it stores when the front-end knows it: two
    /// writes of provably equal values to one cell are a benign race
    /// (`wr[i] = v` in the text format).
    #[serde(default)]
    pub value: Option<Value>,
    /// The lock the thread holds while it makes the access, if any: two
    /// accesses under one lock are ordered by it (`wr[i] lock m[j]` in the
    /// text format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<Lock>,
}

/// A cell of memory used as a spin lock: acquired by a loop that spins on
/// an atomic until it swaps the cell from its free value (`while
/// (atomicCAS(&m[j], 0, 1) != 0);`) followed by a fence, released by an
/// atomic that stores the free value back after a fence. The accesses in
/// between, of two threads holding the same cell, cannot overlap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Lock {
    pub array: String,
    pub index: Vec<Expr>,
}

impl Lock {
    /// The lock with `f` applied to each expression of its index.
    pub fn map(&self, f: impl FnMut(&Expr) -> Expr) -> Lock {
        Lock {
            array: self.array.clone(),
            index: self.index.iter().map(f).collect(),
        }
    }

    pub fn subst(&self, var: &str, by: &Expr) -> Lock {
        self.map(|e| e.subst(var, by))
    }
}

/// The value a write stores, as far as the front-end knows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Value {
    /// A number (a float constant by its bits).
    Expr(Expr),
    /// What one cell of an array the kernel never writes holds
    /// (`s[tx] = in[k * 128 + tx]`): one value per cell for the whole
    /// kernel, so two threads copying one cell store equal values, and
    /// copies of different cells may differ (`wr[tid] = in[tid + k]` in
    /// the text format).
    Read { array: String, index: Vec<Expr> },
    /// A structure stored whole (`out[b] = s` for a `float2 s`), by the
    /// values of its fields in order: two stores are equal when every
    /// field is (`{x, y}` in the text format).
    Fields(Vec<Expr>),
}

impl Value {
    /// Every expression the value mentions.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        match self {
            Value::Expr(e) => std::slice::from_ref(e).iter(),
            Value::Read { index, .. } | Value::Fields(index) => index.iter(),
        }
    }

    /// The value with `f` applied to each of its expressions.
    pub fn map(&self, mut f: impl FnMut(&Expr) -> Expr) -> Value {
        match self {
            Value::Expr(e) => Value::Expr(f(e)),
            Value::Read { array, index } => Value::Read {
                array: array.clone(),
                index: index.iter().map(f).collect(),
            },
            Value::Fields(fields) => Value::Fields(fields.iter().map(f).collect()),
        }
    }

    pub fn subst(&self, var: &str, by: &Expr) -> Value {
        self.map(|e| e.subst(var, by))
    }
}

impl From<Expr> for Value {
    fn from(e: Expr) -> Value {
        Value::Expr(e)
    }
}

/// Source protocols, before well-formedness tags loops and conditionals.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stmt {
    Skip,
    Access(Access),
    /// A block barrier (`__syncthreads()`): orders the threads of one block.
    Sync(Loc),
    /// A grid barrier (a cooperative grid group's `sync()`): orders every
    /// thread of the launch, and so also the threads of each block.
    GridSync(Loc),
    /// `__syncwarp()`: orders the threads of one warp (32 consecutive
    /// linear thread ids) only. `check` keeps it only where the warp agrees
    /// on reaching it ([`wf::warp_uniform`]).
    WarpSync(Loc),
    Seq(Vec<Stmt>),
    If {
        cond: Cond,
        then: Box<Stmt>,
        els: Box<Stmt>,
        loc: Loc,
    },
    /// `for var in lo..hi { body }`: lower bound included, upper excluded.
    For {
        var: String,
        lo: Expr,
        hi: Expr,
        body: Box<Stmt>,
        loc: Loc,
    },
}

/// Which threads can see an array: one block's threads (`__shared__`), or the
/// whole grid (global memory), where `sync` orders nothing across blocks.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    #[default]
    Shared,
    Global,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArrayProtocol {
    pub name: String,
    pub scope: Scope,
    pub body: Stmt,
    pub loc: Loc,
}

/// A set of protocols sharing parameters: one kernel, or one protocol file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Kernel {
    pub name: String,
    /// Thread-global variables: every thread sees the same value. Natural
    /// numbers, unconstrained unless assumed.
    pub params: Vec<String>,
    /// Thread-local unknowns: each thread has its own value. A race whose
    /// index or path depends on one is only *possible*.
    pub locals: Vec<String>,
    /// Global assumptions over params and launch dimensions.
    pub assumes: Vec<Cond>,
    pub arrays: Vec<ArrayProtocol>,
    /// Where the protocol over-approximates its source (a synchronization it
    /// does not model, say). Races of such a kernel are only *possible*: a
    /// confirmation needs an exact protocol.
    #[serde(default)]
    pub approximations: Vec<String>,
    /// Params that stand for values the front-end could not compute (the
    /// trip count of a loop it cannot count, whether a loop returned), and
    /// grid sizes the kernel's launches leave unread: a race that depends
    /// on one (or on a block id below such a size) is only *possible*, and
    /// no precondition is suggested over one.
    #[serde(default)]
    pub unknown_params: Vec<String>,
    /// Params that are a kernel template's value arguments which no
    /// instantiation in the scanned code fixes: the kernel is analysed for
    /// every value, so a race that depends on one is only *possible* (the
    /// program may never use that value), but a precondition over one is
    /// a caller's choice like any other.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_template_params: Vec<String>,
    /// Params of 32-bit integer types, with the values they hold. Not
    /// assumed (one more fact in every query, for almost no race it
    /// removes), but a race whose witness needs a value outside is none a
    /// launch can show: only *possible*.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub word_ranges: Vec<(String, i64, i64)>,
    /// Locals that are one value for all threads of a block: read from
    /// memory the kernel never writes, at an address the block shares
    /// (`m = sizes[blockIdx.x]`). Barriers under them do not diverge;
    /// races still take them as the thread's own.
    #[serde(default)]
    pub block_uniform: Vec<String>,
    /// Locals that are one value for a block at each point its threads
    /// reach together, but not between two threads at different iterations
    /// of a loop: barriers under them do not diverge, and traces take them
    /// as each thread's own (`analysis::uniform_reads`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub control_uniform: Vec<String>,
    /// Warp-synchronous semantics (`--warp-sync N`): the lanes of each warp
    /// of `N` threads (consecutive linear thread ids) run in lockstep, so
    /// two of them race only on the same write at the same step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warp_sync: Option<u32>,
    /// Locals that take what an atomic increment of one counter cell
    /// returns (`slot = atomicAdd(&next, 1)`), when every atomic of the
    /// kernel on that array moves it the same way by at least 1: two
    /// threads never get the same value (unless the counter itself races,
    /// which is reported).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tickets: Vec<Ticket>,
    /// Locals read from `array` at an address the block shares, where the
    /// kernel writes `array` somewhere: one value for the block if no
    /// thread writes `array` in any barrier interval the read is in, which
    /// `analysis::uniform_reads` decides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uniform_reads: Vec<UniformRead>,
    /// Locals that stand for a variable a loop changes (its value at the
    /// start of an iteration, or once the loop is done), each with the
    /// names its values depend on: its value before the loop, the values
    /// its iterations leave it, the loop's exit test and its jumps. One
    /// value for a block at each point its threads reach together when
    /// all of those are (`analysis::uniform_reads`): `while (changed)`
    /// with `changed` read from shared memory after a barrier.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<Carried>,
    /// Conditions and loop ranges over the thread id that the solver showed
    /// every thread of a block agrees on (`if (idx < n)` with `n` a multiple
    /// of the block, `i < rounded_n` in a block-stride loop): barriers under
    /// them do not diverge.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uniform_guards: Vec<wf::Guard>,
    /// Guards whose question ran out of time before the solver's work
    /// limit (a loaded machine): a barrier under one is not shown to
    /// diverge either, and the kernel is `unknown`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undecided_guards: Vec<wf::Guard>,
    /// The kernel lowered again under assumptions its callers may make,
    /// where they change how the front end reads it: if a variant is race
    /// free and the kernel is not, the races are only possible, and the
    /// variant's assumption is the precondition that removes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
    /// The block sizes (`blockDim.y`, `blockDim.z`) along whose axes the
    /// source names no thread index or block size: it was written for
    /// blocks flat along them, and those axes reach the protocol only
    /// through cooperative groups' ranks (`thread_rank()` counts rows and
    /// layers too). A block of size 1 along them is then a precondition
    /// worth suggesting; along an axis the kernel indexes itself it is not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unnamed_axes: Vec<String>,
    /// Locals read where thread 0 of the block published, in the same trip
    /// of a loop, a value over a ticket it took then (`if (tid == 0) { t =
    /// atomicAdd(&next, 1); tile = t; } __syncthreads(); … tile …`): the
    /// value read is the published one over the ticket the block took.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ticket_reads: Vec<TicketRead>,
}

/// See [`Kernel::variants`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Variant {
    pub assumed: Assumed,
    pub kernel: Kernel,
}

/// What a [`Variant`] was lowered under.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Assumed {
    /// These integer parameters are powers of two: masks by them (`i &
    /// (stride - 1)`) are remainders.
    PowersOfTwo(Vec<String>),
    /// The block is one-dimensional: thread 0 along x is the block's one
    /// thread 0, and the ticket it takes is the block's.
    FlatBlock,
}

/// See [`Kernel::uniform_reads`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UniformRead {
    pub local: String,
    pub array: String,
    /// The read's source position: the accesses of `array` at it.
    pub loc: Loc,
    /// Locals of other such reads its address is over: it is one value
    /// for the block only where they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deps: Vec<String>,
}

/// See [`Kernel::ticket_reads`]. Every ticket of a grid counter is handed
/// out once, so two blocks never publish the same one: the `ticket`s of
/// two threads of different blocks differ. Two threads of one block read
/// the same publication where the read is the block's (`uniform_reads`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TicketRead {
    /// The local the read gives.
    pub local: String,
    /// The ticket the block published a value of, a local of its own.
    pub ticket: String,
    /// The value published, over `ticket` (`ticket % w`).
    pub value: Expr,
    /// The counter only adds: the ticket is never negative.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counts_up: bool,
}

/// See [`Kernel::carried`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Carried {
    pub local: String,
    pub deps: Vec<String>,
}

/// See [`Kernel::tickets`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ticket {
    pub local: String,
    /// The counter is one cell for the whole grid; else one per block, and
    /// threads of different blocks may get equal values.
    pub grid: bool,
    /// One thread of every block takes it, once, from a grid counter that
    /// starts at 0 and counts by one (`if (tid == 0) t = atomicInc(&done,
    /// gridDim.x);`): the block's ticket, the same for its threads (they
    /// read it where thread 0 publishes it), between 0 and the number of
    /// blocks, different in other blocks.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub block: bool,
    /// For a block ticket taken after a `__threadfence()`: the local that
    /// is 0 on global accesses before the ticket (ordered before it by a
    /// barrier or in the taking thread) and 1 on those after the first
    /// barrier past it. A block's accesses before its ticket happen before
    /// another block's after its ticket when the other's ticket is
    /// greater: the last block to finish reads what all others wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// For a range a group's leader takes for its whole group and hands
    /// to it (`if (g.thread_rank() == 0) r = atomicAdd(c, g.size()); r =
    /// g.shfl(r, 0);`): the group's size and the thread's rank in it. The
    /// local is then the start of the group's range: two threads with the
    /// same start are one group's, with different ranks, and the ranges
    /// of two groups never overlap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<GroupRange>,
    /// For a counter whose cell depends on the thread (one per row of
    /// output: `n = atomicAdd(&count[row], 1)`): that cell, over the
    /// thread's values. Two threads get different values only when their
    /// cells are the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<Vec<Expr>>,
    /// Every atomic on the counter adds: what it hands out is at least
    /// where it started, which host code sets to 0 or more (`cudaMemset`),
    /// so the values are never negative.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counts_up: bool,
    /// The counter's array, for a ticket that is not a block's or a
    /// group's: tickets of one counter cell taken at different sites (the
    /// copies of an unrolled loop) differ too, between threads and within
    /// one, since every atomic on the cell moves it the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<String>,
}

/// See [`Ticket::group`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GroupRange {
    pub rank: Expr,
    pub size: Expr,
}

impl Expr {
    pub fn var(name: &str) -> Expr {
        Expr::Var(name.to_string())
    }
    pub fn bin(op: Op, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }
    pub fn add(a: Expr, b: Expr) -> Expr {
        Expr::bin(Op::Add, a, b)
    }
    pub fn sub(a: Expr, b: Expr) -> Expr {
        Expr::bin(Op::Sub, a, b)
    }

    pub fn free_vars(&self, out: &mut BTreeSet<String>) {
        match self {
            Expr::Int(_) => {}
            Expr::Var(v) => {
                out.insert(v.clone());
            }
            Expr::Bin(_, a, b) => {
                a.free_vars(out);
                b.free_vars(out);
            }
            Expr::Ite(c, a, b) => {
                c.free_vars(out);
                a.free_vars(out);
                b.free_vars(out);
            }
        }
    }

    /// Capture-free substitution of `var` by `by` (expressions bind
    /// nothing). Operations on two constants it makes are folded (`256 -
    /// 1` is `255`): a constant operand keeps the solver's arithmetic
    /// linear where a constant expression does not.
    pub fn subst(&self, var: &str, by: &Expr) -> Expr {
        match self {
            Expr::Var(v) if v == var => by.clone(),
            Expr::Int(_) | Expr::Var(_) => self.clone(),
            Expr::Bin(op, a, b) => match (a.subst(var, by), b.subst(var, by)) {
                (Expr::Int(x), Expr::Int(y)) => match eval::arith(*op, x, y) {
                    Ok(v) => Expr::Int(v),
                    Err(_) => Expr::bin(*op, Expr::Int(x), Expr::Int(y)),
                },
                (a, b) => Expr::bin(*op, a, b),
            },
            Expr::Ite(c, a, b) => Expr::Ite(
                Box::new(c.subst(var, by)),
                Box::new(a.subst(var, by)),
                Box::new(b.subst(var, by)),
            ),
        }
    }
}

impl Cond {
    pub fn cmp(rel: Rel, a: Expr, b: Expr) -> Cond {
        Cond::Cmp(rel, a, b)
    }

    /// The conditions a conjunction is made of, in order; any other
    /// condition is its own.
    pub fn conjuncts(&self) -> Vec<&Cond> {
        match self {
            Cond::And(a, b) => {
                let mut out = a.conjuncts();
                out.extend(b.conjuncts());
                out
            }
            c => vec![c],
        }
    }
    /// Conjunction that folds literal `true`/`false`.
    pub fn and(a: Cond, b: Cond) -> Cond {
        match (a, b) {
            (Cond::Bool(true), c) | (c, Cond::Bool(true)) => c,
            (Cond::Bool(false), _) | (_, Cond::Bool(false)) => Cond::Bool(false),
            (a, b) => Cond::And(Box::new(a), Box::new(b)),
        }
    }
    pub fn or(a: Cond, b: Cond) -> Cond {
        match (a, b) {
            (Cond::Bool(false), c) | (c, Cond::Bool(false)) => c,
            (Cond::Bool(true), _) | (_, Cond::Bool(true)) => Cond::Bool(true),
            (a, b) => Cond::Or(Box::new(a), Box::new(b)),
        }
    }
    pub fn not(a: Cond) -> Cond {
        match a {
            Cond::Bool(b) => Cond::Bool(!b),
            Cond::Not(c) => *c,
            c => Cond::Not(Box::new(c)),
        }
    }
    pub fn all(cs: impl IntoIterator<Item = Cond>) -> Cond {
        cs.into_iter().fold(Cond::Bool(true), Cond::and)
    }

    pub fn free_vars(&self, out: &mut BTreeSet<String>) {
        match self {
            Cond::Bool(_) => {}
            Cond::Cmp(_, a, b) => {
                a.free_vars(out);
                b.free_vars(out);
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.free_vars(out);
                b.free_vars(out);
            }
            Cond::Not(a) => a.free_vars(out),
            Cond::Forall { var, lo, hi, body } => {
                lo.free_vars(out);
                hi.free_vars(out);
                let mut inner = BTreeSet::new();
                body.free_vars(&mut inner);
                inner.remove(var);
                out.extend(inner);
            }
        }
    }

    /// Calls `f` on each expression the condition compares or bounds a
    /// `forall` by, outermost first.
    pub fn each_expr(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Cond::Bool(_) => {}
            Cond::Cmp(_, a, b) => {
                f(a);
                f(b);
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.each_expr(f);
                b.each_expr(f);
            }
            Cond::Not(a) => a.each_expr(f),
            Cond::Forall { lo, hi, body, .. } => {
                f(lo);
                f(hi);
                body.each_expr(f);
            }
        }
    }

    /// The alternatives of a disjunction (`a || b || c`), or the condition
    /// itself.
    pub fn disjuncts(&self) -> Vec<&Cond> {
        match self {
            Cond::Or(a, b) => {
                let mut out = a.disjuncts();
                out.extend(b.disjuncts());
                out
            }
            c => vec![c],
        }
    }

    /// The constants a conjunction fixes variables to (`v == 3 && w ==
    /// 4`), in order.
    pub fn fixed_values(&self) -> Vec<(&str, i64)> {
        match self {
            Cond::And(a, b) => {
                let mut out = a.fixed_values();
                out.extend(b.fixed_values());
                out
            }
            Cond::Cmp(Rel::Eq, Expr::Var(v), Expr::Int(n))
            | Cond::Cmp(Rel::Eq, Expr::Int(n), Expr::Var(v)) => vec![(v.as_str(), *n)],
            _ => Vec::new(),
        }
    }

    /// The condition with `f` applied to each expression it compares or
    /// bounds a `forall` by (not inside a `forall`'s body, whose variable
    /// `f` does not know).
    pub fn map_exprs(&self, f: &dyn Fn(&Expr) -> Expr) -> Cond {
        match self {
            Cond::Bool(_) => self.clone(),
            Cond::Cmp(r, a, b) => Cond::Cmp(*r, f(a), f(b)),
            Cond::And(a, b) => Cond::And(Box::new(a.map_exprs(f)), Box::new(b.map_exprs(f))),
            Cond::Or(a, b) => Cond::Or(Box::new(a.map_exprs(f)), Box::new(b.map_exprs(f))),
            Cond::Not(a) => Cond::Not(Box::new(a.map_exprs(f))),
            Cond::Forall { var, lo, hi, body } => Cond::Forall {
                var: var.clone(),
                lo: f(lo),
                hi: f(hi),
                body: body.clone(),
            },
        }
    }

    pub fn subst(&self, var: &str, by: &Expr) -> Cond {
        match self {
            Cond::Bool(_) => self.clone(),
            Cond::Cmp(r, a, b) => Cond::Cmp(*r, a.subst(var, by), b.subst(var, by)),
            Cond::And(a, b) => Cond::And(Box::new(a.subst(var, by)), Box::new(b.subst(var, by))),
            Cond::Or(a, b) => Cond::Or(Box::new(a.subst(var, by)), Box::new(b.subst(var, by))),
            Cond::Not(a) => Cond::Not(Box::new(a.subst(var, by))),
            // Bound variables are fresh names, so `by` cannot be captured.
            Cond::Forall {
                var: bound,
                lo,
                hi,
                body,
            } => Cond::Forall {
                var: bound.clone(),
                lo: lo.subst(var, by),
                hi: hi.subst(var, by),
                body: if bound == var {
                    body.clone()
                } else {
                    Box::new(body.subst(var, by))
                },
            },
        }
    }
}

impl Stmt {
    pub fn seq(items: Vec<Stmt>) -> Stmt {
        Stmt::Seq(items)
    }

    /// Whether a barrier occurs anywhere inside: such a loop or conditional
    /// is *synchronized*.
    pub fn has_sync(&self) -> bool {
        match self {
            Stmt::Skip | Stmt::Access(_) | Stmt::WarpSync(_) => false,
            Stmt::Sync(_) | Stmt::GridSync(_) => true,
            Stmt::Seq(items) => items.iter().any(Stmt::has_sync),
            Stmt::If { then, els, .. } => then.has_sync() || els.has_sync(),
            Stmt::For { body, .. } => body.has_sync(),
        }
    }

    /// Whether a grid barrier occurs anywhere inside.
    pub fn has_grid_sync(&self) -> bool {
        match self {
            Stmt::Skip | Stmt::Access(_) | Stmt::Sync(_) | Stmt::WarpSync(_) => false,
            Stmt::GridSync(_) => true,
            Stmt::Seq(items) => items.iter().any(Stmt::has_grid_sync),
            Stmt::If { then, els, .. } => then.has_grid_sync() || els.has_grid_sync(),
            Stmt::For { body, .. } => body.has_grid_sync(),
        }
    }

    /// Whether a warp barrier occurs anywhere inside.
    pub fn has_warp_sync(&self) -> bool {
        match self {
            Stmt::Skip | Stmt::Access(_) | Stmt::Sync(_) | Stmt::GridSync(_) => false,
            Stmt::WarpSync(_) => true,
            Stmt::Seq(items) => items.iter().any(Stmt::has_warp_sync),
            Stmt::If { then, els, .. } => then.has_warp_sync() || els.has_warp_sync(),
            Stmt::For { body, .. } => body.has_warp_sync(),
        }
    }

    /// Every access, in program order.
    pub fn accesses<'a>(&'a self, out: &mut Vec<&'a Access>) {
        match self {
            Stmt::Skip | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
            Stmt::Access(a) => out.push(a),
            Stmt::Seq(items) => items.iter().for_each(|s| s.accesses(out)),
            Stmt::If { then, els, .. } => {
                then.accesses(out);
                els.accesses(out);
            }
            Stmt::For { body, .. } => body.accesses(out),
        }
    }
}

impl Kernel {
    /// A variable `array`'s protocol names where nothing binds it: not a
    /// built-in, parameter or local, nor a loop variable in scope. The text
    /// format's parser rejects such protocols; for a lowered kernel it is a
    /// front-end defect, which no verdict may rest on.
    pub fn unbound_variable(&self, array: &ArrayProtocol) -> Option<String> {
        let declared = |v: &str| builtin::is_builtin(v) || self.is_param(v) || self.is_local(v);
        array.body.unbound(&declared, &mut Vec::new())
    }
}

impl Stmt {
    fn unbound(&self, declared: &dyn Fn(&str) -> bool, bound: &mut Vec<String>) -> Option<String> {
        let expr = |e: &Expr, bound: &mut Vec<String>| e.unbound(declared, bound);
        match self {
            Stmt::Skip | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => None,
            Stmt::Access(a) => a
                .index
                .iter()
                .chain(a.value.iter().flat_map(Value::exprs))
                .chain(a.lock.iter().flat_map(|l| &l.index))
                .find_map(|e| expr(e, bound)),
            Stmt::Seq(items) => items.iter().find_map(|s| s.unbound(declared, bound)),
            Stmt::If {
                cond, then, els, ..
            } => cond
                .unbound(declared, bound)
                .or_else(|| then.unbound(declared, bound))
                .or_else(|| els.unbound(declared, bound)),
            Stmt::For {
                var, lo, hi, body, ..
            } => expr(lo, bound).or_else(|| expr(hi, bound)).or_else(|| {
                bound.push(var.clone());
                let found = body.unbound(declared, bound);
                bound.pop();
                found
            }),
        }
    }
}

impl Expr {
    fn unbound(&self, declared: &dyn Fn(&str) -> bool, bound: &mut Vec<String>) -> Option<String> {
        match self {
            Expr::Int(_) => None,
            Expr::Var(v) => (!declared(v) && !bound.contains(v)).then(|| v.clone()),
            Expr::Bin(_, a, b) => a
                .unbound(declared, bound)
                .or_else(|| b.unbound(declared, bound)),
            Expr::Ite(c, a, b) => c
                .unbound(declared, bound)
                .or_else(|| a.unbound(declared, bound))
                .or_else(|| b.unbound(declared, bound)),
        }
    }
}

impl Cond {
    fn unbound(&self, declared: &dyn Fn(&str) -> bool, bound: &mut Vec<String>) -> Option<String> {
        match self {
            Cond::Bool(_) => None,
            Cond::Cmp(_, a, b) => a
                .unbound(declared, bound)
                .or_else(|| b.unbound(declared, bound)),
            Cond::And(a, b) | Cond::Or(a, b) => a
                .unbound(declared, bound)
                .or_else(|| b.unbound(declared, bound)),
            Cond::Not(a) => a.unbound(declared, bound),
            Cond::Forall { var, lo, hi, body } => lo
                .unbound(declared, bound)
                .or_else(|| hi.unbound(declared, bound))
                .or_else(|| {
                    bound.push(var.clone());
                    let found = body.unbound(declared, bound);
                    bound.pop();
                    found
                }),
        }
    }
}

impl Kernel {
    pub fn array(&self, name: &str) -> Option<&ArrayProtocol> {
        self.arrays.iter().find(|a| a.name == name)
    }
    pub fn is_param(&self, name: &str) -> bool {
        builtin::is_dim(name) || self.params.iter().any(|p| p == name)
    }
    pub fn is_local(&self, name: &str) -> bool {
        self.locals.iter().any(|p| p == name)
    }
}

impl Stmt {
    pub fn free_vars(&self, out: &mut BTreeSet<String>) {
        match self {
            Stmt::Skip | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
            Stmt::Access(a) => a
                .index
                .iter()
                .chain(a.value.iter().flat_map(Value::exprs))
                .chain(a.lock.iter().flat_map(|l| &l.index))
                .for_each(|e| e.free_vars(out)),
            Stmt::Seq(items) => items.iter().for_each(|s| s.free_vars(out)),
            Stmt::If {
                cond, then, els, ..
            } => {
                cond.free_vars(out);
                then.free_vars(out);
                els.free_vars(out);
            }
            // Over-approximate: a loop variable named like a built-in is
            // rejected by the parsers anyway.
            Stmt::For { lo, hi, body, .. } => {
                lo.free_vars(out);
                hi.free_vars(out);
                body.free_vars(out);
            }
        }
    }
}

impl Stmt {
    /// `var` replaced by `by` everywhere but under a loop that binds it.
    pub fn subst(&self, var: &str, by: &Expr) -> Stmt {
        match self {
            Stmt::Skip | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => self.clone(),
            Stmt::Access(a) => Stmt::Access(Access {
                index: a.index.iter().map(|e| e.subst(var, by)).collect(),
                value: a.value.as_ref().map(|v| v.subst(var, by)),
                lock: a.lock.as_ref().map(|l| l.subst(var, by)),
                ..a.clone()
            }),
            Stmt::Seq(items) => Stmt::Seq(items.iter().map(|s| s.subst(var, by)).collect()),
            Stmt::If {
                cond,
                then,
                els,
                loc,
            } => Stmt::If {
                cond: cond.subst(var, by),
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
                lo: lo.subst(var, by),
                hi: hi.subst(var, by),
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

impl Kernel {
    /// The kernel for one value of a thread-global variable (a launch
    /// dimension host code fixes): the value in every index and condition,
    /// where the solver sees a constant instead of a product of unknowns,
    /// and an assumption that says it.
    pub fn fix(&mut self, var: &str, value: i64) {
        let by = Expr::Int(value);
        for a in &mut self.arrays {
            a.body = a.body.subst(var, &by);
        }
        self.assumes = self.assumes.iter().map(|c| c.subst(var, &by)).collect();
        self.assumes.push(Cond::cmp(Rel::Eq, Expr::var(var), by));
    }

    /// Every name the kernel mentions, in its arrays and its assumptions.
    pub fn mentioned_vars(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        // A bound on a block or grid size (`__launch_bounds__`'s
        // `blockDim.y <= 256`, a collective's `blockDim.y == 1`) says
        // nothing of whether the kernel uses that axis.
        let bound = |c: &Cond| match c {
            Cond::Cmp(Rel::Le, Expr::Var(d), Expr::Int(_))
            | Cond::Cmp(Rel::Eq, Expr::Var(d), Expr::Int(1)) => builtin::is_dim(d),
            _ => false,
        };
        self.assumes
            .iter()
            .filter(|c| !bound(c))
            .for_each(|c| c.free_vars(&mut out));
        self.arrays.iter().for_each(|a| a.body.free_vars(&mut out));
        out
    }

    /// Assumptions fixing the `y` and `z` launch dimensions a kernel never
    /// mentions to 1. A kernel that only reads `threadIdx.x` is written for
    /// one-dimensional blocks; leaving `blockDim.y` free would report every
    /// such kernel racy between threads (x, 0) and (x, 1). The `x`
    /// dimensions stay symbolic: launching more blocks or threads than a
    /// kernel expects along `x` is the bug users want found.
    pub fn unused_dimensions(&self) -> Vec<Cond> {
        builtin::unnamed_axes(&self.mentioned_vars())
            .into_iter()
            .map(|(_, dim)| Cond::cmp(Rel::Eq, Expr::var(dim), Expr::Int(1)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(index: Vec<Expr>) -> Kernel {
        Kernel {
            arrays: vec![ArrayProtocol {
                name: "A".into(),
                scope: Scope::Shared,
                body: Stmt::Access(Access {
                    lock: None,
                    id: 0,
                    mode: Mode::Write,
                    index,
                    loc: Loc::NONE,
                    value: None,
                }),
                loc: Loc::NONE,
            }],
            ..Kernel::default()
        }
    }

    #[test]
    fn a_variable_outside_its_loop_is_unbound() {
        let mut k = kernel(vec![Expr::add(Expr::var("i"), Expr::var("tid.x"))]);
        assert_eq!(k.unbound_variable(&k.arrays[0]), Some("i".into()));
        let access = k.arrays[0].body.clone();
        k.arrays[0].body = Stmt::For {
            var: "i".into(),
            lo: Expr::Int(0),
            hi: Expr::var("n"),
            body: Box::new(access.clone()),
            loc: Loc::NONE,
        };
        assert_eq!(k.unbound_variable(&k.arrays[0]), Some("n".into()));
        k.params.push("n".into());
        assert_eq!(k.unbound_variable(&k.arrays[0]), None);
        // After the loop, `i` is no longer bound.
        k.arrays[0].body = Stmt::Seq(vec![k.arrays[0].body.clone(), access]);
        assert_eq!(k.unbound_variable(&k.arrays[0]), Some("i".into()));
    }

    #[test]
    fn one_dimensional_kernels_fix_y_and_z() {
        let k = kernel(vec![Expr::var("tid.x")]);
        let fixed = k.unused_dimensions();
        assert_eq!(fixed.len(), 4);
        assert!(fixed.contains(&Cond::cmp(Rel::Eq, Expr::var("blockDim.y"), Expr::Int(1))));
        assert!(fixed.contains(&Cond::cmp(Rel::Eq, Expr::var("gridDim.z"), Expr::Int(1))));
        // A bound on an axis (`__launch_bounds__(256)` on each) is no use
        // of it; a size a launch fixes is.
        let mut k = kernel(vec![Expr::var("tid.x")]);
        for d in ["blockDim.x", "blockDim.y", "blockDim.z"] {
            k.assumes
                .push(Cond::cmp(Rel::Le, Expr::var(d), Expr::Int(256)));
        }
        k.assumes
            .push(Cond::cmp(Rel::Eq, Expr::var("gridDim.z"), Expr::Int(4)));
        let fixed = k.unused_dimensions();
        assert_eq!(fixed.len(), 3, "{fixed:?}");
        assert!(fixed.contains(&Cond::cmp(Rel::Eq, Expr::var("blockDim.z"), Expr::Int(1))));
    }

    #[test]
    fn a_mentioned_dimension_stays_symbolic() {
        let k = kernel(vec![Expr::var("tid.y"), Expr::var("gridDim.y")]);
        let fixed = k.unused_dimensions();
        assert!(!fixed.iter().any(
            |c| matches!(c, Cond::Cmp(_, Expr::Var(v), _) if v == "blockDim.y" || v == "gridDim.y")
        ));
        assert_eq!(fixed.len(), 2);
    }
}
