//! From a well-formed protocol to symbolic traces (Faial §4, Fig. 6–8):
//! `align` (shown to users), `split` into barrier intervals, and `seq` into
//! one two-thread trace per interval, each with a content hash.

pub mod align;
pub mod recompose;
pub mod seq;
pub mod split;

use crate::protocol::wf::{self, Divergence, Unsync};
use crate::protocol::{builtin, ArrayProtocol, Cond, Expr, Kernel, Loc, Mode, Op, Rel, Scope};
use seq::Warps;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A synchronized-loop variable closing over an interval: `var in lo..hi`,
/// shared by both threads.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Binder {
    pub var: String,
    pub lo: Expr,
    pub hi: Expr,
}

impl Binder {
    /// `lo <= var && var < hi`.
    pub fn range(&self) -> Cond {
        let x = Expr::var(&self.var);
        Cond::and(
            Cond::cmp(Rel::Le, self.lo.clone(), x.clone()),
            Cond::cmp(Rel::Lt, x, self.hi.clone()),
        )
    }
}

/// One barrier interval: the code one thread runs between two consecutive
/// barriers (a protocol closure, 𝒞 in Fig. 8), under thread-global
/// conditions (non-empty or empty loop ranges, synchronized-conditional
/// guards).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Interval {
    pub binders: Vec<Binder>,
    pub cond: Cond,
    pub code: Unsync,
    /// The barrier that opens the interval; `None` at kernel start.
    pub start: Option<Loc>,
    /// The barrier that closes it; `None` at kernel end.
    pub end: Option<Loc>,
}

/// Every two-thread trace of `array`: one per barrier interval for threads
/// of one block and, for global memory unless `block_level`, the traces of
/// threads of different blocks, which only grid barriers order (without
/// any, the whole protocol is one interval). Barrier divergence, of the
/// block or of the grid, is the error.
pub fn traces(
    kernel: &Kernel,
    array: &ArrayProtocol,
    block_level: bool,
) -> Result<Vec<Trace>, Divergence> {
    let mut traces = Vec::new();
    let warp_barriers = array.body.has_warp_sync();
    // Under lockstep, lanes of a warp need no warp barrier to be ordered.
    let across = if warp_barriers {
        &ArrayProtocol {
            body: wf::erase_warp_barriers(&array.body),
            ..array.clone()
        }
    } else {
        array
    };
    let wf = wf::well_formed(kernel, across)?;
    for iv in &split::split(&wf) {
        let trace = seq::seq(kernel, across, iv, Pairing::SameBlock);
        match kernel.warp_sync {
            None if warp_barriers => {
                let size = builtin::WARP_SIZE as u32;
                traces.push(seq::in_warps(trace, size, Warps::Different));
            }
            None => traces.push(trace),
            Some(size) => {
                traces.push(seq::in_warps(trace.clone(), size, Warps::Different));
                traces.push(seq::in_warps(trace, size, Warps::Lockstep));
            }
        }
    }
    // Two lanes of one warp: its barriers order them too.
    if warp_barriers && kernel.warp_sync.is_none() {
        let wf = wf::well_formed_warp(kernel, array)?;
        for iv in &split::split(&wf) {
            let trace = seq::seq(kernel, array, iv, Pairing::SameBlock);
            traces.push(seq::in_warps(trace, builtin::WARP_SIZE as u32, Warps::Same));
        }
    }
    if array.scope == Scope::Global && !block_level {
        let intervals = if array.body.has_grid_sync() {
            split::split(&wf::well_formed_grid(kernel, array)?)
        } else {
            vec![Interval {
                binders: Vec::new(),
                cond: Cond::Bool(true),
                code: wf::erase_barriers(&array.body),
                start: None,
                end: None,
            }]
        };
        traces.extend(
            intervals
                .iter()
                .map(|iv| seq::seq(kernel, array, iv, Pairing::OtherBlock)),
        );
    }
    Ok(traces)
}

/// How many conditions one trace is split on ([`by_shared_choices`]).
const MAX_SHARED_CHOICES: usize = 2;

/// `trace` split on each choice in an index between two expressions by a
/// condition over values both threads share (`width == height ? bx : …`,
/// a flag parameter): one trace per way, with the condition assumed. Both
/// threads take the same way, so each index is one polynomial, which the
/// mixed-radix and congruence lemmas read; with the choice left in, the
/// solver has to find the split itself, and may give up on two proofs it
/// makes in milliseconds apart. `smt` asks the parts of a trace its first
/// attempt gave up on.
pub fn by_shared_choices(trace: Trace) -> Vec<Trace> {
    let mut done = vec![trace];
    for _ in 0..MAX_SHARED_CHOICES {
        let Some(c) = done.iter().find_map(shared_choice) else {
            break;
        };
        done = done
            .into_iter()
            .flat_map(|t| {
                [true, false].map(|way| {
                    let mut t = t.clone();
                    for a in t.accesses.iter_mut().flatten() {
                        *a = a.map_exprs(&|e| choose(e, &c, way));
                    }
                    t.assumptions
                        .push(if way { c.clone() } else { Cond::not(c.clone()) });
                    t
                })
            })
            .collect();
    }
    done
}

