//! The concrete evaluator (Faial §3.2, Fig. 5), run directly: every thread of
//! an [`Instance`] executes the protocol on its own, counting the barriers it
//! passes; two accesses of one block are concurrent iff they happen in the
//! same phase. It is the oracle the symbolic pipeline is tested against and
//! the replayer every witness goes through before it is reported.

use super::{builtin, ArrayProtocol, Cond, Expr, Kernel, Loc, Mode, Op, Scope, Stmt};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use thiserror::Error;

/// Concrete values for one run: thread-global values (params, launch
/// dimensions) and, per thread, its ids and its values of the kernel's
/// thread-local unknowns. A missing param or id is 0, a missing dimension 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Instance {
    pub globals: BTreeMap<String, i64>,
    pub threads: Vec<BTreeMap<String, i64>>,
}

impl Instance {
    /// Sets a thread-global value.
    pub fn global(mut self, name: &str, value: i64) -> Instance {
        self.globals.insert(name.to_string(), value);
        self
    }

    /// Adds a thread with the given block and thread ids.
    pub fn thread(mut self, bid: [i64; 3], tid: [i64; 3]) -> Instance {
        let ids = builtin::BID
            .iter()
            .zip(bid)
            .chain(builtin::TID.iter().zip(tid));
        self.threads
            .push(ids.map(|(n, v)| (n.to_string(), v)).collect());
        self
    }

    /// Sets a thread-local value of the last added thread.
    pub fn local(mut self, name: &str, value: i64) -> Instance {
        if let Some(t) = self.threads.last_mut() {
            t.insert(name.to_string(), value);
        }
        self
    }

    /// The block ids of thread `t`.
    pub fn block(&self, t: usize) -> [i64; 3] {
        self.ids(t, &builtin::BID)
    }

    /// The thread ids of thread `t`.
    pub fn tid(&self, t: usize) -> [i64; 3] {
        self.ids(t, &builtin::TID)
    }

    fn ids(&self, t: usize, names: &[&str; 3]) -> [i64; 3] {
        let get = |n: &str| {
            self.threads
                .get(t)
                .and_then(|m| m.get(n))
                .copied()
                .unwrap_or(0)
        };
        [get(names[0]), get(names[1]), get(names[2])]
    }

    /// The warp of thread `t` in its block: its linear thread id over the
    /// warp size.
    pub fn warp(&self, t: usize) -> i64 {
        let dim = |d: usize| {
            self.globals
                .get(builtin::BLOCK_DIM[d])
                .copied()
                .unwrap_or(1)
        };
        let [x, y, z] = self.tid(t);
        (x + dim(0) * (y + dim(1) * z)).div_euclid(builtin::WARP_SIZE)
    }

    /// Whether two accesses may happen at the same time on an array of
    /// `scope`.
    pub fn concurrent(&self, scope: Scope, a: &AccessValue, b: &AccessValue) -> bool {
        if a.thread == b.thread {
            false
        } else if self.block(a.thread) == self.block(b.thread) {
            if self.warp(a.thread) == self.warp(b.thread) {
                a.warp_phase == b.warp_phase
            } else {
                a.phase == b.phase
            }
        } else {
            // Shared memory is per block; in global memory, only grid
            // barriers order threads of different blocks.
            scope == Scope::Global && a.grid_phase == b.grid_phase
        }
    }
}

/// One access as issued by one thread.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AccessValue {
    pub thread: usize,
    /// `Access::id` of the access that issued it.
    pub id: u32,
    pub mode: Mode,
    pub index: Vec<i64>,
    /// How many barriers (block or grid) the thread passed before it.
    pub phase: usize,
    /// How many grid barriers the thread passed before it.
    pub grid_phase: usize,
    /// How many barriers of any kind, warp barriers too, it passed before.
    pub warp_phase: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    #[error("assumption #{} does not hold{}", assumption + 1, thread.map(|t| format!(" for thread {t}")).unwrap_or_default())]
    AssumptionFalse {
        assumption: usize,
        thread: Option<usize>,
    },
    #[error("invalid instance: {0}")]
    BadInstance(String),
    #[error("variable `{0}` has no value")]
    Unbound(String),
    #[error("barrier divergence at {loc}: threads {} and {} pass different barriers", threads.0, threads.1)]
    Divergence { loc: Loc, threads: (usize, usize) },
    #[error("evaluation budget exhausted")]
    Budget,
    #[error("arithmetic overflow in {0}")]
    Overflow(String),
}

/// Runs `array` once per thread of `inst` and returns every access issued,
/// thread by thread in program order. Fails when an assumption of `kernel`
/// is false, the instance is out of range, threads of one block pass
/// different barriers, or more than `budget` steps (loop iterations and
/// accesses, over all threads) are needed.
pub fn run(
    kernel: &Kernel,
    array: &ArrayProtocol,
    inst: &Instance,
    budget: u64,
) -> Result<Vec<AccessValue>, EvalError> {
    run_as(kernel, array, inst, budget, Issued::All, None)
}

/// What [`run_as`] returns of the accesses issued.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Issued {
    /// Every one, as often as it is issued.
    All,
    /// Each one at least once: enough to tell whether two race. A loop whose
    /// body mentions neither its variable nor a barrier issues the same
    /// accesses in the same phase every time, so it runs once. Witnesses of
    /// real kernels run such loops over constant sizes in the thousands,
    /// nested: millions of steps each.
    Distinct,
}

fn run_as(
    kernel: &Kernel,
    array: &ArrayProtocol,
    inst: &Instance,
    budget: u64,
    issued: Issued,
    only: Option<[u32; 2]>,
) -> Result<Vec<AccessValue>, EvalError> {
    let globals = global_env(kernel, inst)?;
    let threads = (0..inst.threads.len())
        .map(|t| thread_env(kernel, inst, t, &globals))
        .collect::<Result<Vec<_>, _>>()?;
    check_distinct(inst)?;
    check_assumptions(kernel, &globals, &threads)?;
    let mut values = Vec::new();
    let mut barriers = Vec::with_capacity(threads.len());
    let mut steps = 0;
    for (t, locals) in threads.iter().enumerate() {
        let mut thread = Thread {
            env: Env {
                globals: &globals,
                locals,
                loops: Vec::new(),
            },
            thread: t,
            barriers: Vec::new(),
            phase: 0,
            grid_phase: 0,
            out: &mut values,
            steps: &mut steps,
            budget,
            issued,
            only,
            loops_without_var: HashMap::new(),
        };
        thread.exec(&array.body)?;
        barriers.push(thread.barriers);
    }
    check_barriers(inst, &barriers)?;
    Ok(values)
}