/// The condition of the first choice in an index of `trace` that only
/// shared values decide.
fn shared_choice(trace: &Trace) -> Option<Cond> {
    fn find(e: &Expr, shared: &dyn Fn(&Cond) -> bool) -> Option<Cond> {
        match e {
            Expr::Ite(c, _, _) if shared(c) => Some((**c).clone()),
            Expr::Ite(_, a, b) | Expr::Bin(_, a, b) => find(a, shared).or_else(|| find(b, shared)),
            Expr::Int(_) | Expr::Var(_) => None,
        }
    }
    let shared = |c: &Cond| {
        let mut vars = BTreeSet::new();
        c.free_vars(&mut vars);
        !vars.is_empty() && vars.iter().all(|v| trace.globals.contains(v))
    };
    trace
        .accesses
        .iter()
        .flatten()
        .flat_map(|a| a.index.iter())
        .find_map(|e| find(e, &shared))
}

/// `e` with each choice on `c` made the way `way` says.
fn choose(e: &Expr, c: &Cond, way: bool) -> Expr {
    match e {
        Expr::Ite(d, a, b) if **d == *c => choose(if way { a } else { b }, c, way),
        Expr::Ite(d, a, b) => Expr::Ite(
            Box::new(d.map_exprs(&|e| choose(e, c, way))),
            Box::new(choose(a, c, way)),
            Box::new(choose(b, c, way)),
        ),
        Expr::Bin(op, a, b) => Expr::bin(*op, choose(a, c, way), choose(b, c, way)),
        Expr::Int(_) | Expr::Var(_) => e.clone(),
    }
}

/// How many sizes one trace is split on ([`by_shared_divisors`]).
const MAX_SHARED_DIVISORS: usize = 2;

/// `trace` split on each never-negative value both threads share that
/// divides in it (`index / width`, `i % (w * h)`): one part where it is 0,
/// each quotient by it made 0 and each remainder the dividend (what `/ 0`
/// and `% 0` mean in every stage), and one where it is at least 1. The parts
/// together are the trace. With the divisor positive, the division and
/// mixed-radix lemmas hold outright; with zero left open, Z3 has to find
/// the split under every guarded quotient itself, and gave up on im2col's
/// index decomposition after a minute. `smt` asks the parts of a trace its
/// first attempt gave up on.
pub fn by_shared_divisors(trace: Trace) -> Vec<Trace> {
    let sizes = shared_divisors(&trace);
    let mut done = vec![trace];
    for v in sizes.iter().take(MAX_SHARED_DIVISORS) {
        done = done
            .into_iter()
            .flat_map(|t| {
                let mut zero = t.clone();
                let by_zero = |e: &Expr| divided_by_zero(e, v);
                for a in zero.accesses.iter_mut().flatten() {
                    *a = a.map_exprs(&by_zero);
                }
                for c in &mut zero.assumptions {
                    *c = c.map_exprs(&by_zero);
                }
                zero.assumptions
                    .push(Cond::cmp(Rel::Eq, Expr::var(v), Expr::Int(0)));
                let mut positive = t;
                positive
                    .assumptions
                    .push(Cond::cmp(Rel::Ge, Expr::var(v), Expr::Int(1)));
                [zero, positive]
            })
            .collect();
    }
    done
}

/// The shared variables of `trace` that are factors of a divisor and that
/// its assumptions bound below by 0 but not by 1, in order of appearance.
fn shared_divisors(trace: &Trace) -> Vec<String> {
    fn factors(d: &Expr, out: &mut Vec<String>) {
        match d {
            Expr::Var(v) if !out.contains(v) => out.push(v.clone()),
            Expr::Bin(Op::Mul, a, b) => {
                factors(a, out);
                factors(b, out);
            }
            _ => {}
        }
    }
    fn find(e: &Expr, out: &mut Vec<String>) {
        match e {
            Expr::Bin(op, a, b) => {
                if matches!(op, Op::Div | Op::Mod) {
                    factors(b, out);
                }
                find(a, out);
                find(b, out);
            }
            Expr::Ite(c, a, b) => {
                find_in(c, out);
                find(a, out);
                find(b, out);
            }
            Expr::Int(_) | Expr::Var(_) => {}
        }
    }
    fn find_in(c: &Cond, out: &mut Vec<String>) {
        match c {
            Cond::Cmp(_, a, b) => {
                find(a, out);
                find(b, out);
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                find_in(a, out);
                find_in(b, out);
            }
            Cond::Not(a) => find_in(a, out),
            Cond::Bool(_) | Cond::Forall { .. } => {}
        }
    }
    let mut found = Vec::new();
    for a in trace.accesses.iter().flatten() {
        let mut exprs: Vec<&Expr> = a.index.iter().collect();
        exprs.extend(a.loops.iter().flat_map(|b| [&b.lo, &b.hi]));
        for e in exprs {
            find(e, &mut found);
        }
        find_in(&a.path, &mut found);
    }
    let bound = |v: &str, k: i64| {
        trace.assumptions.iter().flat_map(Cond::conjuncts).any(|c| {
            matches!(c, Cond::Cmp(Rel::Ge, Expr::Var(x), Expr::Int(c)) if x == v && *c >= k)
                || matches!(c, Cond::Cmp(Rel::Le, Expr::Int(c), Expr::Var(x)) if x == v && *c >= k)
        })
    };
    found.retain(|v| trace.globals.contains(v) && bound(v, 0) && !bound(v, 1));
    found
}

/// `e` where `v` is 0: a quotient by a multiple of `v` is 0, a remainder
/// the dividend. A rewrite the walk misses (in a `Forall`'s body) is still
/// exact, since the part assumes `v == 0` and the encoding guards `/ 0`.
fn divided_by_zero(e: &Expr, v: &str) -> Expr {
    fn has_factor(d: &Expr, v: &str) -> bool {
        match d {
            Expr::Var(x) => x == v,
            Expr::Bin(Op::Mul, a, b) => has_factor(a, v) || has_factor(b, v),
            _ => false,
        }
    }
    match e {
        Expr::Bin(Op::Div, _, d) if has_factor(d, v) => Expr::Int(0),
        Expr::Bin(Op::Mod, x, d) if has_factor(d, v) => divided_by_zero(x, v),
        Expr::Bin(op, a, b) => Expr::bin(*op, divided_by_zero(a, v), divided_by_zero(b, v)),
        Expr::Ite(c, a, b) => Expr::Ite(
            Box::new(c.map_exprs(&|e| divided_by_zero(e, v))),
            Box::new(divided_by_zero(a, v)),
            Box::new(divided_by_zero(b, v)),
        ),
        Expr::Int(_) | Expr::Var(_) => e.clone(),
    }
}

/// Traces with fewer accesses per thread than this are not folded.
const FOLD_MIN_ACCESSES: usize = 24;

/// How many integer constants of one index may differ within a family.
const FOLD_MAX_PLACES: usize = 2;

/// `trace` with each family of one thread's accesses that differ only in
/// integer constants of their index (`RF[(q - 1) * n + gid]` for q in 1..206,
/// one access each after unrolling) made one access in a loop over each
/// constant that differs, from its least to its greatest value. Every
/// access of the family is one iteration of the loop, so the folded trace
/// has all the accesses of `trace` and maybe more: race free, it proves
/// `trace` race free; racy, it says nothing. Stored values are dropped
/// (a write of unknown value is never benign), which keeps that so. `None`
/// when nothing folds. Z3 gives up on hundreds of accesses that each need
/// their own case, where a loop is one digit of a mixed-radix index.
pub fn folded(trace: &Trace) -> Option<Trace> {
    folded_from(trace, FOLD_MIN_ACCESSES)
}

/// [`folded`] for traces where a thread has at least `min` accesses.
pub fn folded_from(trace: &Trace, min: usize) -> Option<Trace> {
    if trace.lockstep || trace.accesses.iter().all(|list| list.len() < min) {
        return None;
    }
    /// The index with each integer constant replaced by 0, and the constants.
    fn skeleton(e: &Expr, consts: &mut Vec<i64>) -> Expr {
        match e {
            Expr::Int(c) => {
                consts.push(*c);
                Expr::Int(0)
            }
            Expr::Var(_) => e.clone(),
            Expr::Bin(op, a, b) => Expr::Bin(
                *op,
                Box::new(skeleton(a, consts)),
                Box::new(skeleton(b, consts)),
            ),
            // Constants under a condition are left alone: the condition
            // would have to be folded too.
            Expr::Ite(..) => e.clone(),
        }
    }
    /// The skeleton with the constants `consts` put back, each place of
    /// `vars` taken by its loop variable.
    fn refill(
        e: &Expr,
        consts: &mut std::slice::Iter<i64>,
        vars: &mut dyn FnMut() -> Option<Expr>,
    ) -> Expr {
        match e {
            Expr::Int(_) => {
                let c = consts.next().copied().unwrap_or(0);
                vars().unwrap_or(Expr::Int(c))
            }
            Expr::Var(_) | Expr::Ite(..) => e.clone(),
            Expr::Bin(op, a, b) => {
                let a = refill(a, consts, vars);
                let b = refill(b, consts, vars);
                Expr::Bin(*op, Box::new(a), Box::new(b))
            }
        }
    }
    /// `a` with its loop variables named by their place: unrolled
    /// iterations of an outer loop put alike inner loops under names of
    /// their own (`j`, `j#3`).
    fn by_place(a: &TraceAccess) -> TraceAccess {
        let mut out = a.clone();
        for (i, b) in a.loops.iter().enumerate() {
            let to = format!("!place{i}");
            out = out.map_exprs(&|e| e.subst(&b.var, &Expr::var(&to)));
            out.loops[i].var = to;
        }
        out
    }
    let mut out = trace.clone();
    let mut fresh = 0usize;
    let mut changed = false;
    for (k, list) in trace.accesses.iter().enumerate() {
        // Families in order of their first access: the shape of their
        // index, their first access with loops named by place, their
        // members and the constants of each.
        type Family<'t> = (Vec<Expr>, TraceAccess, Vec<&'t TraceAccess>, Vec<Vec<i64>>);
        let mut families: Vec<Family> = Vec::new();
        for original in list {
            let a = by_place(original);
            let mut consts = Vec::new();
            let shape: Vec<Expr> = a.index.iter().map(|e| skeleton(e, &mut consts)).collect();
            let same = |s: &Vec<Expr>, f: &TraceAccess| {
                *s == shape
                    && f.mode == a.mode
                    && f.path == a.path
                    && f.loops == a.loops
                    && f.lock == a.lock
            };
            match families.iter_mut().find(|(s, f, _, _)| same(s, f)) {
                Some((_, _, members, all)) => {
                    members.push(original);
                    all.push(consts);
                }
                None => families.push((shape, a, vec![original], vec![consts])),
            }
        }
        let mut accesses = Vec::new();
        for (_, _, members, all) in families {
            let places: Vec<usize> = (0..all[0].len())
                .filter(|i| all.iter().any(|c| c[*i] != all[0][*i]))
                .collect();
            if all.len() < 2 || places.is_empty() || places.len() > FOLD_MAX_PLACES {
                accesses.extend(members.into_iter().cloned());
                continue;
            }
            // The constants of each place step by their greatest common
            // divisor (`8 * 7 * i` unrolled): a loop over the steps keeps
            // the gaps between them, where one over every value from the
            // least to the greatest would fill them.
            let ranges: Option<Vec<(i64, i64, i64)>> = places
                .iter()
                .map(|i| {
                    let lo = all.iter().map(|c| c[*i]).min()?;
                    let hi = all.iter().map(|c| c[*i]).max()?;
                    let step = all
                        .iter()
                        .map(|c| c[*i].abs_diff(lo))
                        .fold(0, crate::protocol::gcd)
                        .max(1);
                    let step = i64::try_from(step).ok()?;
                    Some((lo, step, hi.checked_sub(lo)? / step + 1))
                })
                .collect();
            let Some(ranges) = ranges else {
                accesses.extend(members.into_iter().cloned());
                continue;
            };
            // The first member as it is, its loops named as the trace
            // names them.
            let mut folded = members[0].clone();
            folded.value = None;
            let mut names = Vec::new();
            for (i, (lo, step, count)) in places.iter().zip(ranges) {
                let var = format!("!fold{fresh}@{}", k + 1);
                fresh += 1;
                out.locals[k].push(var.clone());
                folded.loops.push(Binder {
                    var: var.clone(),
                    lo: Expr::Int(0),
                    hi: Expr::Int(count),
                });
                let stepped = match step {
                    1 => Expr::var(&var),
                    _ => Expr::bin(Op::Mul, Expr::Int(step), Expr::var(&var)),
                };
                let at = match lo {
                    0 => stepped,
                    _ => Expr::bin(Op::Add, Expr::Int(lo), stepped),
                };
                names.push((*i, at));
            }
            let mut place = 0usize;
            let mut next = || {
                let at = place;
                place += 1;
                names.iter().find(|(i, _)| *i == at).map(|(_, e)| e.clone())
            };
            // Naming loops by place moves no constant: the first member's
            // are `all[0]`, in the same order.
            let own: Vec<Expr> = members[0]
                .index
                .iter()
                .map(|e| skeleton(e, &mut Vec::new()))
                .collect();
            let mut it = all[0].iter();
            folded.index = own.iter().map(|e| refill(e, &mut it, &mut next)).collect();
            accesses.push(folded);
            changed = true;
        }
        out.accesses[k] = accesses;
    }
    changed.then_some(out)
}