/// Whether two indexes may name one cell: they agree in every dimension
/// both have. An array reached with fewer dimensions in one place (a whole
/// structure, `s[j]`) than in another (a field's element, `s[j].pos[n]`)
/// covers every cell the longer index refines.
pub fn same_cell(a: &[i64], b: &[i64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Every racing pair of `values` (as returned by [`run`] on `inst`): accesses
/// of different threads to one cell ([`same_cell`]), with conflicting modes,
/// concurrent on an array of `scope`.
pub fn races<'v>(
    scope: Scope,
    inst: &Instance,
    values: &'v [AccessValue],
) -> Vec<(&'v AccessValue, &'v AccessValue)> {
    let mut by_first: HashMap<Option<i64>, Vec<&AccessValue>> = HashMap::new();
    for v in values {
        by_first
            .entry(v.index.first().copied())
            .or_default()
            .push(v);
    }
    // An access without an index meets every cell.
    let anywhere = by_first.remove(&None).unwrap_or_default();
    let mut out = Vec::new();
    let mut groups: Vec<Vec<&AccessValue>> = by_first.into_values().collect();
    if !anywhere.is_empty() {
        groups = vec![values.iter().collect()];
    }
    for group in &groups {
        for (i, a) in group.iter().enumerate() {
            for b in &group[i + 1..] {
                if same_cell(&a.index, &b.index)
                    && a.mode.conflicts(b.mode)
                    && inst.concurrent(scope, a, b)
                {
                    out.push((*a, *b));
                }
            }
        }
    }
    out.sort_by_key(|(a, b)| {
        (
            a.thread,
            b.thread,
            a.id,
            b.id,
            a.index.clone(),
            a.phase,
            b.phase,
        )
    });
    out
}

/// Whether `array` runs on `inst` without a data race.
pub fn is_drf(
    kernel: &Kernel,
    array: &ArrayProtocol,
    inst: &Instance,
    budget: u64,
) -> Result<bool, EvalError> {
    let values = run_as(kernel, array, inst, budget, Issued::Distinct, None)?;
    Ok(races(array.scope, inst, &values).is_empty())
}

/// Replays a witness on an instance of exactly two threads: true iff thread
/// 0 issues access `ids.0` and thread 1 issues access `ids.1`, both at
/// `index`, with conflicting modes, at a time when they are concurrent.
pub fn replay(
    kernel: &Kernel,
    array: &ArrayProtocol,
    inst: &Instance,
    ids: (u32, u32),
    index: &[i64],
    budget: u64,
) -> Result<bool, EvalError> {
    if inst.threads.len() != 2 {
        return Err(EvalError::BadInstance(format!(
            "a witness has 2 threads, not {}",
            inst.threads.len()
        )));
    }
    let values = run_as(
        kernel,
        array,
        inst,
        budget,
        Issued::Distinct,
        Some([ids.0, ids.1]),
    )?;
    let issued = |t: usize, id: u32| {
        values
            .iter()
            .filter(move |v| v.thread == t && v.id == id && same_cell(&v.index, index))
    };
    Ok(issued(0, ids.0).any(|a| {
        issued(1, ids.1).any(|b| a.mode.conflicts(b.mode) && inst.concurrent(array.scope, a, b))
    }))
}

/// Evaluates `e`, looking variables up with `lookup`.
pub fn eval_expr(e: &Expr, lookup: &impl Fn(&str) -> Option<i64>) -> Result<i64, EvalError> {
    match e {
        Expr::Int(n) => Ok(*n),
        Expr::Var(v) => lookup(v).ok_or_else(|| EvalError::Unbound(v.clone())),
        Expr::Bin(op, a, b) => arith(*op, eval_expr(a, lookup)?, eval_expr(b, lookup)?),
        Expr::Ite(c, a, b) => {
            if eval_cond(c, lookup)? {
                eval_expr(a, lookup)
            } else {
                eval_expr(b, lookup)
            }
        }
    }
}

/// Evaluates `c`, looking variables up with `lookup`.
pub fn eval_cond(c: &Cond, lookup: &impl Fn(&str) -> Option<i64>) -> Result<bool, EvalError> {
    Ok(match c {
        Cond::Bool(b) => *b,
        Cond::Cmp(rel, a, b) => {
            let (a, b) = (eval_expr(a, lookup)?, eval_expr(b, lookup)?);
            rel.holds(a, b)
        }
        Cond::And(a, b) => eval_cond(a, lookup)? && eval_cond(b, lookup)?,
        Cond::Or(a, b) => eval_cond(a, lookup)? || eval_cond(b, lookup)?,
        Cond::Not(a) => !eval_cond(a, lookup)?,
        Cond::Forall { var, lo, hi, body } => {
            let (lo, hi) = (eval_expr(lo, lookup)?, eval_expr(hi, lookup)?);
            let mut all = true;
            // Through `dyn` so that nested quantifiers instantiate nothing new.
            let outer: &dyn Fn(&str) -> Option<i64> = lookup;
            for v in lo..hi {
                let inner = |name: &str| if name == var { Some(v) } else { outer(name) };
                let inner: &dyn Fn(&str) -> Option<i64> = &inner;
                if !eval_cond(body, &inner)? {
                    all = false;
                    break;
                }
            }
            all
        }
    })
}

/// One binary operation with the semantics all stages share: Euclidean
/// division and modulo (`/ 0` is 0, `% 0` the dividend), shifts as
/// multiplication and floor division by powers of two, bitwise operations
/// in two's complement. Results beyond i64 are errors, not wrapped.
pub fn arith(op: Op, a: i64, b: i64) -> Result<i64, EvalError> {
    let overflow = || EvalError::Overflow(format!("{a} {} {b}", super::print::op_str(op)));
    match op {
        Op::Add => a.checked_add(b).ok_or_else(overflow),
        Op::Sub => a.checked_sub(b).ok_or_else(overflow),
        Op::Mul => a.checked_mul(b).ok_or_else(overflow),
        Op::Div if b == 0 => Ok(0),
        Op::Div => a.checked_div_euclid(b).ok_or_else(overflow),
        Op::Mod if b == 0 => Ok(a),
        // i64::MIN % -1 is 0 mathematically, though `checked_rem_euclid` refuses it.
        Op::Mod if b == -1 => Ok(0),
        Op::Mod => a.checked_rem_euclid(b).ok_or_else(overflow),
        Op::BitAnd => Ok(a & b),
        Op::BitOr => Ok(a | b),
        Op::BitXor => Ok(a ^ b),
        Op::Shl if b < 0 => Err(overflow()),
        Op::Shl if a == 0 => Ok(0),
        Op::Shl => u32::try_from(b)
            .ok()
            .filter(|&b| b < 63)
            .and_then(|b| a.checked_mul(1 << b))
            .ok_or_else(overflow),
        Op::Shr if b < 0 => Err(overflow()),
        // An arithmetic shift is floor division by 2^b.
        Op::Shr => Ok(a >> b.min(63)),
        Op::Min => Ok(a.min(b)),
        Op::Max => Ok(a.max(b)),
    }
}

/// Thread-global values with defaults filled in, checked for range.
fn global_env(kernel: &Kernel, inst: &Instance) -> Result<BTreeMap<String, i64>, EvalError> {
    let mut env = inst.globals.clone();
    for name in builtin::BLOCK_DIM.iter().chain(&builtin::GRID_DIM) {
        let v = *env.entry(name.to_string()).or_insert(1);
        if v < 1 {
            return Err(EvalError::BadInstance(format!(
                "{name} = {v}, but launch dimensions are at least 1"
            )));
        }
    }
    for name in &kernel.params {
        let v = *env.entry(name.clone()).or_insert(0);
        if v < 0 {
            return Err(EvalError::BadInstance(format!(
                "{name} = {v}, but parameters are natural numbers"
            )));
        }
    }
    if let Some(name) = env
        .keys()
        .find(|n| builtin::is_thread_id(n) || kernel.is_local(n))
    {
        return Err(EvalError::BadInstance(format!(
            "`{name}` is thread-local, not a thread-global value"
        )));
    }
    Ok(env)
}

/// Thread `t`'s own values with defaults filled in, checked for range.
fn thread_env(
    kernel: &Kernel,
    inst: &Instance,
    t: usize,
    globals: &BTreeMap<String, i64>,
) -> Result<BTreeMap<String, i64>, EvalError> {
    let mut env = inst.threads[t].clone();
    if let Some(name) = env.keys().find(|n| globals.contains_key(*n)) {
        return Err(EvalError::BadInstance(format!(
            "thread {t} gives a value to thread-global `{name}`"
        )));
    }
    for (ids, dims) in [
        (&builtin::TID, &builtin::BLOCK_DIM),
        (&builtin::BID, &builtin::GRID_DIM),
    ] {
        for (id, dim) in ids.iter().zip(dims.iter()) {
            let v = *env.entry(id.to_string()).or_insert(0);
            let bound = globals[*dim];
            if !(0..bound).contains(&v) {
                return Err(EvalError::BadInstance(format!(
                    "thread {t} has {id} = {v}, outside 0..{dim} = 0..{bound}"
                )));
            }
        }
    }
    for name in &kernel.locals {
        env.entry(name.clone()).or_insert(0);
    }
    Ok(env)
}

fn check_distinct(inst: &Instance) -> Result<(), EvalError> {
    let mut seen = HashMap::new();
    for t in 0..inst.threads.len() {
        if let Some(other) = seen.insert((inst.block(t), inst.tid(t)), t) {
            return Err(EvalError::BadInstance(format!(
                "threads {other} and {t} have the same block and thread ids"
            )));
        }
    }
    Ok(())
}

/// Assumptions over thread-global names are checked once; those mentioning a
/// thread's own names, for every thread.
fn check_assumptions(
    kernel: &Kernel,
    globals: &BTreeMap<String, i64>,
    threads: &[BTreeMap<String, i64>],
) -> Result<(), EvalError> {
    for (i, assume) in kernel.assumes.iter().enumerate() {
        let mut vars = BTreeSet::new();
        assume.free_vars(&mut vars);
        if vars.iter().all(|v| globals.contains_key(v)) {
            if !eval_cond(assume, &|v| globals.get(v).copied())? {
                return Err(EvalError::AssumptionFalse {
                    assumption: i,
                    thread: None,
                });
            }
            continue;
        }
        for (t, locals) in threads.iter().enumerate() {
            let lookup = |v: &str| locals.get(v).or_else(|| globals.get(v)).copied();
            if !eval_cond(assume, &lookup)? {
                return Err(EvalError::AssumptionFalse {
                    assumption: i,
                    thread: Some(t),
                });
            }
        }
    }
    Ok(())
}

/// Threads of one warp must pass the same barriers in the same order,
/// threads of one block the same block and grid barriers, and every thread
/// the same grid barriers.
fn check_barriers(inst: &Instance, barriers: &[Vec<(Loc, Barrier)>]) -> Result<(), EvalError> {
    let mut first_of_block: HashMap<[i64; 3], usize> = HashMap::new();
    let mut first_of_warp: HashMap<([i64; 3], i64), usize> = HashMap::new();
    let of = |t: usize, kinds: &[Barrier]| {
        barriers[t]
            .iter()
            .filter(|b| kinds.contains(&b.1))
            .collect::<Vec<_>>()
    };
    const ALL: [Barrier; 3] = [Barrier::Warp, Barrier::Block, Barrier::Grid];
    for t in 0..barriers.len() {
        let first = *first_of_block.entry(inst.block(t)).or_insert(t);
        let lane = *first_of_warp
            .entry((inst.block(t), inst.warp(t)))
            .or_insert(t);
        // The first thread of each warp stands for its warp's barriers, the
        // first of each block for its block's; thread 0 for the grid's.
        let (other_thread, seq, other) = if lane != t {
            (lane, of(t, &ALL), of(lane, &ALL))
        } else if first != t {
            let block = [Barrier::Block, Barrier::Grid];
            (first, of(t, &block), of(first, &block))
        } else {
            (0, of(t, &[Barrier::Grid]), of(0, &[Barrier::Grid]))
        };
        if seq != other {
            let k = seq.iter().zip(&other).take_while(|(a, b)| a == b).count();
            let loc = seq.get(k).or(other.get(k)).map_or(Loc::NONE, |b| b.0);
            return Err(EvalError::Divergence {
                loc,
                threads: (other_thread, t),
            });
        }
    }
    Ok(())
}

/// The kind of a barrier a thread passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Barrier {
    Warp,
    Block,
    Grid,
}