/// The locals of `kernel.uniform_reads` that are one value for a block:
/// every barrier interval their read is in has no write or atomic on the
/// array, so the threads of a block read the cell while it holds still.
/// (A thread of another block writing it then would race with the read,
/// which the array's own check reports.)
///
/// Intervals are cut assuming the candidates uniform, since a barrier may
/// sit under a condition over one (`if (count == 0) return;` after thread 0
/// published `count`); candidates that fail are dropped and the rest
/// checked again. What remains is sound by induction over a run: up to its
/// first divergent barrier, threads pass the same barriers, so the reads
/// before it see still cells and agree, and so do the conditions over them.
pub fn uniform_reads(kernel: &Kernel) -> UniformReads {
    let mut assumed: Vec<&str> = kernel
        .uniform_reads
        .iter()
        .map(|r| r.local.as_str())
        .collect();
    // Loop variables assumed one value for the block at the points its
    // threads reach together, in the same way.
    let mut carried: Vec<String> = kernel.carried.iter().map(|c| c.local.clone()).collect();
    loop {
        let mut optimistic = kernel.clone();
        optimistic
            .block_uniform
            .extend(assumed.iter().map(|l| l.to_string()));
        optimistic.control_uniform.extend(carried.iter().cloned());
        let mut intervals: BTreeMap<&str, Option<Vec<Interval>>> = BTreeMap::new();
        let mut out = UniformReads::default();
        for r in &kernel.uniform_reads {
            if !assumed.contains(&r.local.as_str()) {
                continue;
            }
            let ivs = intervals.entry(&r.array).or_insert_with(|| {
                let array = optimistic.array(&r.array)?;
                let wf = wf::well_formed(&optimistic, array).ok()?;
                Some(split::split(&wf))
            });
            match ivs
                .as_ref()
                .map(|ivs| read_while_still(&optimistic, ivs, r.loc))
            {
                Some(Still::AtSharedAddress) => out.values.push(r.local.clone()),
                Some(Still::OverLoopsApart) => out.control.push(r.local.clone()),
                Some(Still::No) | None => {}
            }
        }
        // A read at an address over other reads holds only where they do:
        // with every one of them, for the whole block when all do.
        loop {
            let mut changed = false;
            for r in kernel.uniform_reads.iter().filter(|r| !r.deps.is_empty()) {
                let held = |l: &String| out.values.contains(l) || out.control.contains(l);
                if !held(&r.local) {
                    continue;
                }
                if !r.deps.iter().all(held) {
                    out.values.retain(|l| *l != r.local);
                    out.control.retain(|l| *l != r.local);
                    changed = true;
                } else if out.values.contains(&r.local)
                    && !r.deps.iter().all(|d| out.values.contains(d))
                {
                    out.values.retain(|l| *l != r.local);
                    out.control.push(r.local.clone());
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let holds: Vec<&str> = kernel
            .uniform_reads
            .iter()
            .map(|r| r.local.as_str())
            .filter(|l| out.values.iter().chain(&out.control).any(|h| h == l))
            .collect();
        let carried_hold = carried_uniform(kernel, &carried, &out);
        if holds.len() == assumed.len() && carried_hold.len() == carried.len() {
            out.control.extend(carried_hold);
            return out;
        }
        assumed = holds;
        carried = carried_hold;
    }
}

/// The locals of `kernel.carried` among `candidates` whose values depend
/// only on what a block shares, taking the others that do as shared too:
/// the largest such set, by dropping one whose dependencies name a
/// thread's own value until none does. A name is shared when it is a
/// parameter (unknowns the lowering made for the whole grid among them),
/// a launch size, a block id, or a local the kernel or `reads` knows is
/// one value for the block; any other local, loop counter or thread id is
/// not.
pub fn carried_uniform(
    kernel: &Kernel,
    candidates: &[String],
    reads: &UniformReads,
) -> Vec<String> {
    let mut holds: Vec<String> = candidates.to_vec();
    loop {
        let shared = |d: &String| {
            kernel.params.contains(d)
                || builtin::is_dim(d)
                || builtin::BID.contains(&d.as_str())
                || kernel.block_uniform.contains(d)
                || kernel.control_uniform.contains(d)
                || reads.values.contains(d)
                || reads.control.contains(d)
                || holds.contains(d)
        };
        // A local recorded more than once holds when every record does.
        let failing: BTreeSet<&String> = kernel
            .carried
            .iter()
            .filter(|c| !c.deps.iter().all(shared))
            .map(|c| &c.local)
            .collect();
        let next: Vec<String> = holds
            .iter()
            .filter(|l| !failing.contains(l))
            .cloned()
            .collect();
        if next.len() == holds.len() {
            return holds;
        }
        holds = next;
    }
}

/// The question whether two threads of one block may disagree on `guard`
/// (Faial §6 asks it of the syntax; here the solver does): conditions,
/// over each thread's copy of its thread-local names (`tid.x@1`), that
/// some values satisfy exactly when two threads of a block disagree on the
/// condition, or run the loop over different ranges. Shared are what the
/// block shares: parameters, launch sizes, block ids, enclosing
/// synchronized-loop variables and the reads its threads agree on.
pub fn disagreement(kernel: &Kernel, guard: &wf::Guard) -> Vec<Cond> {
    let own = |v: &str| {
        builtin::TID.contains(&v)
            || (kernel.is_local(v)
                && !kernel.block_uniform.iter().any(|u| u == v)
                && !kernel.control_uniform.iter().any(|u| u == v))
    };
    let rename = |k: usize| {
        move |v: &str| {
            if own(v) {
                format!("{v}@{k}")
            } else {
                v.to_string()
            }
        }
    };
    let cond_at = |c: &Cond, k: usize| seq::map_cond(c, &rename(k));
    let expr_at = |e: &Expr, k: usize| seq::map_expr(&split_launch_divisors(e), &rename(k));
    let mut conds = match guard {
        wf::Guard::If(c) => {
            let c = c.map_exprs(&split_launch_divisors);
            let (a, b) = (cond_at(&c, 1), cond_at(&c, 2));
            vec![Cond::or(
                Cond::and(a.clone(), Cond::not(b.clone())),
                Cond::and(Cond::not(a), b),
            )]
        }
        wf::Guard::Range { lo, hi } => {
            let (l1, h1, l2, h2) = (
                expr_at(lo, 1),
                expr_at(hi, 1),
                expr_at(lo, 2),
                expr_at(hi, 2),
            );
            let same = Cond::and(
                Cond::cmp(Rel::Eq, l1.clone(), l2.clone()),
                Cond::cmp(Rel::Eq, h1.clone(), h2.clone()),
            );
            let empty = Cond::and(Cond::cmp(Rel::Ge, l1, h1), Cond::cmp(Rel::Ge, l2, h2));
            vec![Cond::not(Cond::or(same, empty))]
        }
    };
    // Two threads: one thread agrees with itself, whatever it read.
    let distinct = builtin::TID
        .iter()
        .map(|t| {
            let t = Expr::var(t);
            Cond::not(Cond::cmp(Rel::Eq, expr_at(&t, 1), expr_at(&t, 2)))
        })
        .reduce(Cond::or);
    conds.extend(distinct);
    for a in &kernel.assumes {
        for k in 1..=2 {
            let a = cond_at(a, k);
            if !conds.contains(&a) {
                conds.push(a);
            }
        }
    }
    let mut vars = BTreeSet::new();
    conds.iter().for_each(|c| c.free_vars(&mut vars));
    let mut sizes = BTreeSet::new();
    let mut facts: Vec<Cond> = vars
        .iter()
        .filter_map(|v| {
            seq::range_fact(kernel, v, &mut |d| {
                sizes.insert(d.to_string());
            })
        })
        .collect();
    facts.extend(
        sizes
            .iter()
            .filter(|d| !vars.contains(*d))
            .filter_map(|d| seq::range_fact(kernel, d, &mut |_| {})),
    );
    conds.extend(facts);
    conds
}

/// `e` with each quotient by a constant times launch sizes (`x / (256 *
/// gridDim.x)`, the trip count of a grid-stride loop) taken as two
/// quotients, `x / 256 / gridDim.x`: equal for positive divisors, and
/// the solver settles the inner one by linear reasoning, where the
/// product of unknowns leaves it without an answer. Two threads whose
/// inner quotients agree then agree on the whole.
pub fn split_launch_divisors(e: &Expr) -> Expr {
    fn launch_product(e: &Expr) -> bool {
        match e {
            Expr::Var(v) => builtin::is_dim(v),
            Expr::Bin(Op::Mul, a, b) => launch_product(a) && launch_product(b),
            _ => false,
        }
    }
    match e {
        Expr::Int(_) | Expr::Var(_) => e.clone(),
        Expr::Bin(op, a, b) => {
            let (a, b) = (split_launch_divisors(a), split_launch_divisors(b));
            if *op == Op::Div {
                if let Expr::Bin(Op::Mul, l, r) = &b {
                    let split = match (&**l, &**r) {
                        (Expr::Int(c), d) | (d, Expr::Int(c)) if *c > 1 && launch_product(d) => {
                            Some((*c, d.clone()))
                        }
                        _ => None,
                    };
                    if let Some((c, d)) = split {
                        return Expr::bin(Op::Div, Expr::bin(Op::Div, a, Expr::Int(c)), d);
                    }
                }
            }
            Expr::bin(*op, a, b)
        }
        Expr::Ite(c, a, b) => Expr::Ite(
            Box::new(c.map_exprs(&split_launch_divisors)),
            Box::new(split_launch_divisors(a)),
            Box::new(split_launch_divisors(b)),
        ),
    }
}

/// The hardware's limits on the launch sizes `question` names that the
/// kernel's own assumptions leave open: a bound check against a size the
/// launch fixes (`tid >= n`, `n` is 2^24) holds for every thread of any
/// block a GPU runs, and only sizes beyond the hardware's make it diverge.
/// A size the kernel's assumptions speak of keeps what they say (a
/// GPUVerify line may ask for blocks of 2048).
pub fn launch_limits(kernel: &Kernel, question: &[Cond]) -> Vec<Cond> {
    let mut vars = BTreeSet::new();
    question.iter().for_each(|c| c.free_vars(&mut vars));
    open_sizes(kernel, &vars)
        .into_iter()
        .map(|(d, max)| Cond::cmp(Rel::Le, Expr::var(d), Expr::Int(max)))
        .collect()
}

/// The launch sizes among `vars` that the kernel's assumptions leave open,
/// each with the largest value a GPU admits.
pub fn open_sizes(kernel: &Kernel, vars: &BTreeSet<String>) -> Vec<(&'static str, i64)> {
    // A size is fixed by an assumption over it alone (a launch's
    // `blockDim.x == 256`, `__requires(blockDim.x >= 2048)`); one the
    // assumptions only relate to others (`dim3 block(t, t)` makes
    // `blockDim.x == blockDim.y`) is as open as they are.
    let mut constrained = BTreeSet::new();
    let mut conjuncts: Vec<&Cond> = kernel.assumes.iter().collect();
    while let Some(a) = conjuncts.pop() {
        if let Cond::And(l, r) = a {
            conjuncts.push(l);
            conjuncts.push(r);
            continue;
        }
        let mut mentioned = BTreeSet::new();
        a.free_vars(&mut mentioned);
        if mentioned.len() == 1 {
            constrained.append(&mut mentioned);
        }
    }
    builtin::BLOCK_DIM
        .iter()
        .zip(builtin::BLOCK_DIM_MAX)
        .chain(builtin::GRID_DIM.iter().zip(builtin::GRID_DIM_MAX))
        .filter(|(d, _)| vars.contains(**d) && !constrained.contains(**d))
        .map(|(d, max)| (*d, max))
        .collect()
}

/// What [`uniform_reads`] finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UniformReads {
    /// One value for both threads of every trace (`Kernel::block_uniform`).
    pub values: Vec<String>,
    /// One value for the whole block at each point a block's threads reach
    /// together (the start of a synchronized loop), but read inside a loop
    /// the threads run apart in some interval, where two threads may use
    /// the values of different iterations (`Kernel::control_uniform`).
    pub control: Vec<String>,
}

/// How a read stays still while a block reads it ([`read_while_still`]).
enum Still {
    /// Not read, or written in an interval that reads it.
    No,
    /// Only read there, at an address both threads share.
    AtSharedAddress,
    /// Only read there, but in some interval inside a loop each thread runs
    /// on its own (iterations of a synchronized loop that cross no barrier).
    OverLoopsApart,
}

/// Whether the array of `intervals` is read at `loc` in some interval and
/// only read in every interval that reads it there, and at what address:
/// over what `kernel` makes thread-global and the interval's binders
/// (synchronized-loop variables, one iteration for both threads), or also
/// over a loop the threads run apart.
fn read_while_still(kernel: &Kernel, intervals: &[Interval], loc: Loc) -> Still {
    let mut read_somewhere = false;
    let mut apart_somewhere = false;
    let still = intervals.iter().all(|iv| {
        let mut accesses = Vec::new();
        wf::unsync_accesses(&iv.code, &mut accesses);
        let here: Vec<_> = accesses
            .iter()
            .filter(|a| a.mode == Mode::Read && a.loc == loc)
            .collect();
        if here.is_empty() {
            return true;
        }
        read_somewhere = true;
        let mut apart = BTreeSet::new();
        unsync_loop_vars(&iv.code, &mut apart);
        // As `seq` names them: one copy for both threads unless thread-local.
        let local = |v: &String| {
            builtin::TID.contains(&v.as_str())
                || (kernel.is_local(v) && !kernel.block_uniform.contains(v))
        };
        let mut vars = BTreeSet::new();
        here.iter()
            .for_each(|a| a.index.iter().for_each(|e| e.free_vars(&mut vars)));
        if vars.iter().any(local) {
            return false;
        }
        apart_somewhere |= vars.iter().any(|v| apart.contains(v));
        accesses.iter().all(|a| a.mode == Mode::Read)
    });
    match (read_somewhere && still, apart_somewhere) {
        (false, _) => Still::No,
        (true, false) => Still::AtSharedAddress,
        (true, true) => Still::OverLoopsApart,
    }
}

/// The variables of the loops in `u`, which each thread runs on its own.
fn unsync_loop_vars(u: &wf::Unsync, out: &mut BTreeSet<String>) {
    match u {
        wf::Unsync::Skip | wf::Unsync::Access(_) => {}
        wf::Unsync::Seq(items) => items.iter().for_each(|i| unsync_loop_vars(i, out)),
        wf::Unsync::If(_, a, b) => {
            unsync_loop_vars(a, out);
            unsync_loop_vars(b, out);
        }
        wf::Unsync::For { var, body, .. } => {
            out.insert(var.clone());
            unsync_loop_vars(body, out);
        }
    }
}

/// Whether the two symbolic threads share a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pairing {
    /// Same block, distinct `tid` tuples; barriers order them.
    SameBlock,
    /// Distinct blocks; only grid barriers order them.
    OtherBlock,
}

/// One access as issued by one symbolic thread, with every variable already
/// renamed to that thread's copy (`x@1`, `x@2`) where it is thread-local.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TraceAccess {
    /// `Access::id` of the source access.
    pub id: u32,
    pub mode: crate::protocol::Mode,
    pub loc: Loc,
    pub index: Vec<Expr>,
    /// Enclosing unsynchronized-loop variables of this thread, with ranges.
    pub loops: Vec<Binder>,
    /// Conjunction of the conditionals this access sits under.
    pub path: Cond,
    /// For a write, the value it stores, when known.
    #[serde(default)]
    pub value: Option<crate::protocol::Value>,
    /// The lock the thread holds while it makes the access.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<crate::protocol::Lock>,
}

impl TraceAccess {
    /// The access with `f` applied to each expression of its index, path,
    /// loop bounds and stored value.
    pub fn map_exprs(&self, f: &dyn Fn(&Expr) -> Expr) -> TraceAccess {
        TraceAccess {
            index: self.index.iter().map(f).collect(),
            loops: self
                .loops
                .iter()
                .map(|b| Binder {
                    var: b.var.clone(),
                    lo: f(&b.lo),
                    hi: f(&b.hi),
                })
                .collect(),
            path: self.path.map_exprs(f),
            value: self.value.as_ref().map(|v| v.map(f)),
            ..self.clone()
        }
    }
}

/// A symbolic trace (Fig. 7) of two distinct threads over one interval,
/// flattened into what the SMT encoding needs. Self-contained: the solver
/// looks at nothing else.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Trace {
    pub pairing: Pairing,
    /// Variables both threads share: params, launch dimensions, binders (and
    /// `bid.*` when `SameBlock`).
    pub globals: Vec<String>,
    /// Each thread's own variables, renamed: `[thread 1, thread 2]`.
    pub locals: [Vec<String>; 2],
    /// Facts over all variables: kernel assumptions, binder ranges, id
    /// ranges, the interval condition.
    pub assumptions: Vec<Cond>,
    /// The id variables whose tuples must differ between the threads:
    /// `[(x@1, x@2), …]`.
    pub distinct: Vec<(String, String)>,
    pub accesses: [Vec<TraceAccess>; 2],
    /// The threads are lanes of one warp running in lockstep (see
    /// `Kernel::warp_sync`): they race only on one write, issued by both at
    /// the same step (the same access at the same loop iterations).
    #[serde(default)]
    pub lockstep: bool,
    /// Where the interval came from, for display only (not hashed).
    pub start: Option<Loc>,
    pub end: Option<Loc>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse;

    #[test]
    fn quotients_by_a_constant_times_launch_sizes_are_taken_in_two() {
        let e = |s: &str| {
            let k = parse(&format!("params n, x, m; assume {s} == 0")).expect("an expression");
            match &k.assumes[0] {
                Cond::Cmp(_, e, _) => e.clone(),
                c => panic!("{c:?}"),
            }
        };
        let split = |s: &str| split_launch_divisors(&e(s)).to_string();
        assert_eq!(
            split("(n - tid.x) / (256 * gridDim.x)"),
            "(n - tid.x) / 256 / gridDim.x"
        );
        assert_eq!(
            split("x / (blockDim.x * gridDim.x * 4)"),
            "x / 4 / (blockDim.x * gridDim.x)"
        );
        // A divisor that may be zero or negative stays whole.
        assert_eq!(split("x / (256 * m)"), "x / (256 * m)");
        assert_eq!(split("x / gridDim.x"), "x / gridDim.x");
    }

    #[test]
    fn a_choice_both_threads_make_alike_splits_the_trace() {
        let k =
            parse("params w, h; array a { wr[(w == h ? tid : 2 * tid) + (tid % 2 == 0 ? 1 : 0)] }")
                .expect("a protocol");
        let traces = traces(&k, &k.arrays[0], true).expect("traces");
        assert_eq!(traces.len(), 1);
        let traces = by_shared_choices(traces[0].clone());
        assert_eq!(traces.len(), 2, "one trace per way of `w == h`");
        let ways: Vec<String> = traces
            .iter()
            .map(|t| t.assumptions.last().expect("the way").to_string())
            .collect();
        assert_eq!(ways, ["w == h", "!(w == h)"]);
        // Each index made that way; the thread's own choice stays.
        let index = |t: &Trace| t.accesses[0][0].index[0].to_string();
        assert_eq!(index(&traces[0]), "tid.x@1 + (tid.x@1 % 2 == 0 ? 1 : 0)");
        assert_eq!(
            index(&traces[1]),
            "2 * tid.x@1 + (tid.x@1 % 2 == 0 ? 1 : 0)"
        );
    }

    #[test]
    fn a_size_both_threads_divide_by_splits_the_trace_at_zero() {
        // `w` and `h` may be 0; `p` is at least 1 by assumption; `4` is a
        // constant; `tid.x` is a thread's own.
        let k = parse(
            "params w, h, p; assume p >= 1; \
             array a { wr[tid / (w * h) + tid % w + tid / p + tid % 4 + w / tid] }",
        )
        .expect("a protocol");
        let trace = traces(&k, &k.arrays[0], true).expect("traces").remove(0);
        let parts = by_shared_divisors(trace);
        assert_eq!(parts.len(), 4, "two sizes, two ways each");
        let ways: Vec<String> = parts
            .iter()
            .map(|t| {
                let n = t.assumptions.len();
                format!("{}, {}", t.assumptions[n - 2], t.assumptions[n - 1])
            })
            .collect();
        assert_eq!(
            ways,
            [
                "w == 0, h == 0",
                "w == 0, h >= 1",
                "w >= 1, h == 0",
                "w >= 1, h >= 1"
            ]
        );
        let index = |t: &Trace| t.accesses[0][0].index[0].to_string();
        // Where `w` is 0, its quotients are 0 and its remainders the dividend.
        assert_eq!(
            index(&parts[1]),
            "0 + tid.x@1 + tid.x@1 / p + tid.x@1 % 4 + w / tid.x@1"
        );
        assert_eq!(
            index(&parts[3]),
            "tid.x@1 / (w * h) + tid.x@1 % w + tid.x@1 / p + tid.x@1 % 4 + w / tid.x@1"
        );
    }

    #[test]
    fn accesses_that_differ_in_constants_fold_into_a_loop() {
        // Thirty fields, one plane of `n` cells each, written at the
        // thread's place; a read of field 3 under a condition stays apart.
        let writes: Vec<String> = (2..32).map(|f| format!("wr[{f} * n + tid];")).collect();
        let src = format!(
            "params n; array a {{ {} if (tid < 4) {{ rd[3 * n + tid] }} }}",
            writes.join(" ")
        );
        let k = parse(&src).expect("a protocol");
        let trace = traces(&k, &k.arrays[0], true).expect("traces").remove(0);
        assert_eq!(trace.accesses[0].len(), 31);
        let folded = folded(&trace).expect("the writes fold");
        let accesses = &folded.accesses[0];
        assert_eq!(accesses.len(), 2, "{accesses:#?}");
        assert_eq!(
            accesses[0].index[0].to_string(),
            "(2 + !fold0@1) * n + tid.x@1"
        );
        let loop_ = &accesses[0].loops[0];
        assert_eq!(
            (loop_.lo.to_string(), loop_.hi.to_string()),
            ("0".into(), "30".into())
        );
        assert_eq!(accesses[1].index[0].to_string(), "3 * n + tid.x@1");
        assert!(folded.locals[0].contains(&"!fold0@1".to_string()));
        // Few accesses are not worth a loop.
        assert!(folded_from(&trace, 32).is_none());
    }

    #[test]
    fn loops_alike_but_named_apart_fold_by_the_step_of_their_constants() {
        // An outer loop unrolled: each iteration's inner loop has a name of
        // its own, and the rows it writes are 7 apart, with gaps a loop over
        // every value between would fill.
        let rows: Vec<String> = (0..7)
            .map(|i| format!("for j{i} in 0..7 {{ wr[8 * ({} + j{i}) + tid]; }}", 7 * i))
            .collect();
        let src = format!("array a {{ {} }}", rows.join(" "));
        let k = parse(&src).expect("a protocol");
        let trace = traces(&k, &k.arrays[0], true).expect("traces").remove(0);
        let folded = folded_from(&trace, 4).expect("the rows fold");
        let accesses = &folded.accesses[0];
        assert_eq!(accesses.len(), 1, "{accesses:#?}");
        assert_eq!(
            accesses[0].index[0].to_string(),
            "8 * (7 * !fold0@1 + j0@1) + tid.x@1"
        );
        let loop_ = accesses[0].loops.last().expect("the folded loop");
        assert_eq!(loop_.hi.to_string(), "7");
    }
}