struct Env<'a> {
    globals: &'a BTreeMap<String, i64>,
    locals: &'a BTreeMap<String, i64>,
    /// Enclosing loop variables, innermost last.
    loops: Vec<(String, i64)>,
}

impl Env<'_> {
    fn get(&self, name: &str) -> Option<i64> {
        self.loops
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
            .or_else(|| self.locals.get(name).copied())
            .or_else(|| self.globals.get(name).copied())
    }
}

/// One thread's execution of the protocol.
struct Thread<'a> {
    env: Env<'a>,
    thread: usize,
    /// The barriers passed, each with its kind.
    barriers: Vec<(Loc, Barrier)>,
    /// How many of them are block or grid barriers, and grid barriers.
    phase: usize,
    grid_phase: usize,
    out: &'a mut Vec<AccessValue>,
    steps: &'a mut u64,
    budget: u64,
    issued: Issued,
    /// The accesses whose values are wanted (a replay's two), when not all
    /// are: the others are stepped over unevaluated.
    only: Option<[u32; 2]>,
    /// For each loop met so far, whether its body leaves its variable
    /// unmentioned (see [`Issued::Distinct`]), by the loop's address.
    loops_without_var: HashMap<*const Stmt, bool>,
}

impl Thread<'_> {
    fn step(&mut self) -> Result<(), EvalError> {
        *self.steps += 1;
        if *self.steps > self.budget {
            Err(EvalError::Budget)
        } else {
            Ok(())
        }
    }

    fn expr(&self, e: &Expr) -> Result<i64, EvalError> {
        eval_expr(e, &|v| self.env.get(v))
    }

    fn exec(&mut self, stmt: &Stmt) -> Result<(), EvalError> {
        match stmt {
            Stmt::Skip => {}
            Stmt::Access(a) => {
                self.step()?;
                if self.only.is_some_and(|ids| !ids.contains(&a.id)) {
                    return Ok(());
                }
                let index = a
                    .index
                    .iter()
                    .map(|e| self.expr(e))
                    .collect::<Result<_, _>>()?;
                self.out.push(AccessValue {
                    thread: self.thread,
                    id: a.id,
                    mode: a.mode,
                    index,
                    phase: self.phase,
                    grid_phase: self.grid_phase,
                    warp_phase: self.barriers.len(),
                });
            }
            Stmt::Sync(loc) => {
                self.barriers.push((*loc, Barrier::Block));
                self.phase += 1;
            }
            Stmt::GridSync(loc) => {
                self.barriers.push((*loc, Barrier::Grid));
                self.phase += 1;
                self.grid_phase += 1;
            }
            Stmt::WarpSync(loc) => self.barriers.push((*loc, Barrier::Warp)),
            Stmt::Seq(items) => {
                for s in items {
                    self.exec(s)?;
                }
            }
            Stmt::If {
                cond, then, els, ..
            } => {
                if eval_cond(cond, &|v| self.env.get(v))? {
                    self.exec(then)?;
                } else {
                    self.exec(els)?;
                }
            }
            Stmt::For {
                var, lo, hi, body, ..
            } => {
                let (lo, mut hi) = (self.expr(lo)?, self.expr(hi)?);
                if self.issued == Issued::Distinct && hi > lo + 1 {
                    let once = *self
                        .loops_without_var
                        .entry(stmt as *const Stmt)
                        .or_insert_with(|| {
                            let mut mentioned = BTreeSet::new();
                            body.free_vars(&mut mentioned);
                            !body.has_sync() && !body.has_warp_sync() && !mentioned.contains(var)
                        });
                    if once {
                        hi = lo + 1;
                    }
                }
                // An empty range runs zero times, synchronized or not.
                for i in lo..hi {
                    self.step()?;
                    self.env.loops.push((var.clone(), i));
                    let r = self.exec(body);
                    self.env.loops.pop();
                    r?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Access, Rel};

    const BUDGET: u64 = 100_000;

    fn var(v: &str) -> Expr {
        Expr::var(v)
    }
    fn int(n: i64) -> Expr {
        Expr::Int(n)
    }
    fn tid() -> Expr {
        var("tid.x")
    }
    fn acc(id: u32, mode: Mode, index: Expr) -> Stmt {
        Stmt::Access(Access {
            lock: None,
            id,
            mode,
            index: vec![index],
            loc: Loc::new(id + 1, 1),
            value: None,
        })
    }
    fn sync(line: u32) -> Stmt {
        Stmt::Sync(Loc::new(line, 1))
    }
    fn for_(v: &str, lo: Expr, hi: Expr, body: Stmt) -> Stmt {
        Stmt::For {
            var: v.into(),
            lo,
            hi,
            body: Box::new(body),
            loc: Loc::NONE,
        }
    }
    fn if_(cond: Cond, then: Stmt) -> Stmt {
        Stmt::If {
            cond,
            then: Box::new(then),
            els: Box::new(Stmt::Skip),
            loc: Loc::NONE,
        }
    }
    fn kernel(params: &[&str], locals: &[&str]) -> Kernel {
        Kernel {
            name: "k".into(),
            params: params.iter().map(|p| p.to_string()).collect(),
            locals: locals.iter().map(|p| p.to_string()).collect(),
            ..Kernel::default()
        }
    }
    fn array(scope: Scope, body: Stmt) -> ArrayProtocol {
        ArrayProtocol {
            name: "tile".into(),
            scope,
            body,
            loc: Loc::NONE,
        }
    }
    /// Threads 0 and 1 of block 0, `blockDim.x = 2`.
    fn two_threads() -> Instance {
        Instance::default()
            .global("blockDim.x", 2)
            .thread([0; 3], [0, 0, 0])
            .thread([0; 3], [1, 0, 0])
    }

    /// Listing 2.2: for j in 0..M {rd[tid+j]}; for i in 0..M {wr[tid]}
    fn listing_2_2() -> ArrayProtocol {
        array(
            Scope::Shared,
            Stmt::seq(vec![
                for_(
                    "j",
                    int(0),
                    var("M"),
                    acc(0, Mode::Read, Expr::add(tid(), var("j"))),
                ),
                for_("i", int(0), var("M"), acc(1, Mode::Write, tid())),
            ]),
        )
    }

    /// Listing 2.3: for r in 0..N { for i in 0..M {wr[tid]}; sync; for j in 0..M {rd[tid+j]}; [sync] }
    fn listing_2_3(trailing_sync: bool) -> ArrayProtocol {
        let mut body = vec![
            for_("i", int(0), var("M"), acc(0, Mode::Write, tid())),
            sync(3),
            for_(
                "j",
                int(0),
                var("M"),
                acc(1, Mode::Read, Expr::add(tid(), var("j"))),
            ),
        ];
        if trailing_sync {
            body.push(sync(5));
        }
        array(Scope::Shared, for_("r", int(0), var("N"), Stmt::seq(body)))
    }

    #[test]
    fn an_index_with_fewer_dimensions_meets_the_cells_it_covers() {
        // Thread 0 reads the whole structure `s[tid]`, thread 1 writes a
        // field's element `s[tid - 1][2]`: the same structure.
        let k = kernel(&[], &[]);
        let p = array(
            Scope::Shared,
            Stmt::seq(vec![
                if_(Cond::cmp(Rel::Eq, tid(), int(0)), acc(0, Mode::Read, tid())),
                if_(
                    Cond::cmp(Rel::Eq, tid(), int(1)),
                    Stmt::Access(Access {
                        lock: None,
                        id: 1,
                        mode: Mode::Write,
                        index: vec![Expr::sub(tid(), int(1)), int(2)],
                        loc: Loc::new(2, 1),
                        value: None,
                    }),
                ),
            ]),
        );
        assert!(!is_drf(&k, &p, &two_threads(), BUDGET).unwrap());
        assert!(replay(&k, &p, &two_threads(), (0, 1), &[0, 2], BUDGET).unwrap());
        assert!(same_cell(&[3], &[3, 7]) && !same_cell(&[3, 1], &[3, 2]));
    }

    #[test]
    fn listing_2_2_is_racy_iff_m_at_least_2() {
        let k = kernel(&["M"], &[]);
        let p = listing_2_2();
        for m in 0..4 {
            let inst = two_threads().global("M", m);
            assert_eq!(is_drf(&k, &p, &inst, BUDGET), Ok(m < 2), "M = {m}");
        }
        let inst = two_threads().global("M", 2);
        let values = run(&k, &p, &inst, BUDGET).unwrap();
        let races = races(p.scope, &inst, &values);
        // rd[0 + 1] of thread 0 against both iterations of wr[1] of thread 1.
        assert_eq!(races.len(), 2);
        for (a, b) in races {
            assert_eq!(
                (a.thread, a.id, b.thread, b.id, a.index.clone()),
                (0, 0, 1, 1, vec![1])
            );
        }
        assert_eq!(replay(&k, &p, &inst, (0, 1), &[1], BUDGET), Ok(true));
        assert_eq!(replay(&k, &p, &inst, (1, 0), &[1], BUDGET), Ok(false));
        assert_eq!(replay(&k, &p, &inst, (0, 1), &[0], BUDGET), Ok(false));
    }

    fn erase_warp(s: &Stmt) -> Stmt {
        crate::protocol::wf::erase_warp_barriers(s)
    }

    #[test]
    fn warp_barriers_order_lanes_of_one_warp_only() {
        // wr[tid]; warp_sync; rd[tid ^ 1] (neighbour lanes) and rd[tid + 32]
        // (the next warp) in a block of 64.
        let k = kernel(&[], &[]);
        let p = array(
            Scope::Shared,
            Stmt::seq(vec![
                acc(0, Mode::Write, tid()),
                Stmt::WarpSync(Loc::new(2, 1)),
                acc(1, Mode::Read, Expr::bin(Op::BitXor, tid(), int(1))),
                acc(
                    2,
                    Mode::Read,
                    Expr::bin(Op::Mod, Expr::add(tid(), int(32)), int(64)),
                ),
            ]),
        );
        let pair = |a: i64, b: i64| {
            Instance::default()
                .global("blockDim.x", 64)
                .thread([0; 3], [a, 0, 0])
                .thread([0; 3], [b, 0, 0])
        };
        let lanes = pair(0, 1);
        assert_eq!(lanes.warp(0), lanes.warp(1));
        assert_eq!(replay(&k, &p, &lanes, (1, 0), &[1], BUDGET), Ok(false));
        let unordered = array(Scope::Shared, erase_warp(&p.body));
        assert_eq!(
            replay(&k, &unordered, &lanes, (1, 0), &[1], BUDGET),
            Ok(true)
        );
        let warps = pair(0, 32);
        assert_ne!(warps.warp(0), warps.warp(1));
        assert_eq!(replay(&k, &p, &warps, (2, 0), &[32], BUDGET), Ok(true));
        // Lanes of one warp must pass the same warp barriers.
        let split = array(
            Scope::Shared,
            if_(
                Cond::cmp(Rel::Lt, tid(), int(1)),
                Stmt::WarpSync(Loc::new(3, 1)),
            ),
        );
        assert!(matches!(
            run(&k, &split, &lanes, BUDGET),
            Err(EvalError::Divergence { .. })
        ));
        let split = array(
            Scope::Shared,
            if_(
                Cond::cmp(Rel::Lt, tid(), int(32)),
                Stmt::WarpSync(Loc::new(3, 1)),
            ),
        );
        assert!(run(&k, &split, &warps, BUDGET).is_ok());
    }

    #[test]
    fn replay_runs_a_loop_that_repeats_itself_once() {
        // `for i < N { for j < N { wr[tid] } }`, as a reduction into one
        // cell per thread reads: the inner body never mentions `j`.
        let k = kernel(&["N"], &[]);
        let repeated = array(
            Scope::Shared,
            for_(
                "i",
                int(0),
                var("N"),
                for_("j", int(0), var("N"), acc(0, Mode::Write, var("i"))),
            ),
        );
        let inst = two_threads().global("N", 10_000);
        // A hundred million steps when run as written.
        assert_eq!(run(&k, &repeated, &inst, BUDGET), Err(EvalError::Budget));
        assert_eq!(replay(&k, &repeated, &inst, (0, 0), &[5], BUDGET), Ok(true));
        assert_eq!(is_drf(&k, &repeated, &inst, BUDGET), Ok(false));
        // The outer loop mentions `i`, and a barrier keeps a loop whole: its
        // iterations are phases.
        let synced = array(
            Scope::Shared,
            for_(
                "i",
                int(0),
                var("N"),
                Stmt::seq(vec![acc(0, Mode::Write, int(0)), sync(2)]),
            ),
        );
        let inst = two_threads().global("N", 3);
        let values = run(&k, &synced, &inst, BUDGET).unwrap();
        assert!(replay(&k, &synced, &inst, (0, 0), &[0], BUDGET).unwrap());
        assert_eq!(values.iter().filter(|v| v.thread == 0).count(), 3);
        let inst = two_threads().global("N", BUDGET as i64);
        assert_eq!(
            replay(&k, &synced, &inst, (0, 0), &[0], BUDGET),
            Err(EvalError::Budget)
        );
    }

    #[test]
    fn listing_2_3_is_racy_iff_n_at_least_2() {
        let k = kernel(&["N", "M"], &[]);
        let p = listing_2_3(false);
        for n in 0..4 {
            let inst = two_threads().global("N", n).global("M", 2);
            assert_eq!(is_drf(&k, &p, &inst, BUDGET), Ok(n < 2), "N = {n}");
        }
        // The read of iteration r races with the write of iteration r + 1:
        // both in phase r + 1.
        let inst = two_threads().global("N", 2).global("M", 2);
        assert_eq!(replay(&k, &p, &inst, (1, 0), &[1], BUDGET), Ok(true));
        let values = run(&k, &p, &inst, BUDGET).unwrap();
        assert!(races(p.scope, &inst, &values)
            .iter()
            .all(|(a, b)| a.phase == 1 && b.phase == 1));
    }

    #[test]
    fn listing_2_3_with_trailing_sync_is_drf() {
        let k = kernel(&["N", "M"], &[]);
        let p = listing_2_3(true);
        for (n, m) in [(0, 2), (1, 2), (2, 2), (3, 3)] {
            let inst = two_threads().global("N", n).global("M", m);
            assert_eq!(is_drf(&k, &p, &inst, BUDGET), Ok(true), "N = {n}, M = {m}");
        }
    }

    #[test]
    fn empty_synchronized_loop_joins_code_around_it() {
        // wr[tid]; for r in 0..N { sync }; rd[tid + 1]
        let k = kernel(&["N"], &[]);
        let p = array(
            Scope::Shared,
            Stmt::seq(vec![
                acc(0, Mode::Write, tid()),
                for_("r", int(0), var("N"), sync(2)),
                acc(1, Mode::Read, Expr::add(tid(), int(1))),
            ]),
        );
        assert_eq!(
            is_drf(&k, &p, &two_threads().global("N", 0), BUDGET),
            Ok(false)
        );
        assert_eq!(
            is_drf(&k, &p, &two_threads().global("N", 1), BUDGET),
            Ok(true)
        );
    }

    /// Fig. 16: `x` is read from the array, so the protocol sees a
    /// thread-local unknown.
    #[test]
    fn read_index_protocols() {
        let k = kernel(&[], &["x"]);
        let prefix = || vec![acc(0, Mode::Write, tid()), acc(1, Mode::Read, tid())];
        let racy = array(
            Scope::Shared,
            Stmt::seq(
                [
                    prefix(),
                    vec![acc(2, Mode::Write, Expr::add(var("x"), int(1)))],
                ]
                .concat(),
            ),
        );
        let drf = array(
            Scope::Shared,
            Stmt::seq([prefix(), vec![acc(2, Mode::Write, var("x"))]].concat()),
        );
        // The kernels store tid into A[tid], so x = tid.
        let as_kernel = Instance::default()
            .global("blockDim.x", 2)
            .thread([0; 3], [0; 3])
            .local("x", 0)
            .thread([0; 3], [1, 0, 0])
            .local("x", 1);
        assert_eq!(is_drf(&k, &racy, &as_kernel, BUDGET), Ok(false));
        assert_eq!(
            replay(&k, &racy, &as_kernel, (2, 0), &[1], BUDGET),
            Ok(true)
        );
        assert_eq!(is_drf(&k, &drf, &as_kernel, BUDGET), Ok(true));
        // The protocol abstracts the values away: x = 0 in both threads races.
        let same = two_threads();
        assert_eq!(is_drf(&k, &drf, &same, BUDGET), Ok(false));
        assert_eq!(replay(&k, &drf, &same, (2, 2), &[0], BUDGET), Ok(true));
    }

    #[test]
    fn divergent_barrier_is_detected() {
        // if tid < 1 { sync }
        let k = kernel(&[], &[]);
        let p = array(
            Scope::Shared,
            if_(Cond::cmp(Rel::Lt, tid(), int(1)), sync(7)),
        );
        assert_eq!(
            run(&k, &p, &two_threads(), BUDGET),
            Err(EvalError::Divergence {
                loc: Loc::new(7, 1),
                threads: (0, 1)
            })
        );
        // Threads of different blocks need not agree.
        let apart = Instance::default()
            .global("gridDim.x", 2)
            .thread([0; 3], [0; 3])
            .thread([1, 0, 0], [0; 3]);
        assert!(run(&k, &p, &apart, BUDGET).is_ok());
        // for i in 0..tid { sync }: same count needed.
        let p = array(Scope::Shared, for_("i", int(0), tid(), sync(4)));
        assert!(matches!(
            run(&k, &p, &two_threads(), BUDGET),
            Err(EvalError::Divergence { .. })
        ));
        // Same count, different barriers: if tid == 0 { sync } else { sync }.
        let p = array(
            Scope::Shared,
            Stmt::If {
                cond: Cond::cmp(Rel::Eq, tid(), int(0)),
                then: Box::new(sync(2)),
                els: Box::new(sync(3)),
                loc: Loc::NONE,
            },
        );
        assert_eq!(
            run(&k, &p, &two_threads(), BUDGET),
            Err(EvalError::Divergence {
                loc: Loc::new(3, 1),
                threads: (0, 1)
            })
        );
    }

    #[test]
    fn atomics_race_only_with_plain_accesses() {
        let k = kernel(&[], &[]);
        let atomics = array(Scope::Shared, acc(0, Mode::Atomic, int(0)));
        assert_eq!(is_drf(&k, &atomics, &two_threads(), BUDGET), Ok(true));
        let mixed = array(
            Scope::Shared,
            Stmt::seq(vec![
                acc(0, Mode::Atomic, int(0)),
                if_(
                    Cond::cmp(Rel::Eq, tid(), int(1)),
                    acc(1, Mode::Read, int(0)),
                ),
            ]),
        );
        assert_eq!(is_drf(&k, &mixed, &two_threads(), BUDGET), Ok(false));
        assert_eq!(
            replay(&k, &mixed, &two_threads(), (0, 1), &[0], BUDGET),
            Ok(true)
        );
        let reads = array(Scope::Shared, acc(0, Mode::Read, int(0)));
        assert_eq!(is_drf(&k, &reads, &two_threads(), BUDGET), Ok(true));
    }

    #[test]
    fn barriers_do_not_order_threads_of_different_blocks() {
        // wr[tid]; sync; rd[tid + 1]
        let k = kernel(&[], &[]);
        let body = Stmt::seq(vec![
            acc(0, Mode::Write, tid()),
            sync(2),
            acc(1, Mode::Read, Expr::add(tid(), int(1))),
        ]);
        let apart = Instance::default()
            .global("blockDim.x", 2)
            .global("gridDim.x", 2)
            .thread([0; 3], [1, 0, 0])
            .thread([1, 0, 0], [0; 3]);
        let global = array(Scope::Global, body.clone());
        assert_eq!(is_drf(&k, &global, &apart, BUDGET), Ok(false));
        assert_eq!(replay(&k, &global, &apart, (0, 1), &[1], BUDGET), Ok(true));
        // One block: the barrier orders them.
        let together = two_threads().global("gridDim.x", 2);
        assert_eq!(is_drf(&k, &global, &together, BUDGET), Ok(true));
        // Shared memory is per block: different blocks never meet.
        let shared = array(Scope::Shared, body);
        assert_eq!(is_drf(&k, &shared, &apart, BUDGET), Ok(true));
        assert_eq!(replay(&k, &shared, &apart, (0, 1), &[1], BUDGET), Ok(false));
    }

    #[test]
    fn multi_dimensional_indices_must_agree_everywhere() {
        let k = kernel(&[], &[]);
        let a = |id, mode, i: Expr, j: Expr| {
            Stmt::Access(Access {
                lock: None,
                id,
                mode,
                index: vec![i, j],
                loc: Loc::NONE,
                value: None,
            })
        };
        let p = array(
            Scope::Shared,
            Stmt::seq(vec![
                a(0, Mode::Write, int(0), tid()),
                a(1, Mode::Read, int(0), int(1)),
            ]),
        );
        assert_eq!(is_drf(&k, &p, &two_threads(), BUDGET), Ok(false));
        assert_eq!(
            replay(&k, &p, &two_threads(), (1, 0), &[0, 1], BUDGET),
            Ok(true)
        );
        let q = array(
            Scope::Shared,
            Stmt::seq(vec![
                a(0, Mode::Write, int(0), tid()),
                a(1, Mode::Read, int(1), int(1)),
            ]),
        );
        assert_eq!(is_drf(&k, &q, &two_threads(), BUDGET), Ok(true));
    }

    #[test]
    fn budget_is_enforced() {
        let k = kernel(&["N"], &[]);
        let p = array(
            Scope::Shared,
            for_("i", int(0), var("N"), acc(0, Mode::Write, tid())),
        );
        let inst = two_threads().global("N", 1_000_000_000);
        assert_eq!(run(&k, &p, &inst, 1000), Err(EvalError::Budget));
        // 2 threads × (3 iterations + 3 accesses) = 12 steps.
        let inst = two_threads().global("N", 3);
        assert!(run(&k, &p, &inst, 12).is_ok());
        assert_eq!(run(&k, &p, &inst, 11), Err(EvalError::Budget));
    }

    #[test]
    fn assumptions_are_checked() {
        let mut k = kernel(&["N"], &["x"]);
        k.assumes = vec![
            Cond::cmp(Rel::Gt, var("N"), int(5)),
            Cond::cmp(Rel::Lt, Expr::add(tid(), var("x")), int(1)),
        ];
        let p = array(Scope::Shared, acc(0, Mode::Write, int(0)));
        let err = run(&k, &p, &two_threads().global("N", 2), BUDGET).unwrap_err();
        assert_eq!(
            err,
            EvalError::AssumptionFalse {
                assumption: 0,
                thread: None
            }
        );
        assert_eq!(err.to_string(), "assumption #1 does not hold");
        let err = run(&k, &p, &two_threads().global("N", 6), BUDGET).unwrap_err();
        assert_eq!(
            err,
            EvalError::AssumptionFalse {
                assumption: 1,
                thread: Some(1)
            }
        );
        let one = Instance::default().global("N", 6).thread([0; 3], [0; 3]);
        assert_eq!(run(&k, &p, &one, BUDGET).map(|v| v.len()), Ok(1));
    }

    #[test]
    fn instances_are_validated() {
        let k = kernel(&["N"], &["x"]);
        let p = array(Scope::Shared, acc(0, Mode::Write, var("y")));
        let bad =
            |inst: Instance| matches!(run(&k, &p, &inst, BUDGET), Err(EvalError::BadInstance(_)));
        // tid.x = 1 with the default blockDim.x = 1.
        assert!(bad(Instance::default().thread([0; 3], [1, 0, 0])));
        assert!(bad(Instance::default()
            .global("gridDim.x", 2)
            .thread([2, 0, 0], [0; 3])));
        assert!(bad(Instance::default().global("blockDim.y", 0)));
        assert!(bad(Instance::default().global("N", -1)));
        assert!(bad(Instance::default().global("x", 1)));
        assert!(bad(Instance::default()
            .thread([0; 3], [0; 3])
            .local("N", 1)));
        assert!(bad(two_threads().thread([0; 3], [1, 0, 0])));
        assert!(matches!(
            replay(&k, &p, &Instance::default(), (0, 0), &[0], BUDGET),
            Err(EvalError::BadInstance(_))
        ));
        assert_eq!(
            run(&k, &p, &Instance::default().thread([0; 3], [0; 3]), BUDGET),
            Err(EvalError::Unbound("y".into()))
        );
    }

    #[test]
    fn arithmetic_matches_smt_lib() {
        assert_eq!(arith(Op::Div, -7, 2), Ok(-4));
        assert_eq!(arith(Op::Mod, -7, 2), Ok(1));
        assert_eq!(arith(Op::Div, 7, -2), Ok(-3));
        assert_eq!(arith(Op::Mod, 7, -2), Ok(1));
        assert_eq!(arith(Op::Div, -7, -2), Ok(4));
        assert_eq!(arith(Op::Mod, -7, -2), Ok(1));
        assert_eq!(arith(Op::Div, 5, 0), Ok(0));
        assert_eq!(arith(Op::Mod, 5, 0), Ok(5));
        assert_eq!(arith(Op::Mod, i64::MIN, -1), Ok(0));
        assert!(matches!(
            arith(Op::Div, i64::MIN, -1),
            Err(EvalError::Overflow(_))
        ));
        assert!(matches!(
            arith(Op::Add, i64::MAX, 1),
            Err(EvalError::Overflow(_))
        ));
        assert!(matches!(
            arith(Op::Mul, i64::MAX, 2),
            Err(EvalError::Overflow(_))
        ));
        assert_eq!(arith(Op::Shl, 3, 4), Ok(48));
        assert_eq!(arith(Op::Shl, -3, 1), Ok(-6));
        assert_eq!(arith(Op::Shl, 0, 500), Ok(0));
        assert!(matches!(arith(Op::Shl, 1, 63), Err(EvalError::Overflow(_))));
        assert!(matches!(arith(Op::Shl, 1, -1), Err(EvalError::Overflow(_))));
        assert_eq!(arith(Op::Shr, -7, 1), Ok(-4));
        assert_eq!(arith(Op::Shr, 7, 100), Ok(0));
        assert_eq!(arith(Op::Shr, -7, 100), Ok(-1));
        assert_eq!(arith(Op::BitAnd, -1, 6), Ok(6));
        assert_eq!(arith(Op::BitOr, 4, 1), Ok(5));
        assert_eq!(arith(Op::BitXor, 6, 3), Ok(5));
        assert_eq!(arith(Op::Min, -2, 3), Ok(-2));
        assert_eq!(arith(Op::Max, -2, 3), Ok(3));
        let e = Expr::Ite(
            Box::new(Cond::cmp(Rel::Ge, var("a"), int(0))),
            Box::new(var("a")),
            Box::new(int(9)),
        );
        assert_eq!(eval_expr(&e, &|v| (v == "a").then_some(-1)), Ok(9));
        let overflow = array(
            Scope::Shared,
            acc(0, Mode::Write, Expr::add(var("N"), int(i64::MAX))),
        );
        let inst = Instance::default().global("N", 1).thread([0; 3], [0; 3]);
        assert!(matches!(
            run(&kernel(&["N"], &[]), &overflow, &inst, BUDGET),
            Err(EvalError::Overflow(_))
        ));
    }

    /// `wr[bid.x]; <barrier>; rd[1 - bid.x]` on global memory, by thread 0
    /// of blocks 0 and 1.
    fn publish_then_read(barrier: Stmt) -> (ArrayProtocol, Instance) {
        let bid = var("bid.x");
        let p = array(
            Scope::Global,
            Stmt::seq(vec![
                acc(0, Mode::Write, bid.clone()),
                barrier,
                acc(1, Mode::Read, Expr::sub(int(1), bid)),
            ]),
        );
        let inst = Instance::default()
            .global("gridDim.x", 2)
            .thread([0; 3], [0; 3])
            .thread([1, 0, 0], [0; 3]);
        (p, inst)
    }

    #[test]
    fn grid_barriers_order_blocks_and_block_barriers_do_not() {
        let k = kernel(&[], &[]);
        let (grid, inst) = publish_then_read(Stmt::GridSync(Loc::new(2, 1)));
        assert_eq!(is_drf(&k, &grid, &inst, BUDGET), Ok(true));
        let (block, inst) = publish_then_read(sync(2));
        assert_eq!(is_drf(&k, &block, &inst, BUDGET), Ok(false));
        assert_eq!(replay(&k, &block, &inst, (0, 1), &[0], BUDGET), Ok(true));
    }

    #[test]
    fn a_grid_barrier_some_blocks_skip_is_divergence() {
        let k = kernel(&[], &[]);
        let skipped = if_(
            Cond::cmp(Rel::Eq, var("bid.x"), int(0)),
            Stmt::GridSync(Loc::new(4, 1)),
        );
        let (p, inst) = publish_then_read(skipped);
        assert!(matches!(
            run(&k, &p, &inst, BUDGET),
            Err(EvalError::Divergence {
                threads: (0, 1),
                ..
            })
        ));
    }
}
