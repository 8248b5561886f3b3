//! Z3 encoding of symbolic traces (Faial §6 "Quantification").
//!
//! The encoding is linear in the size of the trace: each thread picks one of
//! its accesses through an integer selector (`s1`, `s2`), the chosen access
//! defines that thread's index constants and mode code, and the race asks
//! for equal indices and conflicting modes. A DRF proof is one UNSAT query;
//! only a SAT trace is asked again, with the racing pairs found so far
//! blocked, to report every distinct race.
//!
//! Integers are mathematical. `/` and `%` are SMT-LIB's Euclidean `div` and
//! `mod`, guarded so that division by zero gives 0 and `% 0` the dividend, as
//! in the evaluator. Shifts are multiplications and divisions by powers of
//! two (by a non-constant amount: a case split over 0..63). `& | ^` with a
//! constant operand are sums over the constant's bits, each bit of the other
//! operand being `(x div 2^i) mod 2`; with two non-constant operands they go
//! through 64-bit bit-vectors (`int2bv`/`bv2int`). All of these are exact for
//! values that fit in an `i64`, so every model replays on the evaluator.
//!
//! Z3 contexts are thread-local (implicit in the `z3` crate): nothing here
//! crosses threads, and every call builds its own solver.

mod alarm;
mod bits;
pub mod monotone;
mod radix;

use crate::analysis::{Binder, Trace, TraceAccess};
use crate::options::{Deadline, Options, TIME_BUDGET};
use crate::protocol::{builtin, Cond, Expr, Loc, Mode, Op, Rel, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use z3::ast::{Ast, Bool, Int, BV};
use z3::{FuncDecl, Model, SatResult, Solver, Sort};

/// A satisfying assignment of one racing access pair.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RawRace {
    /// `Access::id`s: `accesses[0]` issued by thread 1, `accesses[1]` by
    /// thread 2.
    pub accesses: [u32; 2],
    /// The common index, one value per dimension.
    pub index: Vec<i64>,
    /// Every trace variable (globals and both threads' renamed locals) with
    /// its value in the model.
    pub values: BTreeMap<String, i64>,
}

/// What the solver says about one trace.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Drf,
    /// Distinct racing pairs, at most `Options::max_races_per_interval`.
    Racy(Vec<RawRace>),
    /// The solver gave up (timeout, incompleteness); the reason from Z3.
    Unknown(String),
}

/// An outcome and the number of solver queries it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub outcome: Outcome,
    pub solver_calls: usize,
    /// The kernel's budget ended the search early: the outcome holds what
    /// was found by then, and is not the answer to cache.
    pub cut_short: bool,
}

/// Witness values are first sought within these bounds (on every trace
/// variable), so that races read well and replay quickly.
const WITNESS_BOUNDS: [i64; 2] = [8, 1024];

/// Time limit of each query for a smaller witness, in milliseconds.
const SMALL_WITNESS_MS: u64 = 100;

/// A solver and the time limit of its checks, which [`alarm`] keeps.
struct Limited {
    solver: Solver,
    /// Milliseconds; 0 = none.
    ms: std::cell::Cell<u64>,
    /// The last check ended at its limit.
    timed_out: std::cell::Cell<bool>,
}

impl Limited {
    fn new() -> Limited {
        Limited::of(Solver::new())
    }

    fn of(solver: Solver) -> Limited {
        Limited {
            solver,
            ms: std::cell::Cell::new(0),
            timed_out: std::cell::Cell::new(false),
        }
    }

    /// A solver that runs `strategy` with `seed`, in the current context.
    fn with(strategy: Strategy, seed: u32) -> Limited {
        let solver = match strategy.tactics {
            [] => Solver::new(),
            names => names
                .iter()
                .map(|n| z3::Tactic::new(n))
                .reduce(|a, b| a.and_then(&b))
                .expect("a tactic")
                .solver(),
        };
        let mut params = z3::Params::new();
        params.set_u32("random_seed", seed);
        for &(name, value) in strategy.params {
            params.set_u32(name, value);
        }
        solver.set_params(&params);
        Limited::of(solver)
    }

    fn check(&self) -> SatResult {
        let (result, timed_out) = alarm::check(&self.solver, self.ms.get());
        self.timed_out.set(timed_out);
        result
    }

    fn get_reason_unknown(&self) -> Option<String> {
        if self.timed_out.get() {
            return Some("timeout".into());
        }
        self.solver.get_reason_unknown()
    }
}

impl std::ops::Deref for Limited {
    type Target = Solver;
    fn deref(&self) -> &Solver {
        &self.solver
    }
}

/// Per-query time limit in milliseconds; 0 = none.
fn set_timeout(solver: &Limited, ms: u64) {
    solver.ms.set(ms);
}

/// Time limit of the first attempt at a trace.
const QUICK_MS: u64 = 100;

/// Decides whether `trace` has a race.
///
/// First in a solver of its own in the thread's context, briefly: most
/// intervals take milliseconds. Z3's search depends on what its context saw before (term
/// ids order rewriting and decisions), so a query that gives up there is
/// asked again in fresh contexts, with restarts that share the full time
/// limit; whether a hard proof finishes then depends on the trace alone,
/// not on the kernels the thread analysed before. Fresh contexts cost
/// milliseconds each, too much to pay on every query.
pub fn solve(trace: &Trace, opts: &Options) -> Solved {
    solve_until(trace, opts, Deadline::never())
}

/// [`solve`] within the kernel's `deadline`: no query runs past it.
pub fn solve_until(trace: &Trace, opts: &Options, deadline: Deadline) -> Solved {
    match solve_first(trace, opts, deadline) {
        First::Decided(solved) => solved,
        First::Hard(first) => solve_hard(trace, opts, deadline, first),
    }
}

/// The first, brief attempt at a trace ([`solve_first`]).
pub enum First {
    /// Its answer, or the kernel's budget ended it.
    Decided(Solved),
    /// The solver gave up within the brief limit: only [`solve_hard`]
    /// tells more.
    Hard(Solved),
}

/// The brief attempt of [`solve_until`], in a solver of its own.
pub fn solve_first(trace: &Trace, opts: &Options, deadline: Deadline) -> First {
    if deadline.passed() {
        return First::Decided(Solved {
            outcome: Outcome::Unknown(TIME_BUDGET.into()),
            solver_calls: 0,
            cut_short: true,
        });
    }
    let first = match opts.first_attempt_ms {
        0 => QUICK_MS,
        ms => ms,
    };
    let quick = if opts.timeout_ms == 0 {
        first
    } else {
        opts.timeout_ms.min(first)
    };
    let (quick, _) = deadline.cap(quick);
    let quick_opts = Options {
        timeout_ms: quick,
        ..opts.clone()
    };
    // A solver of its own: one reused through push and pop answered
    // `unsat` to satisfiable queries after others (Debian's Z3 4.8.12, in
    // full-tree scans), which would prove racy kernels race free.
    let solver = Limited::new();
    set_timeout(&solver, quick);
    let (first, gave_up) = solve_in(&solver, trace, &quick_opts, deadline, true);
    // A race found is the answer; more races are not worth the full limit.
    if !gave_up || first.cut_short || matches!(first.outcome, Outcome::Racy(_)) {
        First::Decided(first)
    } else {
        First::Hard(first)
    }
}

/// The rest of [`solve_until`] for a trace its first attempt gave up on:
/// the trace's parts when a choice both threads make alike or a size they
/// divide by splits it ([`crate::analysis::by_shared_choices`],
/// [`crate::analysis::by_shared_divisors`]), else restarts in fresh
/// contexts.
pub fn solve_hard(trace: &Trace, opts: &Options, deadline: Deadline, first: Solved) -> Solved {
    // Guards the launch implies make a hard trace's indexes mixed-radix
    // numbers; asked only here, their queries cost more than most traces.
    let Some(guarded) = implied_columns(trace) else {
        return solve_hard_as_is(trace, opts, deadline, first);
    };
    let mut solved = match solve_first(&guarded, opts, deadline) {
        First::Decided(solved) => solved,
        First::Hard(again) => solve_hard_as_is(&guarded, opts, deadline, again),
    };
    solved.solver_calls += first.solver_calls;
    solved
}

/// [`solve_hard`] of the trace as it is.
fn solve_hard_as_is(
    trace: &Trace,
    opts: &Options,
    deadline: Deadline,
    mut first: Solved,
) -> Solved {
    // Families of accesses folded into loops: a proof of the folded trace
    // is one of the trace; a race there may be one the folding added, so
    // then the trace itself is asked.
    if let Some(folded) = crate::analysis::folded(trace) {
        // Whether it races is all that is asked of it.
        let opts = &Options {
            max_races_per_interval: 1,
            ..opts.clone()
        };
        let solved = match solve_first(&folded, opts, deadline) {
            First::Decided(solved) => solved,
            First::Hard(first) => restarts(&folded, &fold_opts(opts), deadline, first),
        };
        first.solver_calls += solved.solver_calls;
        if matches!(solved.outcome, Outcome::Drf) {
            return Solved {
                outcome: Outcome::Drf,
                solver_calls: first.solver_calls,
                cut_short: solved.cut_short,
            };
        }
    }
    let parts: Vec<Trace> = crate::analysis::by_shared_choices(trace.clone())
        .into_iter()
        .flat_map(crate::analysis::by_shared_divisors)
        .collect();
    if parts.len() < 2 {
        return restarts(trace, opts, deadline, first);
    }
    let mut calls = first.solver_calls;
    let mut races = Vec::new();
    let mut unknown = None;
    let mut cut_short = false;
    for part in &parts {
        let solved = match solve_first(part, opts, deadline) {
            First::Decided(solved) => solved,
            First::Hard(first) => restarts(part, opts, deadline, first),
        };
        calls += solved.solver_calls;
        cut_short |= solved.cut_short;
        match solved.outcome {
            Outcome::Drf => {}
            Outcome::Racy(found) => races.extend(found),
            Outcome::Unknown(why) => {
                unknown.get_or_insert(why);
            }
        }
    }
    races.truncate(opts.max_races_per_interval.max(1));
    let outcome = match unknown {
        _ if !races.is_empty() => Outcome::Racy(races),
        Some(why) => Outcome::Unknown(why),
        None => Outcome::Drf,
    };
    Solved {
        outcome,
        solver_calls: calls,
        cut_short,
    }
}

/// The limit of a folded trace's restarts ([`solve_hard`]): a fifth of the
/// query's (two restarts and part of a third at the default), since a
/// folded trace that races, as those of racy kernels with long unrolled
/// loops do, leaves the trace itself to be asked with the rest. Folded
/// traces of a few hundred accesses take Z3 up to a second.
fn fold_opts(opts: &Options) -> Options {
    Options {
        timeout_ms: match opts.timeout_ms {
            0 => FOLD_MS,
            ms => (ms / 5).max(1),
        },
        ..opts.clone()
    }
}

/// A folded trace's restart limit when queries have none.
const FOLD_MS: u64 = 1_000;

/// Restarts of a trace in fresh contexts, each with a new seed and
/// strategy.
fn restarts(trace: &Trace, opts: &Options, deadline: Deadline, first: Solved) -> Solved {
    // Z3's time to an answer on nonlinear queries is heavy-tailed in its
    // random seed and preprocessing: one run answers in 30 ms where the
    // next takes seconds. Restarts with new seeds and strategies and
    // doubling limits, within the full limit in all, find those answers
    // far sooner than one long attempt.
    let mut calls = first.solver_calls;
    let mut left = if opts.timeout_ms == 0 {
        u64::MAX
    } else {
        opts.timeout_ms
    };
    let mut attempt_ms = RESTART_MS;
    // The first attempt was the plain solver: restarts begin with another
    // strategy, the one likeliest to win on the trace's arithmetic.
    let first = first_restart(trace);
    for seed in 1.. {
        let (limit, capped) = deadline.cap(attempt_ms.min(left));
        if deadline.passed() {
            return Solved {
                outcome: Outcome::Unknown(TIME_BUDGET.into()),
                solver_calls: calls,
                cut_short: true,
            };
        }
        let full = Options {
            timeout_ms: limit,
            ..opts.clone()
        };
        let cfg = z3::Config::new();
        let strategy = RESTARTS[(seed as usize - 1 + first) % RESTARTS.len()];
        let (mut fresh, gave_up) = z3::with_z3_config(&cfg, || {
            let solver = Limited::with(strategy, seed);
            set_timeout(&solver, limit);
            solve_in(&solver, trace, &full, deadline, false)
        });
        calls += fresh.solver_calls;
        fresh.solver_calls = calls;
        left = left.saturating_sub(limit);
        attempt_ms = attempt_ms.saturating_mul(2);
        if capped && gave_up {
            // It gave up within the budget's remainder, not the full limit.
            fresh.cut_short = true;
            if matches!(fresh.outcome, Outcome::Unknown(_)) {
                fresh.outcome = Outcome::Unknown(TIME_BUDGET.into());
            }
            return fresh;
        }
        if !gave_up || left == 0 || matches!(fresh.outcome, Outcome::Racy(_)) {
            return fresh;
        }
    }
    unreachable!("the restarts end when the limit is spent")
}

/// Whether some values of the variables satisfy every condition of
/// `conds`: `Some(false)` when none do, `None` when Z3 cannot tell within
/// `ms` milliseconds. Kernel assumptions no launch satisfies would make
/// every query unsatisfiable, and every kernel race free.
pub fn satisfiable(conds: &[Cond], ms: u64) -> Option<bool> {
    satisfiable_within(conds, 0, ms)
}

/// [`satisfiable`] within `rlimit` units of Z3's work (0 = no limit) as
/// well as `ms`: an answer that does not depend on how loaded the machine
/// is, when the time limit is the looser of the two.
pub fn satisfiable_within(conds: &[Cond], rlimit: u32, ms: u64) -> Option<bool> {
    let (solver, _) = asserting(conds, ms);
    limit_work(&solver, rlimit);
    match solver.check() {
        SatResult::Sat => Some(true),
        SatResult::Unsat => Some(false),
        SatResult::Unknown => None,
    }
}

/// Bounds each of `solver`'s checks by `rlimit` units of Z3's work (0 =
/// no bound).
fn limit_work(solver: &Limited, rlimit: u32) {
    if rlimit > 0 {
        let mut params = z3::Params::new();
        params.set_u32("rlimit", rlimit);
        solver.set_params(&params);
    }
}

/// A solver limited to `ms` that asserts `conds` and the facts their
/// encoding needs, with the encoder that knows their variables.
fn asserting(conds: &[Cond], ms: u64) -> (Limited, Encoder) {
    let solver = Limited::new();
    set_timeout(&solver, ms);
    let mut enc = Encoder::default();
    for c in conds {
        solver.assert(&enc.cond(c));
    }
    for side in &enc.side {
        solver.assert(side);
    }
    (solver, enc)
}

/// [`satisfiable_within`] with the values of a satisfying assignment:
/// `Some(None)` when none exists, `Some(Some(values))` with every
/// variable's value, the smallest of [`WITNESS_BOUNDS`] that admits one
/// where the solver finds one quickly; `None` when Z3 cannot tell within
/// `rlimit` units of work and `ms`.
pub fn model(conds: &[Cond], rlimit: u32, ms: u64) -> Option<Option<BTreeMap<String, i64>>> {
    let (solver, enc) = asserting(conds, ms);
    limit_work(&solver, rlimit);
    match solver.check() {
        SatResult::Unsat => return Some(None),
        SatResult::Unknown => return None,
        SatResult::Sat => {}
    }
    let mut model = solver.get_model()?;
    // Bounded by work, the smaller models are found or not whatever the
    // load; by time alone, briefly.
    if rlimit == 0 {
        set_timeout(&solver, SMALL_WITNESS_MS);
    }
    for bound in WITNESS_BOUNDS {
        solver.push();
        for (_, v) in &enc.vars {
            solver.assert(&v.le(Int::from_i64(bound)));
            solver.assert(&v.ge(Int::from_i64(-bound)));
        }
        let small = match solver.check() {
            SatResult::Sat => solver.get_model(),
            _ => None,
        };
        solver.pop(1);
        if let Some(small) = small {
            model = small;
            break;
        }
    }
    let values: BTreeMap<String, i64> = enc
        .vars
        .iter()
        .filter_map(|(name, v)| Some((name.clone(), model.eval(v, true)?.as_i64()?)))
        .collect();
    // A check the time limit interrupts can leave a model cut short, and
    // an abstracted product can take a value the real one does not: the
    // values must satisfy what was asked, as the evaluator reads it.
    let lookup = |name: &str| values.get(name).copied();
    let refuted = conds
        .iter()
        .any(|c| matches!(crate::protocol::eval::eval_cond(c, &lookup), Ok(false)));
    if refuted {
        return None;
    }
    Some(Some(values))
}

/// The row lengths the indices of `trace` assume, by variable, as the
/// least value each needs ([`radix::Facts::row_lengths`]): conditions a
/// caller may ensure, over thread-global values.
pub fn row_lengths(trace: &Trace) -> Vec<(String, Expr)> {
    let facts = radix::Facts::new(&trace.assumptions);
    let mut found = Vec::new();
    for a in trace.accesses.first().into_iter().flatten() {
        for e in &a.index {
            found.extend(facts.row_lengths(e, a, "@1"));
        }
    }
    let mut out = radix::widest_rows(&found);
    // The weakest first: of two constant bounds on one size, the smaller
    // (`hid >= 16` before `hid >= 31`, which a wider remainder asked for).
    // A bound by sizes alone (`stride >= bounds.z`, from the guard on the
    // column) before one by the launch's extent, which holds for every
    // caller only when the grid fits the row.
    let first: Vec<String> = out.iter().map(|(v, _)| v.clone()).collect();
    out.sort_by_key(|(v, least)| {
        let at = first.iter().position(|w| w == v);
        let mut vars = std::collections::BTreeSet::new();
        least.free_vars(&mut vars);
        let by_launch = vars.iter().any(|v| crate::protocol::builtin::is_dim(v));
        let least = match least {
            Expr::Int(c) => *c,
            _ => i64::MIN,
        };
        (at, by_launch, least)
    });
    out
}

/// Conditions that keep the cells of `trace`'s tensor indices apart
/// ([`radix::Strides::nested`]): the strides nested in the order the
/// kernel declares them (`nb1, nb2, nb3`, innermost first, as tensor
/// libraries list dimensions), and in the reverse order (`stride_b,
/// stride_t`, outermost first).
pub fn nested_strides(trace: &Trace, params: &[String]) -> Vec<Cond> {
    let facts = radix::Facts::new(&trace.assumptions);
    // The accesses over one set of strides: the innermost stride holds
    // the widest of their inner parts.
    let mut found: Vec<radix::Strides> = Vec::new();
    for a in trace.accesses.first().into_iter().flatten() {
        for e in &a.index {
            let Some(s) = facts.strides(e, a, "@1") else {
                continue;
            };
            let same = |o: &&mut radix::Strides| {
                o.strides.len() == s.strides.len()
                    && o.strides
                        .iter()
                        .all(|(t, _)| s.strides.iter().any(|(u, _)| u == t))
            };
            match found.iter_mut().find(same) {
                Some(o) => {
                    for i in s.inner {
                        if !o.inner.contains(&i) {
                            o.inner.push(i);
                        }
                    }
                }
                None => found.push(s),
            }
        }
    }
    let mut out: Vec<Cond> = Vec::new();
    for s in &found {
        let mut order: Vec<&str> = params
            .iter()
            .map(String::as_str)
            .filter(|p| s.strides.iter().any(|(t, _)| t == p))
            .collect();
        if order.len() != s.strides.len() {
            continue;
        }
        for _ in 0..2 {
            if let Some(c) = s.nested(&order) {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            order.reverse();
        }
    }
    out
}

/// Thread-global variables whose being a multiple of a constant would
/// make a quotient of `trace`'s indices exact ([`radix::quotient_multiples`]),
/// with those constants: a caller's `width % 2 == 0` for an index of
/// `half2` cells.
pub fn quotient_multiples(trace: &Trace) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    // The variables are shared: one thread's accesses name them all.
    for a in trace.accesses.first().into_iter().flatten() {
        for e in &a.index {
            for found in radix::quotient_multiples(e) {
                if !out.contains(&found) {
                    out.push(found);
                }
            }
        }
    }
    out
}

/// The planes the guarded parts of `trace`'s indices must fit
/// ([`radix::Facts::plane_ceilings`]), as `n <= H * W` over thread-global
/// values.
pub fn plane_ceilings(trace: &Trace) -> Vec<Cond> {
    let facts = radix::Facts::new(&trace.assumptions);
    let mut out: Vec<Cond> = Vec::new();
    for a in trace.accesses.first().into_iter().flatten() {
        for e in &a.index {
            for (n, m) in facts.plane_ceilings(e, a, "@1") {
                let c = Cond::cmp(crate::protocol::Rel::Le, Expr::var(n.as_str()), m);
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Why a query has no answer when Z3's model does not satisfy it.
const CUT_SHORT_MODEL: &str = "the solver's model does not satisfy the query (interrupted)";

/// Time limit of the first restart in a fresh context; each one after
/// has twice its predecessor's.
const RESTART_MS: u64 = 250;

/// How one restart runs Z3: its incremental solver, or a chain of tactics
/// ending in it, and the solver's parameters. Preprocessing changes which
/// queries are easy: naming each `div` and `mod` by a constant
/// (`purify-arith`) turns a timeout into a 100 ms proof on the index
/// arithmetic of real kernels, and costs seconds on others that the plain
/// solver proves at once. Z3's two arithmetic solvers fail on different
/// queries too: on the big disjunctions of unrolled sorting networks the
/// older simplex (`arith.solver=2`) finds races in tens of milliseconds
/// where the default one takes seconds, for some seeds, and the reverse
/// holds on other proofs. Restarts take turns.
#[derive(Clone, Copy, Debug)]
struct Strategy {
    tactics: &'static [&'static str],
    params: &'static [(&'static str, u32)],
}

const RESTARTS: [Strategy; 4] = [
    Strategy {
        tactics: &[],
        params: &[],
    },
    Strategy {
        tactics: &["simplify", "purify-arith", "smt"],
        params: &[],
    },
    Strategy {
        tactics: &[],
        params: &[("arith.solver", 2)],
    },
    Strategy {
        tactics: &[
            "simplify",
            "propagate-values",
            "solve-eqs",
            "elim-uncnstr",
            "smt",
        ],
        params: &[],
    },
];

/// Where the restarts of a trace begin in [`RESTARTS`].
fn first_restart(trace: &Trace) -> usize {
    let mut divides = false;
    each_expr(trace, &mut |e| divides |= divides_or_multiplies(e));
    if uses_bit_vectors(trace) {
        // Hashes: preprocessing costs seconds, a new seed suffices.
        0
    } else if divides {
        1
    } else {
        2
    }
}

/// Whether `e` divides, takes a remainder or multiplies two non-constants:
/// the arithmetic `purify-arith` helps with.
fn divides_or_multiplies(e: &Expr) -> bool {
    match e {
        Expr::Bin(op, a, b) => {
            let product = *op == Op::Mul && constant(a).is_none() && constant(b).is_none();
            product
                || matches!(op, Op::Div | Op::Mod)
                || divides_or_multiplies(a)
                || divides_or_multiplies(b)
        }
        Expr::Ite(_, a, b) => divides_or_multiplies(a) || divides_or_multiplies(b),
        Expr::Int(_) | Expr::Var(_) => false,
    }
}

/// Whether an access of one thread of `trace` may conflict with one of
/// the other's by their modes alone.
fn modes_conflict(trace: &Trace) -> bool {
    let [first, second] = &trace.accesses;
    first
        .iter()
        .any(|a| second.iter().any(|b| a.mode.conflicts(b.mode)))
}

/// The outcome of `trace` asked of `solver`, with whether the solver gave
/// up on some query (so that a retry could find more). With `instances`, a
/// query the solver gives up on is tried on small instances
/// ([`Query::instance_race`]) before that counts.
fn solve_in(
    solver: &Limited,
    trace: &Trace,
    opts: &Options,
    deadline: Deadline,
    instances: bool,
) -> (Solved, bool) {
    // Reads alone, or atomics alone, never race, however hard their
    // indexes (a hash's table lookups after the table is filled): no
    // query, which Z3 may spend its memory on before it sees the modes.
    if !modes_conflict(trace) {
        let solved = Solved {
            outcome: Outcome::Drf,
            solver_calls: 0,
            cut_short: false,
        };
        return (solved, false);
    }
    let query = Query::encode(trace, opts.strict);
    for a in &query.assertions {
        solver.assert(a);
    }

    let debug = debug_dump(solver);

    let max = opts.max_races_per_interval.max(1);
    let mut races: Vec<RawRace> = Vec::new();
    let mut calls = 0;
    // The bound that gave the first small witness stays in force, in a scope
    // of its own, while it admits further races: one query per race instead
    // of one per bound tried. Blocked pairs live below that scope.
    let mut bounded = false;
    let mut blocks = Vec::new();
    let leave_bound = |bounded: &mut bool, blocks: &[Bool]| {
        if std::mem::take(bounded) {
            solver.pop(1);
            for b in blocks {
                solver.assert(b);
            }
        }
    };
    let mut unknown = None;
    let mut gave_up = false;
    let mut cut_short = false;
    // The solver's time limit, as the caller set it and as changed below.
    let mut limit = opts.timeout_ms;
    let mut last_instance = None;
    let mut abstracted = false;
    // Bitwise operations on a nonlinear global take bit vectors even with
    // it substituted; fixed in the trace, they are encoded linearly.
    let refix = uses_bit_vectors(trace).then_some((trace, opts.strict));
    while races.len() < max {
        if !races.is_empty() && deadline.passed() {
            // The races found are real; the budget ends the search for more.
            cut_short = true;
            break;
        }
        // A nonlinear query gets a brief symbolic attempt, then small
        // instances, which find most races in milliseconds where the
        // symbolic query takes the whole limit, then the rest of the limit.
        let try_instances = instances && !bounded && !query.nonlinear.is_empty();
        // After an instance found a race, the symbolic query is known hard:
        // straight to the instances, from the one that worked.
        let brief = try_instances && last_instance.is_none();
        let check = |ms: Option<u64>, calls: &mut usize| {
            if let Some(ms) = ms {
                set_timeout(solver, ms);
            }
            *calls += 1;
            let started = std::time::Instant::now();
            let result = solver.check();
            if let Some(path) = &debug {
                debug_note(
                    path,
                    &format!("; check {calls}: {result:?} in {:?}", started.elapsed()),
                );
            }
            result
        };
        let mut instance = None;
        let mut result = if brief || !try_instances {
            check(brief.then_some(limit.min(BRIEF_MS)), &mut calls)
        } else {
            SatResult::Unknown
        };
        if instances && !abstracted && races.is_empty() && result == SatResult::Unknown {
            // Most nonlinear terms matter to the race only as themselves:
            // a size product both threads share cancels out. Then the
            // abstraction proves the interval at linear cost.
            abstracted = true;
            let (unsat, extra) = abstraction_unsat(trace, opts.strict, deadline, debug.as_deref());
            calls += extra;
            if unsat {
                break;
            }
        }
        if try_instances && result == SatResult::Unknown {
            let first = last_instance.unwrap_or(0);
            let (found, extra) =
                query.instance_race(&blocks, first, deadline, debug.as_deref(), refix);
            calls += extra;
            if let Some((model, attempt)) = found {
                instance = Some(model);
                last_instance = Some(attempt);
            }
            result = match instance {
                Some(_) => SatResult::Sat,
                // The instances took time of the kernel's budget too.
                None if limit > BRIEF_MS || !brief => {
                    check(Some(deadline.cap(limit).0), &mut calls)
                }
                None => result,
            };
        } else if brief {
            set_timeout(solver, limit);
        }
        match result {
            SatResult::Sat => {}
            SatResult::Unsat | SatResult::Unknown if bounded => {
                // Races that need larger values may remain.
                leave_bound(&mut bounded, &blocks);
                continue;
            }
            SatResult::Unsat => break,
            SatResult::Unknown => {
                gave_up = true;
                if races.is_empty() {
                    unknown = Some(
                        solver
                            .get_reason_unknown()
                            .unwrap_or_else(|| "unknown".into()),
                    );
                }
                // Otherwise the races found are real; the rest stays unexplored.
                break;
            }
        }
        if instance.is_some() && races.is_empty() {
            // The symbolic query is nonlinear and hard: further races get
            // the brief limit there.
            limit = short_limit(opts, deadline).min(BRIEF_MS);
            set_timeout(solver, limit);
        }
        let from_instance = instance.is_some();
        let Some(mut model) = instance.or_else(|| solver.get_model()) else {
            unknown = Some("no model for a satisfiable query".into());
            break;
        };

        if !bounded && !from_instance {
            // Small witnesses are a nicety: they get a shorter time limit.
            let short = short_limit(opts, deadline);
            set_timeout(solver, short);
            let started = std::time::Instant::now();
            let (small, extra, bound) = query.small_model(solver, model);
            if let Some(path) = &debug {
                debug_note(
                    path,
                    &format!(
                        "; small witness (bound {bound:?}, {extra} checks) in {:?}",
                        started.elapsed()
                    ),
                );
            }
            // The trace is racy now: further races are a nicety and get the
            // short limit too, not the full one each; the brief one when
            // this is a restart on a query known hard.
            limit = if instances {
                short
            } else {
                short.min(BRIEF_MS)
            };
            set_timeout(solver, limit);
            calls += extra;
            model = small;
            if let Some(bound) = bound {
                solver.push();
                query.assert_bound(solver, bound);
                bounded = true;
            }
        }
        if !query.satisfied_by(&model) {
            // An interrupt that reached Z3 as it answered can leave a
            // model cut short (ids outside their ranges, a grid of no
            // blocks): no answer, and a fresh context asks again.
            gave_up = true;
            if races.is_empty() {
                unknown = Some(CUT_SHORT_MODEL.into());
            }
            break;
        }
        match query.race(&model) {
            Ok(race) => {
                let block = query.block(race.accesses);
                solver.assert(&block);
                blocks.push(block);
                races.push(race);
            }
            Err(reason) => {
                if races.is_empty() {
                    unknown = Some(reason);
                }
                break;
            }
        }
    }
    if bounded {
        solver.pop(1);
    }
    let outcome = match (unknown, races.is_empty()) {
        (Some(reason), true) => Outcome::Unknown(reason),
        (_, true) => Outcome::Drf,
        (_, false) => Outcome::Racy(races),
    };
    (
        Solved {
            outcome,
            solver_calls: calls,
            cut_short,
        },
        gave_up,
    )
}

/// Whether the trace's [`Query::abstraction`] has no model, within
/// [`ABSTRACTION_MS`]; with the number of queries asked.
fn abstraction_unsat(
    trace: &Trace,
    strict: bool,
    deadline: Deadline,
    debug: Option<&std::path::Path>,
) -> (bool, usize) {
    // With `purify-arith`, which names the `div` and `mod` terms left once
    // the products are uninterpreted, and in a fresh context, so that the
    // answer depends on the trace alone, as for restarts.
    z3::with_z3_config(&z3::Config::new(), || {
        let mut asked = 0;
        let queries: [fn(&Trace, bool) -> Query; 2] =
            [Query::abstraction, Query::bitwise_abstraction];
        for (k, abstraction) in queries.into_iter().enumerate() {
            let query = abstraction(trace, strict);
            if !query.abstracted {
                // Linear already (or no bitwise operation to leave out):
                // this abstraction is no weaker than the query.
                continue;
            }
            let solver = Limited::with(RESTARTS[1], 0);
            set_timeout(&solver, deadline.cap(ABSTRACTION_MS << (2 * k)).0);
            for a in &query.assertions {
                solver.assert(a);
            }
            let dump = debug.and_then(|_| debug_dump(&solver));
            let started = std::time::Instant::now();
            let result = solver.check();
            asked += 1;
            let note = format!("{result:?} in {:?}", started.elapsed());
            if let Some(path) = debug {
                let file = dump.as_ref().and_then(|d| d.file_name());
                let file = file.map(|n| n.to_string_lossy().into_owned());
                debug_note(
                    path,
                    &format!("; abstraction ({}): {note}", file.unwrap_or_default()),
                );
            }
            if let Some(path) = &dump {
                debug_note(path, &format!("; abstraction: {note}"));
            }
            if result == SatResult::Unsat {
                return (true, asked);
            }
        }
        (false, asked)
    })
}

/// Time limit of the check of a query's abstraction, in milliseconds.
const ABSTRACTION_MS: u64 = 100;

/// Assignments tried by [`Query::instance_race`], and the time limit of
/// each and of all of them together, in milliseconds.
const INSTANCE_ATTEMPTS: usize = 8;
/// The brief first attempt at a nonlinear query before its instances.
const BRIEF_MS: u64 = 20;
const INSTANCE_MS: u64 = 60;
const INSTANCE_TOTAL_MS: u64 = 300;

/// `b` simplified, or `b` itself when Z3 declines: an interrupt the alarm
/// sends as a check returns can leave the context cancelled until its next
/// check, and the simplifier then fails instead of answering.
fn simplified(b: &Bool) -> Bool {
    let ctx = b.get_ctx();
    // SAFETY: `b` is a live term of `ctx`.
    match unsafe { z3_sys::Z3_simplify(ctx.get_z3_context(), b.get_z3_ast()) } {
        // SAFETY: Z3 returned a term of the same context and sort.
        Some(ast) => unsafe { Bool::wrap(ctx, ast) },
        None => b.clone(),
    }
}

/// The `attempt`-th assignment to the nonlinear globals `names`. Sizes
/// that differ expose radices swapped, in either order, so the first two
/// give the other globals distinct small values ascending, then
/// descending (a single one 2, then 3); launch dimensions get a block
/// wide enough for two threads to meet across a few rows of a size, and
/// block ids the first block; then all ones; then values drawn
/// from sizes kernels are launched with, by a fixed sequence so that runs
/// agree.
fn instance_values(names: &[(String, Int)], attempt: usize) -> Vec<i64> {
    const SIZES: [i64; 10] = [1, 2, 3, 4, 5, 8, 16, 32, 64, 256];
    const DIMS: [i64; 6] = [2, 4, 8, 32, 64, 256];
    let mut x = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(attempt as u64 + 1);
    let mut draw = |menu: &[i64]| {
        x ^= x >> 29;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 32;
        menu[(x % menu.len() as u64) as usize]
    };
    let sizes = names
        .iter()
        .filter(|(n, _)| {
            !n.starts_with("blockDim.") && !n.starts_with("gridDim.") && !n.starts_with("bid.")
        })
        .count() as i64;
    let mut k = 0;
    names
        .iter()
        .map(|(name, _)| {
            if name.starts_with("blockDim.") || name.starts_with("gridDim.") {
                return if attempt < 3 { 64 } else { draw(&DIMS) };
            }
            if name.starts_with("bid.") {
                return if attempt < 3 { 0 } else { draw(&[0, 1, 2]) };
            }
            k += 1;
            match attempt {
                0 => 1 + k,
                // One size alone would repeat attempt 0: an odd one,
                // where masks by `size - 1` are no remainders.
                1 if sizes == 1 => 3,
                1 => 2 + sizes - k,
                2 => 1,
                _ => draw(&SIZES),
            }
        })
        .collect()
}

/// The assumptions of `trace` that bound one nonlinear global by an
/// expression over the others and constants, as `(g, rel, e)` for `g rel e`.
fn instance_bounds(trace: &Trace, nonlinear: &[(String, Int)]) -> Vec<(String, Rel, Expr)> {
    fn over(e: &Expr, names: &[(String, Int)]) -> bool {
        match e {
            Expr::Int(_) => true,
            Expr::Var(v) => names.iter().any(|(n, _)| n == v),
            Expr::Bin(_, a, b) => over(a, names) && over(b, names),
            Expr::Ite(..) => false,
        }
    }
    let flip = |rel: Rel| rel.flip();
    let mut out = Vec::new();
    let mut conjuncts: Vec<&Cond> = trace.assumptions.iter().collect();
    while let Some(c) = conjuncts.pop() {
        match c {
            Cond::And(a, b) => {
                conjuncts.push(a);
                conjuncts.push(b);
            }
            Cond::Cmp(rel, a, b) => {
                for (g, rel, e) in [(a, *rel, b), (b, flip(*rel), a)] {
                    if let Expr::Var(g) = g {
                        if nonlinear.iter().any(|(n, _)| n == g) && over(e, nonlinear) {
                            out.push((g.clone(), rel, e.clone()));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The alternatives of the trace's disjunctive assumptions (`(blockDim.x
/// == 64 && n == 4096) || (blockDim.x == 128 && n == 1)`, one per launch),
/// each as the constants it fixes nonlinear globals to, by position in
/// `nonlinear`; the first such assumption, at most 16 alternatives.
fn instance_alternatives(trace: &Trace, nonlinear: &[(String, Int)]) -> Vec<Vec<(usize, i64)>> {
    for a in &trace.assumptions {
        let ds = a.disjuncts();
        if ds.len() < 2 {
            continue;
        }
        let alternatives: Vec<Vec<(usize, i64)>> = ds
            .iter()
            .take(16)
            .map(|d| {
                d.fixed_values()
                    .into_iter()
                    .filter_map(|(v, n)| Some((nonlinear.iter().position(|(g, _)| g == v)?, n)))
                    .collect()
            })
            .collect();
        if alternatives.iter().any(|a| !a.is_empty()) {
            return alternatives;
        }
    }
    Vec::new()
}

/// Moves `values` (of `names`) until each bound holds, a few rounds at
/// most: a bound `g >= e` sets `g` to `e`'s value when it is below. What
/// still fails is left for the solver to refute.
fn repair(names: &[(String, Int)], values: &mut [i64], bounds: &[(String, Rel, Expr)]) {
    for _ in 0..3 {
        let mut moved = false;
        for (g, rel, e) in bounds {
            let lookup = |v: &str| names.iter().position(|(n, _)| n == v).map(|i| values[i]);
            let Ok(target) = crate::protocol::eval::eval_expr(e, &lookup) else {
                continue;
            };
            let Some(i) = names.iter().position(|(n, _)| n == g) else {
                continue;
            };
            let now = values[i];
            let want = match rel {
                Rel::Ge if now < target => target,
                Rel::Gt if now <= target => target.saturating_add(1),
                Rel::Le if now > target => target,
                Rel::Lt if now >= target => target.saturating_sub(1),
                Rel::Eq if now != target => target,
                _ => continue,
            };
            values[i] = want;
            moved = true;
        }
        if !moved {
            break;
        }
    }
}

/// The thread-global variables of `trace` in nonlinear places: factors of
/// a product of two non-constant terms, non-constant divisors, shift
/// amounts and operands of bitwise operators; in order of the globals.
fn nonlinear_globals(trace: &Trace) -> Vec<String> {
    fn visit(e: &Expr, out: &mut BTreeSet<String>) {
        match e {
            Expr::Bin(op, a, b) => {
                let (ca, cb) = (constant(a).is_some(), constant(b).is_some());
                match op {
                    Op::Mul | Op::BitAnd | Op::BitOr | Op::BitXor if !ca && !cb => {
                        a.free_vars(out);
                        b.free_vars(out);
                    }
                    Op::Div | Op::Mod | Op::Shl | Op::Shr if !cb => b.free_vars(out),
                    _ => {}
                }
                visit(a, out);
                visit(b, out);
            }
            Expr::Ite(c, a, b) => {
                c.each_expr(&mut |e| visit(e, out));
                visit(a, out);
                visit(b, out);
            }
            Expr::Int(_) | Expr::Var(_) => {}
        }
    }
    let mut found = BTreeSet::new();
    each_expr(trace, &mut |e| visit(e, &mut found));
    trace
        .globals
        .iter()
        .filter(|g| found.contains(*g))
        .cloned()
        .collect()
}

/// `trace` with the globals `values` names fixed to constants, folded
/// where they meet other constants (`stride - 1` with `stride` 4 is `3`).
fn fixed(trace: &Trace, values: &[(&str, i64)]) -> Trace {
    let fix = |e: &Expr| {
        values
            .iter()
            .fold(e.clone(), |e, (v, c)| e.subst(v, &Expr::Int(*c)))
    };
    let mut out = trace.clone();
    out.assumptions = trace
        .assumptions
        .iter()
        .map(|c| c.map_exprs(&fix))
        .collect();
    for side in out.accesses.iter_mut() {
        for a in side.iter_mut() {
            let lock = a.lock.as_ref().map(|l| {
                values
                    .iter()
                    .fold(l.clone(), |l, (v, c)| l.subst(v, &Expr::Int(*c)))
            });
            *a = a.map_exprs(&fix);
            a.lock = lock;
        }
    }
    out
}

/// Whether some index, guard or bound of `trace` takes bit-vector
/// conversions ([`needs_bit_vectors`]).
fn uses_bit_vectors(trace: &Trace) -> bool {
    let mut found = false;
    each_expr(trace, &mut |e| found |= needs_bit_vectors(e));
    found
}

/// Each top-level expression of the trace's assumptions, indices, guards
/// and loop bounds (stored values are not encoded as such).
fn each_expr(trace: &Trace, f: &mut dyn FnMut(&Expr)) {
    for c in &trace.assumptions {
        c.each_expr(f);
    }
    for a in trace.accesses.iter().flatten() {
        a.index.iter().for_each(&mut *f);
        a.path.each_expr(f);
        for b in &a.loops {
            f(&b.lo);
            f(&b.hi);
        }
    }
}

/// With `DRFSCAN_DEBUG_SMT=DIR`, writes the solver's assertions to a new
/// `DIR/qN.smt2` and returns its path, for notes on each check.
fn debug_dump(solver: &Solver) -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("DRFSCAN_DEBUG_SMT")?;
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::path::Path::new(&dir).join(format!("q{n}.smt2"));
    std::fs::write(&path, format!("{solver}\n(check-sat)\n")).ok()?;
    Some(path)
}

fn debug_note(path: &std::path::Path, line: &str) {
    use std::io::Write;
    if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(path) {
        let _ = writeln!(f, "{line}");
    }
}

/// The time limit of queries for niceties: smaller witnesses, more races.
fn short_limit(opts: &Options, deadline: Deadline) -> u64 {
    let short = if opts.timeout_ms == 0 {
        SMALL_WITNESS_MS
    } else {
        opts.timeout_ms.min(SMALL_WITNESS_MS)
    };
    deadline.cap(short).0
}

/// Whether encoding `e` takes bit-vector conversions (a bitwise operator
/// or a shift whose operands are both non-constant), which make Z3 slow: a
/// hash's stored value is then taken as unknown, which is sound (an unknown
/// value is never shown equal, so the race is not called benign).
fn needs_bit_vectors(e: &Expr) -> bool {
    match e {
        Expr::Bin(op, a, b) => {
            let both = constant(a).is_none() && constant(b).is_none();
            (both && matches!(op, Op::BitAnd | Op::BitOr | Op::BitXor))
                || (constant(b).is_none() && matches!(op, Op::Shl | Op::Shr))
                || needs_bit_vectors(a)
                || needs_bit_vectors(b)
        }
        Expr::Ite(_, a, b) => needs_bit_vectors(a) || needs_bit_vectors(b),
        Expr::Int(_) | Expr::Var(_) => false,
    }
}

/// The Z3 terms of one trace.
struct Query {
    assertions: Vec<Bool>,
    /// Trace variables by name, in order of creation.
    vars: Vec<(String, Int)>,
    /// Access selectors `s1`, `s2`.
    select: [Int; 2],
    /// Each thread's index, one constant per dimension.
    index: [Vec<Int>; 2],
    /// Access ids by source site (position and mode): copies of one access
    /// made by unrolling or inlining. Accesses without a position stand alone.
    sites: Vec<Vec<u32>>,
    /// Thread-global variables that make the query nonlinear, by name.
    nonlinear: Vec<(String, Int)>,
    /// The trace's assumptions of the form `g rel e`, `g` one of those and
    /// `e` over them and constants (`N >= blockDim.x`, a precondition
    /// being tried): instances are moved to satisfy them.
    bounds: Vec<(String, Rel, Expr)>,
    /// The constants each alternative of a disjunctive assumption (one of
    /// several launches happens) fixes the nonlinear globals to: each
    /// instance takes one alternative's, so that it is a launch the
    /// program makes.
    alternatives: Vec<Vec<(usize, i64)>>,
    /// Some operation is uninterpreted ([`Query::abstraction`]).
    abstracted: bool,
}

impl Query {
    fn encode(trace: &Trace, strict: bool) -> Query {
        Query::encode_with(trace, strict, Encoder::default())
    }

    /// The query with every nonlinear operation an uninterpreted function
    /// ([`Encoder::abstracted`]): linear, so Z3 decides it in milliseconds,
    /// and weaker than the query, so that its `unsat` is the query's.
    fn abstraction(trace: &Trace, strict: bool) -> Query {
        let enc = Encoder {
            abstracted: Some(Abstracted::default()),
            ..Encoder::default()
        };
        Query::encode_with(trace, strict, enc)
    }

    /// The query with only its bitwise operations on two non-constants
    /// uninterpreted: their bit vectors are what Z3 gives up on, and the
    /// lemmas that relate them to their operands ([`xor_lemmas`]) may be
    /// all a proof needs, with the products left exact.
    fn bitwise_abstraction(trace: &Trace, strict: bool) -> Query {
        let enc = Encoder {
            abstracted: Some(Abstracted {
                bitwise_only: true,
                ..Abstracted::default()
            }),
            ..Encoder::default()
        };
        Query::encode_with(trace, strict, enc)
    }

    fn encode_with(trace: &Trace, strict: bool, mut enc: Encoder) -> Query {
        let recomposed = recompose(trace);
        let trace = recomposed.as_ref().unwrap_or(trace);
        enc.bits = bits::Bounds::new(&trace.assumptions);
        for name in trace.globals.iter().chain(trace.locals.iter().flatten()) {
            enc.var(name);
        }
        let mut assertions: Vec<Bool> = trace.assumptions.iter().map(|c| enc.cond(c)).collect();

        let differ: Vec<Bool> = trace
            .distinct
            .iter()
            .map(|(a, b)| enc.var(a).ne(enc.var(b)))
            .collect();
        assertions.push(Bool::or(&differ));

        let arity = trace
            .accesses
            .iter()
            .flatten()
            .map(|a| a.index.len())
            .max()
            .unwrap_or(0);
        let select = [Int::new_const("!s@1"), Int::new_const("!s@2")];
        let mode = [Int::new_const("!m@1"), Int::new_const("!m@2")];
        // The value a write stores, when known.
        let value = [Int::new_const("!v@1"), Int::new_const("!v@2")];
        let known = [Bool::new_const("!known@1"), Bool::new_const("!known@2")];
        let index: [Vec<Int>; 2] = [1, 2].map(|k| {
            (0..arity)
                .map(|d| Int::new_const(format!("!idx{d}@{k}")))
                .collect()
        });
        // Lanes in lockstep: each thread's step within its access, the
        // iteration of every enclosing loop counted from its start.
        let depth = if trace.lockstep {
            let loops = trace.accesses.iter().flatten().map(|a| a.loops.len());
            loops.max().unwrap_or(0)
        } else {
            0
        };
        let step: [Vec<Int>; 2] = [1, 2].map(|k| {
            (0..depth)
                .map(|d| Int::new_const(format!("!step{d}@{k}")))
                .collect()
        });
        // Spin locks: whether each thread holds one at its access, which
        // (an array, by its place in `lock_arrays`, and a cell).
        let mut lock_arrays: Vec<&str> = Vec::new();
        for l in trace
            .accesses
            .iter()
            .flatten()
            .filter_map(|a| a.lock.as_ref())
        {
            if !lock_arrays.contains(&l.array.as_str()) {
                lock_arrays.push(&l.array);
            }
        }
        let lock_arity = trace
            .accesses
            .iter()
            .flatten()
            .filter_map(|a| Some(a.lock.as_ref()?.index.len()))
            .max()
            .unwrap_or(0);
        let held = [Bool::new_const("!held@1"), Bool::new_const("!held@2")];
        let lock = [Int::new_const("!lock@1"), Int::new_const("!lock@2")];
        let lock_cell: [Vec<Int>; 2] = [1, 2].map(|k| {
            (0..lock_arity)
                .map(|d| Int::new_const(format!("!lockidx{d}@{k}")))
                .collect()
        });
        for k in 0..2 {
            let choices: Vec<Bool> = trace.accesses[k]
                .iter()
                .map(|a| {
                    // Values matter only to tell benign races apart.
                    let stored = a
                        .value
                        .as_ref()
                        .filter(|v| !strict && !v.exprs().any(needs_bit_vectors));
                    let chosen = enc.choice(
                        a,
                        &select[k],
                        &mode[k],
                        &index[k],
                        &step[k],
                        stored,
                        (&value[k], &known[k]),
                    );
                    if lock_arrays.is_empty() {
                        return chosen;
                    }
                    let under = match &a.lock {
                        Some(l) => {
                            let at = lock_arrays.iter().position(|x| *x == l.array);
                            let mut parts = vec![
                                held[k].clone(),
                                lock[k].eq(Int::from_u64(at.unwrap_or(0) as u64)),
                            ];
                            parts.extend(enc.at_cell(&lock_cell[k], &l.index));
                            Bool::and(&parts)
                        }
                        None => held[k].not(),
                    };
                    Bool::and(&[chosen, under])
                })
                .collect();
            assertions.push(Bool::or(&choices));
        }
        if !lock_arrays.is_empty() {
            // Two threads holding one lock are ordered by it.
            let mut same = vec![held[0].clone(), held[1].clone(), lock[0].eq(&lock[1])];
            same.extend(lock_cell[0].iter().zip(&lock_cell[1]).map(|(a, b)| a.eq(b)));
            assertions.push(Bool::and(&same).not());
        }
        if trace.lockstep {
            // The same write at the same step; anything else is ordered.
            assertions.push(select[0].eq(&select[1]));
            assertions.push(mode[0].eq(Int::from_i64(mode_code(Mode::Write))));
            for (a, b) in step[0].iter().zip(&step[1]) {
                assertions.push(a.eq(b));
            }
        }

        // Conflicting modes: a write on either side, or exactly one atomic.
        let is = |m: &Int, mode: Mode| m.eq(Int::from_i64(mode_code(mode)));
        let write = Bool::or(&[is(&mode[0], Mode::Write), is(&mode[1], Mode::Write)]);
        let mixed = is(&mode[0], Mode::Atomic).xor(is(&mode[1], Mode::Atomic));
        assertions.push(Bool::or(&[write, mixed]));
        if !strict {
            // Two writes of one known value: a benign race, not a race.
            let both = Bool::and(&[
                is(&mode[0], Mode::Write),
                is(&mode[1], Mode::Write),
                known[0].clone(),
                known[1].clone(),
                value[0].eq(&value[1]),
            ]);
            assertions.push(both.not());
        }
        for (a, b) in index[0].iter().zip(&index[1]) {
            assertions.push(a.eq(b));
        }
        assertions.extend(radix_lemmas(trace, &mut enc, &select));

        let nonlinear: Vec<(String, Int)> = nonlinear_globals(trace)
            .into_iter()
            .map(|name| {
                let v = enc.var(&name);
                (name, v)
            })
            .collect();
        let bounds = instance_bounds(trace, &nonlinear);
        let alternatives = instance_alternatives(trace, &nonlinear);
        let Encoder {
            vars,
            side,
            abstracted,
            ..
        } = enc;
        assertions.extend(side);
        let abstracted = abstracted.is_some_and(|a| !a.functions.is_empty());
        let mut by_site: Vec<((Loc, Mode), Vec<u32>)> = Vec::new();
        for a in trace.accesses.iter().flatten() {
            if a.loc.line == 0 {
                continue;
            }
            match by_site.iter_mut().find(|(s, _)| *s == (a.loc, a.mode)) {
                Some((_, ids)) if ids.contains(&a.id) => {}
                Some((_, ids)) => ids.push(a.id),
                None => by_site.push(((a.loc, a.mode), vec![a.id])),
            }
        }
        let sites = by_site.into_iter().map(|(_, ids)| ids).collect();
        Query {
            assertions,
            vars,
            select,
            index,
            sites,
            nonlinear,
            bounds,
            alternatives,
            abstracted,
        }
    }

    /// A race among small instances of the query: each assignment of
    /// [`instance_values`] to the nonlinear globals, while the time lasts.
    /// With those fixed the query is linear (products by constants,
    /// division by constants) and the solver answers in milliseconds where
    /// the symbolic query takes it seconds or defeats it. A model found is
    /// a model of the query, so the race is as real as any; finding none
    /// proves nothing. Attempts start at `first`. Returns the model (made
    /// small within the instance) with the attempt that found it, and the
    /// number of queries asked.
    ///
    /// With `refix`, each instance is the trace with those globals fixed,
    /// encoded afresh ([`fixed`]): substituted into this query's terms, a
    /// bitwise operation between a global and another operand keeps its
    /// bit-vector conversions, on which Z3 gives up as it does on the
    /// query. A model found there pins every program variable, and this
    /// query is then asked with them pinned for its own model.
    fn instance_race(
        &self,
        blocks: &[Bool],
        first: usize,
        deadline: Deadline,
        debug: Option<&std::path::Path>,
        refix: Option<(&Trace, bool)>,
    ) -> (Option<(Model, usize)>, usize) {
        let mut calls = 0;
        if self.nonlinear.is_empty() {
            return (None, calls);
        }
        let spent = std::time::Instant::now();
        // A solver of its own, for the reason `solve_first` gives.
        let solver = &Limited::new();
        for attempt in (0..INSTANCE_ATTEMPTS).map(|k| (first + k) % INSTANCE_ATTEMPTS) {
            if spent.elapsed().as_millis() as u64 >= INSTANCE_TOTAL_MS || deadline.passed() {
                break;
            }
            let limit = deadline.cap(INSTANCE_MS).0;
            set_timeout(solver, limit);
            let mut values = instance_values(&self.nonlinear, attempt);
            if !self.alternatives.is_empty() {
                let chosen = &self.alternatives[attempt % self.alternatives.len()];
                for &(i, v) in chosen {
                    values[i] = v;
                }
            }
            repair(&self.nonlinear, &mut values, &self.bounds);
            if let Some((trace, strict)) = refix {
                calls += 1;
                let started = std::time::Instant::now();
                let found = self.fixed_instance(solver, trace, strict, &values, blocks);
                if let Some(path) = debug {
                    debug_note(
                        path,
                        &format!(
                            "; instance {attempt} (fixed in the trace): {} in {:?}",
                            if found.is_some() { "Sat" } else { "no race" },
                            started.elapsed()
                        ),
                    );
                }
                if let Some(model) = found {
                    return (Some((model, attempt)), calls);
                }
                continue;
            }
            let values: Vec<Int> = values.into_iter().map(Int::from_i64).collect();
            // Substituted, not only asserted equal: the solver's
            // arithmetic sees products and divisors of constants.
            let pairs: Vec<(&Int, &Int)> =
                self.nonlinear.iter().map(|(_, v)| v).zip(&values).collect();
            solver.push();
            for a in self.assertions.iter().chain(blocks) {
                solver.assert(simplified(&a.substitute(&pairs)));
            }
            for &(v, value) in &pairs {
                solver.assert(v.eq(value));
            }
            calls += 1;
            let started = std::time::Instant::now();
            let result = solver.check();
            if let Some(path) = debug {
                debug_note(
                    path,
                    &format!(
                        "; instance {attempt}: {result:?} in {:?}",
                        started.elapsed()
                    ),
                );
            }
            let found = match result {
                SatResult::Sat => solver.get_model(),
                _ => None,
            };
            let found = found.map(|model| {
                let (small, extra, _) = self.small_model(solver, model);
                calls += extra;
                small
            });
            solver.pop(1);
            if let Some(model) = found {
                return (Some((model, attempt)), calls);
            }
        }
        (None, calls)
    }

    /// A model of this query among those of the trace with the nonlinear
    /// globals fixed to `values` ([`Query::instance_race`]).
    fn fixed_instance(
        &self,
        solver: &Limited,
        trace: &Trace,
        strict: bool,
        values: &[i64],
        blocks: &[Bool],
    ) -> Option<Model> {
        let names: Vec<(&str, i64)> = self
            .nonlinear
            .iter()
            .zip(values)
            .map(|((n, _), v)| (n.as_str(), *v))
            .collect();
        let instance = Query::encode(&fixed(trace, &names), strict);
        // Terms are named alike in both encodings: the selectors the blocks
        // constrain and the program's variables are the same constants.
        solver.push();
        for a in instance.assertions.iter().chain(blocks) {
            solver.assert(a);
        }
        for ((_, v), value) in self.nonlinear.iter().zip(values) {
            solver.assert(v.eq(Int::from_i64(*value)));
        }
        let pinned: Option<Vec<Bool>> = match solver.check() {
            SatResult::Sat => solver.get_model().and_then(|m| {
                let program = self.vars.iter().filter(|(n, _)| !n.starts_with('!'));
                program
                    .map(|(_, v)| v)
                    .chain(&self.select)
                    .map(|v| Some(v.eq(m.eval(v, true)?)))
                    .collect()
            }),
            _ => None,
        };
        solver.pop(1);
        let pinned = pinned?;
        solver.push();
        for a in self.assertions.iter().chain(blocks).chain(&pinned) {
            solver.assert(a);
        }
        let model = match solver.check() {
            SatResult::Sat => solver.get_model(),
            _ => None,
        };
        solver.pop(1);
        model
    }

    /// A model whose trace variables all lie within the smallest bound of
    /// [`WITNESS_BOUNDS`] that admits one, else `model`; with the number of
    /// extra queries asked.
    fn small_model(&self, solver: &Limited, model: Model) -> (Model, usize, Option<i64>) {
        let max_abs = |m: &Model| {
            self.vars
                .iter()
                .map(|(_, v)| {
                    m.eval(v, true)
                        .and_then(|x| x.as_i64())
                        .map_or(u64::MAX, i64::unsigned_abs)
                })
                .max()
                .unwrap_or(0)
        };
        let found = max_abs(&model);
        let mut calls = 0;
        for bound in WITNESS_BOUNDS {
            if found <= bound.unsigned_abs() {
                return (model, calls, Some(bound));
            }
            solver.push();
            self.assert_bound(solver, bound);
            calls += 1;
            let r = solver.check();
            let gave_up = matches!(r, SatResult::Unknown);
            let small = match r {
                SatResult::Sat => solver.get_model(),
                _ => None,
            };
            solver.pop(1);
            if let Some(m) = small {
                return (m, calls, Some(bound));
            }
            // A larger bound is no easier than a smaller one that timed out.
            if gave_up {
                break;
            }
        }
        (model, calls, None)
    }

    /// Whether `model` satisfies every assertion of the query.
    fn satisfied_by(&self, model: &Model) -> bool {
        self.assertions
            .iter()
            .all(|a| model.eval(a, true).and_then(|v| v.as_bool()) == Some(true))
    }

    /// Every trace variable within `-bound..=bound`.
    fn assert_bound(&self, solver: &Solver, bound: i64) {
        for (_, v) in &self.vars {
            solver.assert(v.ge(Int::from_i64(-bound)));
            solver.assert(v.le(Int::from_i64(bound)));
        }
    }

    fn race(&self, model: &Model) -> Result<RawRace, String> {
        let value = |v: &Int| -> Result<i64, String> {
            model
                .eval(v, true)
                .and_then(|x| x.as_i64())
                .ok_or_else(|| format!("model value of {v} does not fit in 64 bits"))
        };
        let access = |v: &Int| -> Result<u32, String> {
            u32::try_from(value(v)?).map_err(|_| format!("model selects no access through {v}"))
        };
        let accesses = [access(&self.select[0])?, access(&self.select[1])?];
        let index = self.index[0].iter().map(value).collect::<Result<_, _>>()?;
        let mut values = BTreeMap::new();
        // Names the encoding made (`!modulus0`) are no program values.
        for (name, v) in self.vars.iter().filter(|(n, _)| !n.starts_with('!')) {
            values.insert(name.clone(), value(v)?);
        }
        Ok(RawRace {
            accesses,
            index,
            values,
        })
    }

    /// Excludes the unordered access pair `{i, j}` from further models,
    /// with every copy of their source sites: the report shows one race per
    /// pair of source accesses, so further copies would only cost queries.
    fn block(&self, [i, j]: [u32; 2]) -> Bool {
        let copies = |id: u32| -> Vec<u32> {
            self.sites
                .iter()
                .find(|s| s.contains(&id))
                .cloned()
                .unwrap_or(vec![id])
        };
        let (a, b) = (copies(i), copies(j));
        let chose = |k: usize, ids: &[u32]| {
            Bool::or(
                &ids.iter()
                    .map(|&id| self.select[k].eq(Int::from_u64(id.into())))
                    .collect::<Vec<_>>(),
            )
        };
        Bool::and(&[
            Bool::and(&[chose(0, &a), chose(1, &b)]).not(),
            Bool::and(&[chose(0, &b), chose(1, &a)]).not(),
        ])
    }
}

/// `trace` with each index that recomposes a dividend's mixed-radix digits
/// replaced by the dividend ([`radix::recomposed`]), exact quotients
/// written as such and guards divided by their common factor
/// ([`radix::exact_quotients`], [`radix::exact_comparisons`]); `None` when
/// nothing changes.
fn recompose(trace: &Trace) -> Option<Trace> {
    let spread = sums_of_disjoint_bits(trace);
    let trace = spread.as_ref().unwrap_or(trace);
    let facts = radix::Facts::new(&trace.assumptions);
    let mut out = None;
    // Divisors both threads share, each named by a variable equal to it.
    let mut moduli: Vec<(Expr, String)> = Vec::new();
    let mut modulus = |d: &Expr| {
        // A variable is a modulus already.
        if matches!(d, Expr::Var(_)) {
            return None;
        }
        let mut vars = BTreeSet::new();
        d.free_vars(&mut vars);
        if vars.iter().any(|v| v.contains('@')) {
            return None;
        }
        if let Some((_, n)) = moduli.iter().find(|(e, _)| e == d) {
            return Some(n.clone());
        }
        let n = format!("!modulus{}", moduli.len());
        moduli.push((d.clone(), n.clone()));
        Some(n)
    };
    for (k, accesses) in trace.accesses.iter().enumerate() {
        for (i, a) in accesses.iter().enumerate() {
            if let Some(path) = radix::exact_comparisons(&a.path, &facts) {
                out.get_or_insert_with(|| trace.clone()).accesses[k][i].path = path;
            }
            for (d, e) in a.index.iter().enumerate() {
                let exact = radix::exact_quotients(e, &facts);
                let e = exact.as_ref().unwrap_or(e);
                let x = radix::recomposed(e, &facts)
                    .or_else(|| radix::decomposed(e, &mut modulus))
                    .or(exact.clone());
                if let Some(x) = x {
                    out.get_or_insert_with(|| trace.clone()).accesses[k][i].index[d] = x;
                }
            }
        }
    }
    if let Some(t) = out.as_mut() {
        for (d, n) in moduli {
            let positive = radix::above_a_bound(&d, &t.assumptions);
            t.assumptions.push(Cond::cmp(Rel::Eq, Expr::var(&n), d));
            if positive {
                t.assumptions
                    .push(Cond::cmp(Rel::Ge, Expr::var(&n), Expr::Int(1)));
            }
        }
    }
    out.or(spread)
}

/// How many single-thread queries [`implied_columns`] asks of one trace.
const MAX_IMPLIED_COLUMNS: usize = 8;
/// The work each of those queries may take, in Z3's units: a bound that
/// does not depend on the machine's load, so that a trace is rewritten
/// alike on every run.
const IMPLIED_COLUMN_RLIMIT: u32 = 200_000;
const IMPLIED_COLUMN_MS: u64 = 1_000;

/// `trace` with a guard `0 <= X && X < W` added to each access whose index
/// `W * row + X` is a mixed-radix number only under it, when the solver
/// shows the access's path, loops and the trace's assumptions imply it for
/// one thread: a column the launch keeps in its row (`tid + blockDim.x`
/// under `!(W % 2 && tid == blockDim.x - 1)` with `blockDim.x == (W + 1) /
/// 2`), which no guard states. The radix lemmas then apply; `None` when
/// no access gains one.
fn implied_columns(trace: &Trace) -> Option<Trace> {
    let facts = radix::Facts::new(&trace.assumptions);
    let mut out: Option<Trace> = None;
    let mut asked = 0;
    for (k, accesses) in trace.accesses.iter().enumerate() {
        let suffix = format!("@{}", k + 1);
        for (i, a) in accesses.iter().enumerate() {
            for e in &a.index {
                if facts.shape(e, a, &suffix).is_some() {
                    continue;
                }
                for (x, w) in facts.unguarded_columns(e, &suffix) {
                    if asked == MAX_IMPLIED_COLUMNS {
                        return out;
                    }
                    let within = Cond::and(
                        Cond::cmp(Rel::Le, Expr::Int(0), x.clone()),
                        Cond::cmp(Rel::Lt, x, w),
                    );
                    // On the guards an earlier dimension gained.
                    let mut strengthened = match &out {
                        Some(t) => t.accesses[k][i].clone(),
                        None => a.clone(),
                    };
                    strengthened.path = Cond::and(strengthened.path, within.clone());
                    // Only a guard that makes the index a number is asked.
                    if facts.shape(e, &strengthened, &suffix).is_none() {
                        continue;
                    }
                    asked += 1;
                    let mut conds = trace.assumptions.clone();
                    conds.push(a.path.clone());
                    conds.extend(a.loops.iter().map(Binder::range));
                    conds.push(Cond::not(within));
                    if satisfiable_within(&conds, IMPLIED_COLUMN_RLIMIT, IMPLIED_COLUMN_MS)
                        == Some(false)
                    {
                        out.get_or_insert_with(|| trace.clone()).accesses[k][i].path =
                            strengthened.path;
                        break;
                    }
                }
            }
        }
    }
    out
}

/// `trace` with bitwise operations on operands without a common one bit
/// written as sums ([`bits`]); `None` when it has none.
fn sums_of_disjoint_bits(trace: &Trace) -> Option<Trace> {
    let bounds = bits::Bounds::new(&trace.assumptions);
    let mut out: Option<Trace> = None;
    for (k, accesses) in trace.accesses.iter().enumerate() {
        for (i, a) in accesses.iter().enumerate() {
            let b = a.map_exprs(&|e| bounds.rewrite(e).unwrap_or_else(|| e.clone()));
            if b != *a {
                out.get_or_insert_with(|| trace.clone()).accesses[k][i] = b;
            }
        }
    }
    out
}

/// Mixed-radix lemmas ([`radix`]): for each dimension, accesses whose
/// index there is a mixed-radix number of one shape get digit constants per
/// thread, and two threads that both chose an access of that shape (and
/// reach the same index, which the query asserts) have equal digits.
fn radix_lemmas(trace: &Trace, enc: &mut Encoder, select: &[Int; 2]) -> Vec<Bool> {
    let facts = radix::Facts::new(&trace.assumptions);
    let arity = trace
        .accesses
        .iter()
        .flatten()
        .map(|a| a.index.len())
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    for d in 0..arity {
        let mut indexes: Numbers = Default::default();
        for (k, accesses) in trace.accesses.iter().enumerate() {
            indexes[k] = accesses
                .iter()
                .filter_map(|a| Some((a, a.index.get(d)?.clone())))
                .collect();
        }
        for (g, (_, members)) in by_shape(&facts, &indexes).iter().enumerate() {
            let prefix = format!("!digit{d}.{g}");
            out.extend(digit_lemmas(enc, select, members, &prefix, None));
            out.extend(inner_digit_lemmas(
                trace, enc, select, &facts, members, &prefix,
            ));
        }
        out.extend(division_lemmas(trace, enc, select, &facts, d));
    }
    // Nested quotients of one dividend: `x / (a * q) == (x / a) / q` when
    // `a` and `q` are positive (floor division), a theorem.
    let indexes: Vec<&Expr> = trace
        .accesses
        .iter()
        .flatten()
        .flat_map(|a| a.index.iter())
        .collect();
    for (whole, part, q) in radix::nested_quotients(&indexes) {
        let Expr::Bin(_, _, a) = &part else { continue };
        let positive = Bool::and(&[
            enc.expr(a).gt(Int::from_i64(0)),
            enc.expr(&q).gt(Int::from_i64(0)),
        ]);
        let nested = Expr::bin(Op::Div, part.clone(), q.clone());
        out.push(positive.implies(enc.expr(&whole).eq(enc.expr(&nested))));
    }
    // Division is unique both ways: a number is its quotient and remainder
    // (`tid % (n * n) / n` and `tid % (n * n) % n` give back `tid % (n * n)`),
    // so equal quotients and remainders by one divisor mean equal numbers,
    // a theorem of the encoding (`x % 0` is `x`). Z3 finds it only through
    // the products `d * q`, slowly.
    // When the numbers are mixed-radix (`tid.x + blockIdx.x * blockDim.x`),
    // their digits are equal in turn.
    let per_thread: Vec<Vec<(Expr, Expr, Vec<&TraceAccess>)>> = trace
        .accesses
        .iter()
        .map(|accesses| {
            let mut found: Vec<(Expr, Expr, Vec<&TraceAccess>)> = Vec::new();
            for a in accesses {
                let indexes: Vec<&Expr> = a.index.iter().collect();
                for (x, d) in radix::quotient_remainder_pairs(&indexes) {
                    match found.iter_mut().find(|(y, e, _)| *y == x && *e == d) {
                        Some((_, _, users)) => users.push(a),
                        None => found.push((x, d, vec![a])),
                    }
                }
            }
            found
        })
        .collect();
    if let [first, second] = per_thread.as_slice() {
        let mut n = 0;
        for (x1, d, users1) in first.iter().take(MAX_RECOMPOSED) {
            for (x2, _, users2) in second
                .iter()
                .filter(|(_, e, _)| e == d)
                .take(MAX_RECOMPOSED)
            {
                let mut part = |op: Op, x: &Expr| enc.expr(&Expr::bin(op, x.clone(), d.clone()));
                let (q1, q2) = (part(Op::Div, x1), part(Op::Div, x2));
                let (r1, r2) = (part(Op::Mod, x1), part(Op::Mod, x2));
                let same = Bool::and(&[q1.eq(&q2), r1.eq(&r2)]);
                let equal = enc.expr(x1).eq(enc.expr(x2));
                out.push(same.implies(&equal));
                let numbers: Numbers = [
                    users1.iter().map(|a| (*a, x1.clone())).collect(),
                    users2.iter().map(|a| (*a, x2.clone())).collect(),
                ];
                for (g, (_, members)) in by_shape(&facts, &numbers).iter().enumerate() {
                    out.extend(digit_lemmas(
                        enc,
                        select,
                        members,
                        &format!("!wholedigit{n}.{g}"),
                        Some(equal.clone()),
                    ));
                }
                n += 1;
            }
        }
    }
    out.extend(dividend_digit_lemmas(trace, enc, select, &facts));
    out.extend(monotone_lemmas(trace, enc));
    out.extend(congruence_lemmas(trace, enc));
    out.extend(xor_lemmas(trace, enc));
    out.extend(id_product_lemmas(trace, enc));
    out.extend(stride_lemmas(trace, enc));
    out
}

/// An id times a launch size stays below its count times that size
/// (`bid.y * gridDim.x + gridDim.x <= gridDim.y * gridDim.x`), and the two
/// threads' ids by one size are as far apart as the ids, in sizes
/// (`b1 >= b2 + 1` gives `b1 * S >= b2 * S + S`). So a block's row-major
/// number `bid.y * gridDim.x + bid.x` is below the grid's count of blocks,
/// and two blocks' numbers are apart by whole rows. Frames laid out one
/// after another by that count (a frame of `gridDim.x * gridDim.y`
/// macroblocks per kind of result) are disjoint only by these; Z3 finds
/// them by nonlinear search, or not at all. Theorems of the encoding
/// (`0 <= id < count`, sizes positive). A loop variable by a parameter
/// would take the same lemmas, but its products are many and the lemmas
/// slow the queries they do not settle.
fn id_product_lemmas(trace: &Trace, enc: &mut Encoder) -> Vec<Bool> {
    let mut found: Vec<DigitProduct> = Vec::new();
    each_expr(trace, &mut |e| collect_digit_products(e, &mut found));
    let products = products_of(trace);
    // Only where the count's product is in the trace (a frame of
    // `gridDim.x * gridDim.y` blocks, a grid-stride step): elsewhere the
    // lemmas add terms the query does not have, and Z3 spends time on them.
    found.retain(|f| {
        [
            Expr::bin(Op::Mul, f.bound.clone(), f.size.clone()),
            Expr::bin(Op::Mul, f.size.clone(), f.bound.clone()),
        ]
        .iter()
        .any(|whole| products.contains(whole))
    });
    found.truncate(MAX_DIGIT_PRODUCTS);
    let mut out = Vec::new();
    for f in &found {
        let below = Int::add(&[enc.expr(&f.product), enc.expr(&f.size)]);
        // The count's product both ways round: the abstraction of a query
        // takes products as uninterpreted terms.
        for whole in [
            Expr::bin(Op::Mul, f.bound.clone(), f.size.clone()),
            Expr::bin(Op::Mul, f.size.clone(), f.bound.clone()),
        ] {
            out.push(below.le(enc.expr(&whole)));
        }
    }
    for (i, f) in found.iter().enumerate() {
        for g in &found[i + 1..] {
            // The two threads' copies of one id.
            if f.size != g.size || f.digit == g.digit || base(&f.digit) != base(&g.digit) {
                continue;
            }
            let (a, b) = (enc.expr(&f.digit), enc.expr(&g.digit));
            let (pa, pb, s) = (
                enc.expr(&f.product),
                enc.expr(&g.product),
                enc.expr(&f.size),
            );
            for (x, y, px, py) in [(&a, &b, &pa, &pb), (&b, &a, &pb, &pa)] {
                let apart = Int::sub(&[px.clone(), py.clone()]).ge(&s);
                out.push(Bool::or(&[x.le(y), apart]));
            }
        }
    }
    out
}

/// Two threads' multiples of one factor both share are whole factors
/// apart: `f > 0 && u1 < u2` gives `f * u1 + f <= f * u2`. Tiles laid out
/// `f` cells apart, `f` computed from a parameter
/// (`(16 - 2 * it) * bid.x + tid.x` with `it <= tid.x < 16 - it`), and
/// rows of a parameter's length (`W * row + col` with `0 <= col < W`) are
/// disjoint by these alone once products are uninterpreted; only for that
/// abstraction ([`Query::abstraction`]), as the exact query has them as
/// theorems already and Z3 spends its time on the extra terms there.
fn stride_lemmas(trace: &Trace, enc: &mut Encoder) -> Vec<Bool> {
    if enc.abstracted.as_ref().is_none_or(|a| a.bitwise_only) {
        return Vec::new();
    }
    let products = products_of(trace);
    let zero = Int::from_i64(0);
    let mut out = Vec::new();
    let mut found = 0;
    for p in &products {
        let Expr::Bin(Op::Mul, a, b) = p else {
            continue;
        };
        for (f, u) in [(a, b), (b, a)] {
            if constant(f).is_some() || constant(u).is_some() || of_a_thread(f) {
                continue;
            }
            let twin = other_thread(p);
            if twin == *p || !products.contains(&twin) {
                continue;
            }
            if found == MAX_STRIDE_PRODUCTS {
                return out;
            }
            found += 1;
            let factor = enc.expr(f);
            let (u1, u2) = (enc.expr(u), enc.expr(&other_thread(u)));
            let (p1, p2) = (enc.expr(p), enc.expr(&twin));
            let positive = factor.gt(&zero);
            for (x, y, px, py) in [(&u1, &u2, &p1, &p2), (&u2, &u1, &p2, &p1)] {
                let apart = Int::add(&[px.clone(), factor.clone()]).le(py);
                out.push(Bool::and(&[positive.clone(), x.lt(y)]).implies(&apart));
            }
        }
    }
    out
}

/// How many products of a shared factor get [`stride_lemmas`].
const MAX_STRIDE_PRODUCTS: usize = 16;

/// Whether `e` names a variable of one thread (`v@1`, `v@2`).
fn of_a_thread(e: &Expr) -> bool {
    let mut vars = BTreeSet::new();
    e.free_vars(&mut vars);
    vars.iter().any(|v| v.ends_with("@1") || v.ends_with("@2"))
}

/// The products in the trace's expressions, once each, outermost first.
fn products_of(trace: &Trace) -> Vec<Expr> {
    let mut products: Vec<Expr> = Vec::new();
    each_expr(trace, &mut |e| {
        each_product(e, &mut |p| {
            if !products.contains(p) {
                products.push(p.clone());
            }
        })
    });
    products
}

/// Each product in `e`, outermost first.
fn each_product(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match e {
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Bin(op, a, b) => {
            if *op == Op::Mul {
                f(e);
            }
            each_product(a, f);
            each_product(b, f);
        }
        Expr::Ite(_, a, b) => {
            each_product(a, f);
            each_product(b, f);
        }
    }
}

/// How many products of an id by a launch size get lemmas.
const MAX_DIGIT_PRODUCTS: usize = 16;

/// A thread's name without the suffix that makes it that thread's.
fn base(e: &Expr) -> &str {
    match e {
        Expr::Var(v) => v.strip_suffix("@1").or(v.strip_suffix("@2")).unwrap_or(v),
        _ => "",
    }
}

/// `id * size` as the trace writes it, with the id's count.
#[derive(Clone, PartialEq)]
struct DigitProduct {
    product: Expr,
    digit: Expr,
    bound: Expr,
    size: Expr,
}

/// The products in `e` of a thread's or block's id (either thread's, or
/// the one both share) by a launch size or a product of them.
fn collect_digit_products(e: &Expr, out: &mut Vec<DigitProduct>) {
    match e {
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Bin(op, a, b) => {
            if *op == Op::Mul {
                for (x, size) in [(a, b), (b, a)] {
                    let count = builtin::count_of(base(x));
                    if let Some(n) = count.filter(|_| monotone::positive_size(size)) {
                        let item = DigitProduct {
                            product: e.clone(),
                            digit: (**x).clone(),
                            bound: Expr::var(n),
                            size: (**size).clone(),
                        };
                        if !out.contains(&item) {
                            out.push(item);
                        }
                    }
                }
            }
            collect_digit_products(a, out);
            collect_digit_products(b, out);
        }
        Expr::Ite(_, a, b) => {
            collect_digit_products(a, out);
            collect_digit_products(b, out);
        }
    }
}

/// Exclusive or by one value is a bijection that is its own inverse: for
/// `t1 = x1 ^ c` and `t2 = x2 ^ c` of the two threads, `t1 == t2` exactly
/// when `x1 == x2`, and `t1 == x2` exactly when `t2 == x1`. A bitonic
/// step's partners (`ixj = i ^ j`, the lower of each pair accessing both)
/// are apart by these alone; through the bit vectors Z3 gives up.
fn xor_lemmas(trace: &Trace, enc: &mut Encoder) -> Vec<Bool> {
    // Per thread, `(x, c, x ^ c as written)` for each operand order.
    let found = operands_per_thread(trace, Op::BitXor, true).map(|xors| {
        let mut out: Vec<(Expr, Expr, Expr)> = Vec::new();
        for (a, b) in xors {
            let written = Expr::bin(Op::BitXor, a.clone(), b.clone());
            out.push((a.clone(), b.clone(), written.clone()));
            out.push((b, a, written));
        }
        out
    });
    let mut out = Vec::new();
    let pairs = found[0]
        .iter()
        .flat_map(|(x1, c, t1)| {
            found[1]
                .iter()
                .filter(move |(x2, d, _)| d == c && x2 != x1)
                .map(move |(x2, _, t2)| (x1, t1, x2, t2))
        })
        .take(MAX_XORS);
    for (x1, t1, x2, t2) in pairs {
        let (t1, t2) = (enc.expr(t1), enc.expr(t2));
        let (e1, e2) = (enc.expr(x1), enc.expr(x2));
        out.push(t1.eq(&t2).iff(e1.eq(&e2)));
        out.push(t1.eq(&e2).iff(t2.eq(&e1)));
    }
    out
}

/// How many pairs of exclusive ors get bijection lemmas.
const MAX_XORS: usize = 8;

/// Digits that are sums under a guard (a row's column `bx * B + tx < W`,
/// a grid-stride loop's row `by + k * gy < rows`) are mixed-radix numbers
/// of their own: equal digits (the constants `{prefix}.{i}@k` of
/// [`digit_lemmas`]) have equal digits in turn, which tells the threads
/// apart without nonlinear search.
fn inner_digit_lemmas(
    trace: &Trace,
    enc: &mut Encoder,
    select: &[Int; 2],
    facts: &radix::Facts,
    members: &[Vec<(u32, radix::Digits)>; 2],
    prefix: &str,
) -> Vec<Bool> {
    let mut out = Vec::new();
    let places = members[0].first().map_or(0, |(_, d)| d.len());
    for i in 0..places {
        let compound = members
            .iter()
            .flatten()
            .any(|(_, digits)| !matches!(digits.get(i), Some(Expr::Var(_))));
        if !compound {
            continue;
        }
        let mut numbers: Numbers = Default::default();
        for (k, list) in members.iter().enumerate() {
            numbers[k] = list
                .iter()
                .filter_map(|(id, digits)| {
                    let a = trace.accesses[k].iter().find(|a| a.id == *id)?;
                    Some((a, digits.get(i)?.clone()))
                })
                .collect();
        }
        let digit = |k: usize| Int::new_const(format!("{prefix}.{i}@{}", k + 1));
        let equal = digit(0).eq(digit(1));
        for (g, (shape, inner)) in by_shape(facts, &numbers).iter().enumerate() {
            if shape.places() > 1 {
                out.extend(digit_lemmas(
                    enc,
                    select,
                    inner,
                    &format!("{prefix}.{i}.{g}"),
                    Some(equal.clone()),
                ));
            }
        }
    }
    out
}

/// A dividend that is itself mixed-radix (the thread's rank in a 3-D block,
/// `tid.x + tid.y * blockDim.x + tid.z * blockDim.x * blockDim.y`, divided
/// into warps by 32) has equal digits in the two threads when it is equal:
/// then equal warps and lanes (`rank / 32`, `rank % 32`, which Z3 links
/// to the rank linearly) mean equal ids, without nonlinear search.
fn dividend_digit_lemmas(
    trace: &Trace,
    enc: &mut Encoder,
    select: &[Int; 2],
    facts: &radix::Facts,
) -> Vec<Bool> {
    let mut out = Vec::new();
    let mut dividends: Vec<Expr> = Vec::new();
    for a in trace.accesses[0].iter() {
        let mut found = Vec::new();
        for e in &a.index {
            radix::divisions(e, &mut found);
        }
        for (_, x, d) in found {
            let local = {
                let mut vars = BTreeSet::new();
                x.free_vars(&mut vars);
                vars.iter().any(|v| v.ends_with("@1"))
            };
            if local && constant(d).is_some() && !dividends.contains(x) {
                dividends.push(x.clone());
            }
        }
    }
    for (n, x1) in dividends.iter().take(MAX_RECOMPOSED).enumerate() {
        let x2 = other_thread(x1);
        let numbers: Numbers = [
            trace.accesses[0].iter().map(|a| (a, x1.clone())).collect(),
            trace.accesses[1].iter().map(|a| (a, x2.clone())).collect(),
        ];
        let groups = by_shape(facts, &numbers);
        // A dividend of one digit is its own digit: nothing to add.
        let Some((shape, members)) = groups.first() else {
            continue;
        };
        if groups.len() > 1 || shape.places() < 2 {
            continue;
        }
        let equal = enc.expr(x1).eq(enc.expr(&x2));
        out.extend(digit_lemmas(
            enc,
            select,
            members,
            &format!("!dividenddigit{n}"),
            Some(equal),
        ));
    }
    out
}

/// `e` of thread 1 as thread 2's: every `v@1` renamed `v@2`.
fn other_thread(e: &Expr) -> Expr {
    let mut vars = BTreeSet::new();
    e.free_vars(&mut vars);
    vars.iter()
        .filter_map(|v| Some((v, v.strip_suffix("@1")?)))
        .fold(e.clone(), |e, (v, base)| {
            e.subst(v, &Expr::var(&format!("{base}@2")))
        })
}

/// Floor division by a positive divisor, and multiplication by a factor
/// that is not negative, keep order: for quotients of the two threads by
/// one divisor (`n * p / s` and `n * (p + 1) / s`, the even split of `n`
/// items over `s` threads), `x1 <= x2` gives `x1 / s <= x2 / s`, and
/// `a1 <= a2` gives `c * a1 <= c * a2`. Theorems, which Z3 finds only by
/// nonlinear search.
fn monotone_lemmas(trace: &Trace, enc: &mut Encoder) -> Vec<Bool> {
    let zero = Int::from_i64(0);
    let mut out = Vec::new();
    let found = operands_per_thread(trace, Op::Div, false);
    for (x1, x2, s) in pairs_by_divisor(&found, MAX_MONOTONE) {
        let divisor = enc.expr(s);
        let (e1, e2) = (enc.expr(x1), enc.expr(x2));
        let (q1, q2) = (
            enc.expr(&Expr::bin(Op::Div, x1.clone(), s.clone())),
            enc.expr(&Expr::bin(Op::Div, x2.clone(), s.clone())),
        );
        let positive = divisor.gt(&zero);
        for (a, b, qa, qb) in [(&e1, &e2, &q1, &q2), (&e2, &e1, &q2, &q1)] {
            out.push(Bool::and(&[positive.clone(), a.le(b)]).implies(qa.le(qb)));
        }
        // The dividends' common factor: `n * p1` and `n * p2`.
        if let (Expr::Bin(Op::Mul, c1, a1), Expr::Bin(Op::Mul, c2, a2)) = (x1, x2) {
            if c1 == c2 {
                let factor = enc.expr(c1);
                let (a1, a2) = (enc.expr(a1), enc.expr(a2));
                let never_negative = factor.ge(&zero);
                for (a, b, pa, pb) in [(&a1, &a2, &e1, &e2), (&a2, &a1, &e2, &e1)] {
                    out.push(Bool::and(&[never_negative.clone(), a.le(b)]).implies(pa.le(pb)));
                }
            }
        }
    }
    out
}

/// How many pairs of quotients get order lemmas.
const MAX_MONOTONE: usize = 8;

/// Remainders by one divisor that is not a constant keep their
/// difference: `(x1 - x2) % m == (x1 % m - x2 % m) % m`, a theorem of the
/// encoding (Euclidean remainders, and `x % 0 == x` on both sides). With
/// it, the guards of an interleaved reduction (`gid % (2 * s) == 0` in
/// both threads, one reading `tid + s` where the other writes) contradict
/// each other linearly once the indexes make `tid1 - tid2 == s`; Z3 finds
/// that only by nonlinear search, seconds on the simplest kernel.
fn congruence_lemmas(trace: &Trace, enc: &mut Encoder) -> Vec<Bool> {
    let found = operands_per_thread(trace, Op::Mod, true);
    let found = found.map(|f| {
        f.into_iter()
            .filter(|(_, m)| constant(m).is_none())
            .collect()
    });
    let pairs = pairs_by_divisor(&found, MAX_CONGRUENCES);
    let rem = |x: Expr, m: &Expr| Expr::bin(Op::Mod, x, m.clone());
    let mut out = Vec::new();
    for (x1, x2, m) in pairs {
        let whole = rem(crate::imp::simplify(&Expr::sub(x1.clone(), x2.clone())), m);
        let parts = rem(Expr::sub(rem(x1.clone(), m), rem(x2.clone(), m)), m);
        out.push(enc.expr(&whole).eq(enc.expr(&parts)));
        // Equal remainders of dividends less than `m` apart: equal
        // dividends (a diagonal block order's `(bx + by) % gridDim.x`,
        // `by` below it, is one-to-one).
        let (r1, r2) = (enc.expr(&rem(x1.clone(), m)), enc.expr(&rem(x2.clone(), m)));
        let (a, b, m) = (enc.expr(x1), enc.expr(x2), enc.expr(m));
        let apart = Bool::and(&[
            r1.eq(&r2),
            m.ge(Int::from_i64(1)),
            Int::sub(&[a.clone(), b.clone()]).lt(&m),
            Int::sub(&[b.clone(), a.clone()]).lt(&m),
        ]);
        out.push(apart.implies(a.eq(&b)));
    }
    out
}

/// How many pairs of remainders get congruence lemmas.
const MAX_CONGRUENCES: usize = 8;

/// Each thread's operations by `op` (a division, a remainder, an
/// exclusive or), as pairs of operands without repeats, in its accesses'
/// loop bounds and indexes, and with `paths` in the conditions they are
/// under.
fn operands_per_thread(trace: &Trace, op: Op, paths: bool) -> [Vec<(Expr, Expr)>; 2] {
    trace.accesses.each_ref().map(|accesses| {
        let mut out: Vec<(Expr, Expr)> = Vec::new();
        let mut add = |e: &Expr| {
            let mut found = Vec::new();
            radix::operations(e, &[op], &mut found);
            for (_, x, d) in found {
                let pair = (x.clone(), d.clone());
                if !out.contains(&pair) {
                    out.push(pair);
                }
            }
        };
        for a in accesses {
            for b in &a.loops {
                add(&b.lo);
                add(&b.hi);
            }
            a.index.iter().for_each(&mut add);
            if paths {
                a.path.each_expr(&mut add);
            }
        }
        out
    })
}

/// Pairs of different dividends of the two threads by one divisor, at
/// most `max`: `(x1, x2, d)`.
fn pairs_by_divisor(found: &[Vec<(Expr, Expr)>; 2], max: usize) -> Vec<(&Expr, &Expr, &Expr)> {
    let [first, second] = found;
    first
        .iter()
        .flat_map(|(x1, d)| {
            second
                .iter()
                .filter(move |(_, e)| e == d)
                .map(move |(x2, _)| (x1, x2, d))
        })
        .filter(|(x1, x2, _)| x1 != x2)
        .take(max)
        .collect()
}

/// How many dividends of one thread get recomposition lemmas, per divisor
/// of the other's.
const MAX_RECOMPOSED: usize = 4;

/// Division lemmas ([`radix::Modulus`]): `W · Y + X` with `0 ≤ X < W` in
/// both threads and equal indices means equal `Y` and equal `X`; then the
/// parts' own mixed-radix digits are equal too, and the parts are split
/// again the same way (`i + nx · (j + ny · k)`: first by `nx`, then `i` by
/// its block size and `j + ny · k` by `ny`).
fn division_lemmas(
    trace: &Trace,
    enc: &mut Encoder,
    select: &[Int; 2],
    facts: &radix::Facts,
    d: usize,
) -> Vec<Bool> {
    let mut parts: Numbers = Default::default();
    for (k, accesses) in trace.accesses.iter().enumerate() {
        for a in accesses {
            match a.index.get(d) {
                Some(e) => parts[k].push((a, e.clone())),
                // An access without this dimension leaves nothing to split.
                None => return Vec::new(),
            }
        }
    }
    let mut split = Split {
        enc,
        select,
        facts,
        out: Vec::new(),
        left: MAX_SPLITS,
    };
    // Breadth first: the index's own divisions before their parts'.
    let mut queue = std::collections::VecDeque::from([(parts, d.to_string(), None, SPLIT_DEPTH)]);
    while let Some((parts, tag, premise, depth)) = queue.pop_front() {
        for (halves, tag, equal) in split.parts(&parts, &tag, premise) {
            if depth > 1 {
                queue.push_back((halves, tag, Some(equal), depth - 1));
            }
        }
    }
    split.out
}

/// Numbers to divide: per thread, each access with its number.
type Numbers<'t> = [Vec<(&'t TraceAccess, Expr)>; 2];

/// Per thread, the accesses whose numbers are mixed-radix, with their
/// digits, grouped by shape.
#[allow(clippy::type_complexity)]
fn by_shape(
    facts: &radix::Facts,
    numbers: &Numbers,
) -> Vec<(radix::Shape, [Vec<(u32, radix::Digits)>; 2])> {
    let mut groups: Vec<(radix::Shape, [Vec<(u32, radix::Digits)>; 2])> = Vec::new();
    for (k, list) in numbers.iter().enumerate() {
        let suffix = format!("@{}", k + 1);
        for (a, e) in list {
            let Some((shape, digits)) = facts.shape(e, a, &suffix) else {
                continue;
            };
            match groups.iter_mut().find(|(s, _)| *s == shape) {
                Some((_, g)) => g[k].push((a.id, digits)),
                None => {
                    let mut g: [Vec<(u32, radix::Digits)>; 2] = Default::default();
                    g[k].push((a.id, digits));
                    groups.push((shape, g));
                }
            }
        }
    }
    groups
}

/// How deep the parts of a division are divided again.
const SPLIT_DEPTH: u32 = 3;
/// How many divisions one dimension of a query gets at most: each adds two
/// constants per thread and a lemma per access.
const MAX_SPLITS: usize = 6;
/// How many moduli one number is tried with at most. A modulus whose
/// remainder is not seen in range adds nothing to the query, so many are
/// tried: across blocks `(4·bz + tz)·h·w + (8·by + ty)·w + 16·bx + tx` has
/// six candidates, and the one that works (`w`) comes fifth.
const MODULI_PER_NUMBER: usize = 16;

/// The state of [`division_lemmas`]: lemmas so far and divisions left.
struct Split<'a> {
    enc: &'a mut Encoder,
    select: &'a [Int; 2],
    facts: &'a radix::Facts,
    out: Vec<Bool>,
    left: usize,
}

impl Split<'_> {
    /// Lemmas for the numbers `parts` (per thread, per access), which are
    /// equal for the two threads when `premise` holds (always, with none:
    /// the query asserts equal indices). Returns each part made, with its
    /// tag and the condition that the two threads' parts are equal, to be
    /// divided in turn.
    fn parts<'t>(
        &mut self,
        parts: &Numbers<'t>,
        tag: &str,
        premise: Option<Bool>,
    ) -> Vec<(Numbers<'t>, String, Bool)> {
        let mut made = Vec::new();
        // Numbers that are all mixed-radix of one shape have their digit
        // lemmas, which say all that dividing them would.
        let facts = self.facts;
        let mut shapes = parts.iter().enumerate().flat_map(|(k, list)| {
            let suffix = format!("@{}", k + 1);
            list.iter()
                .map(move |(a, e)| facts.shape(e, a, &suffix).map(|(s, _)| s))
        });
        let first = shapes.next().flatten();
        if first.is_some() && shapes.all(|s| s == first) {
            return made;
        }
        let mut moduli: Vec<radix::Modulus> = Vec::new();
        for (k, list) in parts.iter().enumerate() {
            for (_, e) in list {
                for m in self.facts.moduli(e, &format!("@{}", k + 1)) {
                    if !moduli.contains(&m) && moduli.len() < MODULI_PER_NUMBER {
                        moduli.push(m);
                    }
                }
            }
        }
        for (w, m) in moduli.iter().enumerate() {
            if self.left == 0 {
                break;
            }
            let mut divisions: [Vec<(&'t TraceAccess, radix::Division)>; 2] = Default::default();
            for (k, list) in parts.iter().enumerate() {
                let suffix = format!("@{}", k + 1);
                divisions[k] = list
                    .iter()
                    .filter_map(|(a, e)| {
                        let d = self.facts.divide(e, m, &suffix)?;
                        Some((*a, d.borrowing(self.facts, m, a)))
                    })
                    .collect();
            }
            // A thread-global rest every access shares is no part of either
            // thread's remainder (`25 · w · h + 16 · y + x` by 16).
            let mut rests = divisions.iter().flatten().map(|(_, d)| d.global_rest());
            let first = rests.next();
            let shared = rests.all(|r| Some(r) == first);
            // Only accesses whose remainder is seen to be in range get
            // parts (and only those with a polynomial index); another
            // access leaves its thread's parts free, and the lemma says
            // nothing when it is chosen.
            let below = |drop: bool| -> Vec<Vec<bool>> {
                divisions
                    .iter()
                    .map(|list| {
                        list.iter()
                            .map(|(a, d)| d.remainder_below(self.facts, m, a, drop))
                            .collect()
                    })
                    .collect()
            };
            let mut drop = shared;
            let mut kept = below(drop);
            // The shared rest may be what puts the remainder in range: `col
            // - 1` under `0 <= col - 1 < n <= w` is below `w`, `col` is not.
            if shared && kept.iter().any(|k| !k.contains(&true)) {
                drop = false;
                kept = below(drop);
            }
            // A number whose remainder is zero joins too: the lemma's
            // premise asks `0 < W` itself, which a write at a row's first
            // cell (`bid * cols`) beside the row's reads needs.
            let mut shown: [Vec<u32>; 2] = Default::default();
            for ((list, kept), shown) in divisions.iter_mut().zip(&kept).zip(&mut shown) {
                let mut flags = kept.iter();
                list.retain(|(a, d)| {
                    let below = flags.next() == Some(&true);
                    if below {
                        shown.push(a.id);
                    }
                    below || d.remainder_is_zero(drop)
                });
            }
            if divisions.iter().any(Vec::is_empty) || shown.iter().all(Vec::is_empty) {
                continue;
            }
            let mut halves: [Numbers<'t>; 2] = Default::default();
            for (k, list) in divisions.iter().enumerate() {
                for (a, d) in list {
                    let (y, x) = d.parts(drop);
                    halves[0][k].push((*a, y));
                    halves[1][k].push((*a, x));
                }
            }
            self.left -= 1;
            let tag = format!("{tag}.{w}");
            let part = |name: &str, k: usize| Int::new_const(format!("!{name}{tag}@{}", k + 1));
            let modulus = self.enc.expr(&m.modulus);
            for (which, name) in [(0, "q"), (1, "r")] {
                for (k, list) in halves[which].iter().enumerate() {
                    for (a, e) in list {
                        let picked = self.select[k].eq(Int::from_u64(a.id.into()));
                        self.out
                            .push(picked.implies(part(name, k).eq(self.enc.expr(e))));
                        if which == 1 && shown[k].contains(&a.id) {
                            // `remainder_below` has shown `X < W` for this
                            // access; stated, the solver need not find the
                            // nonlinear proof (`bx * bdx + tx < ldc` from
                            // `ldc >= bdx * gdx`) again.
                            self.out.push(picked.implies(part(name, k).lt(&modulus)));
                        }
                    }
                }
            }
            let zero = Int::from_i64(0);
            let in_range =
                |k: usize| Bool::and(&[part("r", k).ge(&zero), part("r", k).lt(&modulus)]);
            let mut given = vec![in_range(0), in_range(1)];
            given.extend(premise.clone());
            self.out.push(Bool::and(&given).implies(Bool::and(&[
                part("q", 0).eq(part("q", 1)),
                part("r", 0).eq(part("r", 1)),
            ])));
            let [ys, xs] = halves;
            for (half, name) in [(ys, "q"), (xs, "r")] {
                let equal = part(name, 0).eq(part(name, 1));
                self.digits(&half, &format!("!{name}digit{tag}"), &equal);
                made.push((half, format!("{tag}{name}"), equal));
            }
        }
        made
    }

    /// Digit lemmas for the parts that are mixed-radix numbers, grouped by
    /// shape.
    fn digits(&mut self, parts: &Numbers, prefix: &str, equal: &Bool) {
        for (g, (_, members)) in by_shape(self.facts, parts).iter().enumerate() {
            self.out.extend(digit_lemmas(
                self.enc,
                self.select,
                members,
                &format!("{prefix}.{g}"),
                Some(equal.clone()),
            ));
        }
    }
}

/// The lemmas of one group of accesses whose numbers share a shape: each
/// thread's digit constants (`{prefix}.{i}@{k}`) equal the digits of the
/// access it chose, and when both threads chose one of the group (and
/// `premise` holds: the numbers are equal) their digits are equal. No
/// lemma when one thread has no access of the group.
fn digit_lemmas(
    enc: &mut Encoder,
    select: &[Int; 2],
    members: &[Vec<(u32, radix::Digits)>; 2],
    prefix: &str,
    premise: Option<Bool>,
) -> Vec<Bool> {
    let mut out = Vec::new();
    if members.iter().any(Vec::is_empty) {
        return out;
    }
    let places = members[0][0].1.len();
    let digit = |k: usize, i: usize| Int::new_const(format!("{prefix}.{i}@{}", k + 1));
    let mut chose = Vec::new();
    for (k, list) in members.iter().enumerate() {
        let mut any = Vec::new();
        for (id, digits) in list {
            let picked = select[k].eq(Int::from_u64((*id).into()));
            let same: Vec<Bool> = digits
                .iter()
                .enumerate()
                .map(|(i, e)| digit(k, i).eq(enc.expr(e)))
                .collect();
            out.push(picked.implies(Bool::and(&same)));
            any.push(picked);
        }
        chose.push(Bool::or(&any));
    }
    chose.extend(premise);
    let equal: Vec<Bool> = (0..places).map(|i| digit(0, i).eq(digit(1, i))).collect();
    out.push(Bool::and(&chose).implies(Bool::and(&equal)));
    out
}

fn mode_code(mode: Mode) -> i64 {
    match mode {
        Mode::Read => 0,
        Mode::Write => 1,
        Mode::Atomic => 2,
    }
}

/// Expressions and conditions to Z3 terms, one constant per variable name.
#[derive(Default)]
struct Encoder {
    vars: Vec<(String, Int)>,
    by_name: HashMap<String, usize>,
    /// Variables bound by an enclosing `forall`; not part of any model.
    bound: HashMap<String, Int>,
    /// The bit fields of expressions that bitwise operators with
    /// constants take apart, shared by every use of one expression.
    fields: HashMap<Expr, BitFields>,
    /// Definitions of the fresh constants in `fields`, which hold for any
    /// value of the expressions they take apart, and facts about the
    /// functions of `abstracted`.
    side: Vec<Bool>,
    /// When set, each nonlinear operation (a product, quotient or remainder
    /// of two non-constants, a shift by or a bitwise operation on two) is an
    /// uninterpreted function of its operands, with a few facts of the
    /// operation that keep the linear parts provable (signs, ranges).
    abstracted: Option<Abstracted>,
    /// The contents of arrays the kernel never writes, by array and
    /// arity: an uninterpreted function of the cell, so one cell holds one
    /// value and different cells may hold different ones.
    cells: HashMap<(String, usize), FuncDecl>,
    /// The bits each variable may have set, from the trace's assumptions:
    /// bitwise operations on small non-negative operands take narrow
    /// bit-vectors.
    bits: bits::Bounds,
}

/// The uninterpreted functions of an abstracted query, by operator.
#[derive(Default)]
struct Abstracted {
    functions: HashMap<Op, FuncDecl>,
    /// Only bitwise operations are uninterpreted; products, quotients
    /// and shifts stay exact ([`Query::bitwise_abstraction`]).
    bitwise_only: bool,
}

/// An expression `a` cut into binary digit fields where bitwise operators
/// with constants read it: `a = Σ 2^start · field + 2^top · rest`, each
/// field within `0..2^width`, `rest = floor(a / 2^top)`. Fields are cut
/// further as more bits are read; a bit read is a field of width 1. Z3
/// relates several bits of one value (`tid ^ j` against `tid & k`) far
/// sooner through shared fields than through a `div`/`mod` pair per bit,
/// and cuts only where bits are read keep the 0/1 variables few.
struct BitFields {
    /// `a` itself.
    whole: Int,
    /// `(start, width, field)`, by `start`, covering `0..top`.
    fields: Vec<(u32, u32, Int)>,
    top: u32,
    rest: Int,
}

impl BitFields {
    fn new(a: &Int) -> BitFields {
        BitFields {
            whole: a.clone(),
            fields: Vec::new(),
            top: 0,
            rest: a.clone(),
        }
    }

    /// A field of `width` bits, with its range.
    fn field(width: u32, side: &mut Vec<Bool>) -> Int {
        let f = Int::fresh_const("!bits");
        side.push(f.ge(Int::from_i64(0)));
        side.push(f.lt(Int::from_i64(1 << width)));
        f
    }

    /// Makes `at` the start of a field, or `top`.
    fn cut(&mut self, at: u32, side: &mut Vec<Bool>) {
        if at > self.top {
            let width = at - self.top;
            let low = BitFields::field(width, side);
            let rest = Int::fresh_const("!rest");
            side.push(self.rest.eq(Int::add(&[
                low.clone(),
                Int::mul(&[Int::from_i64(1 << width), rest.clone()]),
            ])));
            self.fields.push((self.top, width, low));
            self.top = at;
            self.rest = rest;
            return;
        }
        let Some(i) = self
            .fields
            .iter()
            .position(|&(start, width, _)| start < at && at < start + width)
        else {
            return;
        };
        let (start, width, whole) = self.fields[i].clone();
        let (lo, hi) = (at - start, start + width - at);
        let (low, high) = (BitFields::field(lo, side), BitFields::field(hi, side));
        side.push(whole.eq(Int::add(&[
            low.clone(),
            Int::mul(&[Int::from_i64(1 << lo), high.clone()]),
        ])));
        self.fields[i] = (start, lo, low);
        self.fields.insert(i + 1, (at, hi, high));
    }

    fn bit(&mut self, i: u32, side: &mut Vec<Bool>) -> Int {
        self.cut(i, side);
        self.cut(i + 1, side);
        let at = self.fields.iter().find(|f| f.0 == i);
        at.expect("a field starts at a cut").2.clone()
    }
}

/// Bits beyond this many are read with `div` and `mod`, one per bit.
const MAX_FIELD_BITS: u32 = 24;

const BV_BITS: u32 = 64;

impl Encoder {
    /// What cell `index` of a never-written `array` holds.
    fn cell(&mut self, array: &str, index: &[Expr]) -> Int {
        let args: Vec<Int> = index.iter().map(|e| self.expr(e)).collect();
        let f = self
            .cells
            .entry((array.to_string(), args.len()))
            .or_insert_with(|| {
                let int = Sort::int();
                let domain = vec![&int; args.len()];
                FuncDecl::new(format!("!cell {array}/{}", args.len()), &domain, &int)
            });
        let args: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        f.apply(&args).as_int().expect("an integer function")
    }

    /// A structure's value as one number: a function of its fields
    /// whose projections give them back, so that two structures are equal
    /// exactly when their fields are (the projections, stated for each
    /// application, make it injective without a quantifier).
    fn fields(&mut self, fields: &[Expr]) -> (Int, Vec<Bool>) {
        let args: Vec<Int> = fields.iter().map(|e| self.expr(e)).collect();
        let n = args.len();
        let int = Sort::int();
        let domain = vec![&int; n];
        let whole = FuncDecl::new(format!("!fields/{n}"), &domain, &int);
        let dyn_args: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        let v = whole
            .apply(&dyn_args)
            .as_int()
            .expect("an integer function");
        let projections = args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let field = FuncDecl::new(format!("!field {i}/{n}"), &[&int], &int);
                field
                    .apply(&[&v])
                    .as_int()
                    .expect("an integer function")
                    .eq(a)
            })
            .collect();
        (v, projections)
    }

    fn var(&mut self, name: &str) -> Int {
        if let Some(b) = self.bound.get(name) {
            return b.clone();
        }
        if let Some(&i) = self.by_name.get(name) {
            return self.vars[i].1.clone();
        }
        let v = Int::new_const(name);
        self.by_name.insert(name.to_string(), self.vars.len());
        self.vars.push((name.to_string(), v.clone()));
        v
    }

    /// Thread `k` chose access `a`: `s = id ∧ path ∧ loop ranges ∧ idx = index ∧ m = mode`.
    fn choice(
        &mut self,
        a: &TraceAccess,
        select: &Int,
        mode: &Int,
        index: &[Int],
        step: &[Int],
        stored: Option<&Value>,
        (value, known): (&Int, &Bool),
    ) -> Bool {
        let mut parts = vec![
            select.eq(Int::from_u64(a.id.into())),
            mode.eq(Int::from_i64(mode_code(a.mode))),
        ];
        for (d, Binder { var, lo, hi }) in a.loops.iter().enumerate() {
            let x = self.var(var);
            let lo = self.expr(lo);
            parts.push(lo.le(&x));
            parts.push(x.lt(self.expr(hi)));
            if let Some(s) = step.get(d) {
                parts.push(s.eq(&x - &lo));
            }
        }
        parts.push(self.cond(&a.path));
        parts.extend(self.at_cell(index, &a.index));
        match stored {
            Some(v) if a.mode == Mode::Write => {
                parts.push(known.clone());
                let v = match v {
                    Value::Expr(e) => self.expr(e),
                    Value::Read { array, index } => self.cell(array, index),
                    Value::Fields(fields) => {
                        let (v, projections) = self.fields(fields);
                        parts.extend(projections);
                        v
                    }
                };
                parts.push(value.eq(v));
            }
            _ => parts.push(known.not()),
        }
        Bool::and(&parts)
    }

    /// The constants `vars` naming a cell equal to `index`, dimensions
    /// past its own 0 (indexes of fewer dimensions line up with more).
    fn at_cell(&mut self, vars: &[Int], index: &[Expr]) -> Vec<Bool> {
        vars.iter()
            .enumerate()
            .map(|(d, v)| {
                let e = index
                    .get(d)
                    .map_or_else(|| Int::from_i64(0), |e| self.expr(e));
                v.eq(e)
            })
            .collect()
    }

    fn cond(&mut self, c: &Cond) -> Bool {
        match c {
            Cond::Bool(b) => Bool::from_bool(*b),
            Cond::Cmp(rel, a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                match rel {
                    Rel::Eq => a.eq(&b),
                    Rel::Ne => a.ne(&b),
                    Rel::Lt => a.lt(&b),
                    Rel::Le => a.le(&b),
                    Rel::Gt => a.gt(&b),
                    Rel::Ge => a.ge(&b),
                }
            }
            Cond::And(a, b) => Bool::and(&[self.cond(a), self.cond(b)]),
            Cond::Or(a, b) => Bool::or(&[self.cond(a), self.cond(b)]),
            Cond::Not(a) => self.cond(a).not(),
            Cond::Forall { var, lo, hi, body } => {
                let (lo, hi) = (self.expr(lo), self.expr(hi));
                let x = Int::new_const(format!("{var}!bound"));
                let outer = self.bound.insert(var.clone(), x.clone());
                let body = self.cond(body);
                match outer {
                    Some(o) => self.bound.insert(var.clone(), o),
                    None => self.bound.remove(var),
                };
                let range = Bool::and(&[lo.le(&x), x.lt(&hi)]);
                z3::ast::forall_const(&[&x], &[], &range.implies(&body))
            }
        }
    }

    fn expr(&mut self, e: &Expr) -> Int {
        if let Some(sum) = xor_parity(e) {
            return self.expr(&sum);
        }
        match e {
            Expr::Int(n) => Int::from_i64(*n),
            Expr::Var(v) => self.var(v),
            Expr::Ite(c, a, b) => self.cond(c).ite(&self.expr(a), &self.expr(b)),
            Expr::Bin(op, lhs, rhs)
                if self
                    .abstracted
                    .as_ref()
                    .is_some_and(|a| !a.bitwise_only || is_bitwise(*op))
                    && nonlinear_op(*op, lhs, rhs) =>
            {
                let (a, b) = (self.expr(lhs), self.expr(rhs));
                self.uninterpreted(*op, a, b)
            }
            Expr::Bin(op, lhs, rhs) => {
                let (a, b) = (lhs, rhs);
                let shift = match **b {
                    Expr::Int(k) if (0..63).contains(&k) => Some(1i64 << k),
                    _ => None,
                };
                let nonzero = matches!(**b, Expr::Int(k) if k != 0);
                let (a, b) = (self.expr(a), self.expr(b));
                let zero = || Int::from_i64(0);
                match op {
                    Op::Add => Int::add(&[a, b]),
                    Op::Sub => Int::sub(&[a, b]),
                    Op::Mul => Int::mul(&[a, b]),
                    Op::Div if nonzero => a.div(&b),
                    Op::Div => b.eq(zero()).ite(&zero(), &a.div(&b)),
                    Op::Mod if nonzero => a.modulo(&b),
                    Op::Mod => b.eq(zero()).ite(&a, &a.modulo(&b)),
                    Op::Min => a.le(&b).ite(&a, &b),
                    Op::Max => a.ge(&b).ite(&a, &b),
                    Op::Shl => match shift {
                        Some(p) => Int::mul(&[a, Int::from_i64(p)]),
                        None => shift_by(&b, |p| Int::mul(&[a.clone(), Int::from_i64(p)])),
                    },
                    Op::Shr => match shift {
                        Some(p) => a.div(Int::from_i64(p)),
                        None => {
                            // As in the evaluator, `a >> b` for b ≥ 63 is `a >> 63`.
                            let sign = a
                                .lt(Int::from_i64(0))
                                .ite(&Int::from_i64(-1), &Int::from_i64(0));
                            b.ge(Int::from_i64(63))
                                .ite(&sign, &shift_by(&b, |p| a.div(Int::from_i64(p))))
                        }
                    },
                    Op::BitAnd | Op::BitOr | Op::BitXor => match (constant(lhs), constant(rhs)) {
                        (_, Some(c)) => self.with_constant(*op, lhs, &a, c),
                        (Some(c), None) => self.with_constant(*op, rhs, &b, c),
                        (None, None) => {
                            let (ma, mb) = (self.bits.may_be_one(lhs), self.bits.may_be_one(rhs));
                            bitwise(*op, &a, &b, [ma, mb])
                        }
                    },
                }
            }
        }
    }
}

impl Encoder {
    /// `op(a, b)` as an application of the abstraction's function for `op`,
    /// with the facts of `op` that relate it to its operands.
    fn uninterpreted(&mut self, op: Op, a: Int, b: Int) -> Int {
        let functions = &mut self
            .abstracted
            .as_mut()
            .expect("an abstracted encoder")
            .functions;
        let f = functions.entry(op).or_insert_with(|| {
            let int = Sort::int();
            FuncDecl::new(format!("!{op:?}"), &[&int, &int], &int)
        });
        let r = f.apply(&[&a, &b]).as_int().expect("an integer function");
        let zero = || Int::from_i64(0);
        let one = || Int::from_i64(1);
        let (a_pos, b_pos) = (a.ge(one()), b.ge(one()));
        match op {
            Op::Mul => {
                // Signs, zero, and `|a * b| >= |a|, |b|` for positive factors.
                self.side
                    .push(Bool::or(&[a.eq(zero()), b.eq(zero())]).implies(r.eq(zero())));
                self.side
                    .push(Bool::and(&[a.ge(zero()), b.ge(zero())]).implies(r.ge(zero())));
                self.side
                    .push(Bool::and(&[a.le(zero()), b.le(zero())]).implies(r.ge(zero())));
                self.side
                    .push(Bool::and(&[a.ge(zero()), b.le(zero())]).implies(r.le(zero())));
                self.side
                    .push(Bool::and(&[a.le(zero()), b.ge(zero())]).implies(r.le(zero())));
                self.side.push(
                    Bool::and(&[a_pos.clone(), b_pos.clone()])
                        .implies(Bool::and(&[r.ge(&a), r.ge(&b)])),
                );
            }
            Op::Div => {
                // `/ 0` is 0; a non-negative quotient stays within its dividend.
                self.side.push(b.eq(zero()).implies(r.eq(zero())));
                self.side.push(
                    Bool::and(&[a.ge(zero()), b_pos]).implies(Bool::and(&[r.ge(zero()), r.le(&a)])),
                );
            }
            Op::Mod => {
                // `% 0` is the dividend; otherwise Euclidean: `0 <= r < |b|`.
                self.side.push(b.eq(zero()).implies(r.eq(&a)));
                self.side
                    .push(b_pos.implies(Bool::and(&[r.ge(zero()), r.lt(&b)])));
                self.side.push(
                    b.le(Int::from_i64(-1))
                        .implies(Bool::and(&[r.ge(zero()), r.lt(b.unary_minus())])),
                );
            }
            _ => {}
        }
        r
    }

    /// `a op c`, where `a` encodes `e`, over `e`'s shared bit fields
    /// when it has no bound variable and `c` needs few of them.
    fn with_constant(&mut self, op: Op, e: &Expr, a: &Int, c: i64) -> Int {
        let width = 64 - (if c < 0 { !c } else { c }).leading_zeros();
        if !self.bound.is_empty() || width > MAX_FIELD_BITS {
            return with_constant(op, a, c, &mut DivMod(a));
        }
        let fields = self
            .fields
            .entry(e.clone())
            .or_insert_with(|| BitFields::new(a));
        with_constant(op, a, c, &mut Shared(fields, &mut self.side))
    }
}

/// How [`with_constant`] reads the low binary digits of its operand `a`.
trait LowBits {
    /// Bit `i` (< 63) in two's complement.
    fn bit(&mut self, i: u32) -> Int;
    /// `a mod 2^k`.
    fn low(&mut self, k: u32) -> Int;
}

/// Each digit by its own `div` and `mod`: floor division makes it exact
/// for negative `a` too.
struct DivMod<'a>(&'a Int);

impl LowBits for DivMod<'_> {
    fn bit(&mut self, i: u32) -> Int {
        self.0.div(Int::from_i64(1 << i)).modulo(Int::from_i64(2))
    }
    fn low(&mut self, k: u32) -> Int {
        self.0.modulo(Int::from_u64(1 << k))
    }
}

/// Digit fields an [`Encoder`] keeps for the operand, with the side
/// conditions that define new ones.
struct Shared<'a>(&'a mut BitFields, &'a mut Vec<Bool>);

impl LowBits for Shared<'_> {
    fn bit(&mut self, i: u32) -> Int {
        self.0.bit(i, self.1)
    }
    fn low(&mut self, k: u32) -> Int {
        // Z3's own `mod` does better on masks alone than fields
        // (`s & 2047`, `(s + 1) & 2047`, …: one field each).
        DivMod(&self.0.whole).low(k)
    }
}

/// Whether `lhs op rhs` leaves linear arithmetic: what
/// [`Encoder::abstracted`] makes uninterpreted. Bitwise operations and
/// shifts with a constant stay, as the encoder makes them linear.
fn nonlinear_op(op: Op, lhs: &Expr, rhs: &Expr) -> bool {
    let (a, b) = (constant(lhs).is_none(), constant(rhs).is_none());
    match op {
        Op::Mul | Op::BitAnd | Op::BitOr | Op::BitXor => a && b,
        Op::Div | Op::Mod | Op::Shl | Op::Shr => b,
        Op::Add | Op::Sub | Op::Min | Op::Max => false,
    }
}

fn is_bitwise(op: Op) -> bool {
    matches!(op, Op::BitAnd | Op::BitOr | Op::BitXor)
}

fn constant(e: &Expr) -> Option<i64> {
    match e {
        Expr::Int(c) => Some(*c),
        _ => None,
    }
}

/// `a op c` for a constant `c`, in linear arithmetic over the bits of `c`,
/// reading `a`'s digits from `digits`: far cheaper for Z3 than bit-vector
/// conversions, and exact.
fn with_constant(op: Op, a: &Int, c: i64, digits: &mut impl LowBits) -> Int {
    let one = || Int::from_i64(1);
    if c < 0 {
        // The sign-extended complement `!c` is non-negative; the bits of `a`
        // split between `c` and `!c`.
        let rest = with_constant(Op::BitAnd, a, !c, digits);
        return match op {
            Op::BitAnd => Int::sub(&[a.clone(), rest]),
            Op::BitOr => Int::add(&[Int::from_i64(c), rest]),
            _ => Int::sub(&[Int::from_i64(-1), with_constant(Op::BitXor, a, !c, digits)]),
        };
    }
    if op == Op::BitAnd && (c as u64 + 1).is_power_of_two() {
        return digits.low((c as u64 + 1).trailing_zeros());
    }
    let bits = (0..63).filter(|i| c & (1 << i) != 0);
    let terms: Vec<Int> = bits
        .map(|i| {
            let p = Int::from_i64(1 << i);
            match op {
                Op::BitAnd => Int::mul(&[p, digits.bit(i)]),
                Op::BitOr => Int::mul(&[p, Int::sub(&[one(), digits.bit(i)])]),
                _ => Int::mul(&[
                    p,
                    Int::sub(&[one(), Int::mul(&[Int::from_i64(2), digits.bit(i)])]),
                ]),
            }
        })
        .collect();
    match op {
        Op::BitAnd if terms.is_empty() => Int::from_i64(0),
        Op::BitAnd => Int::add(&terms),
        _ => Int::add(&[vec![a.clone()], terms].concat()),
    }
}

/// A shift by a non-constant amount `b`, as a case split over the amounts
/// 0..63 with `by(2^b)`. Other amounts have no agreed meaning: their result
/// is a fresh unconstrained integer (sound, possibly a spurious race).
fn shift_by(b: &Int, by: impl Fn(i64) -> Int) -> Int {
    (0..63).rev().fold(Int::fresh_const("!shift"), |rest, i| {
        b.eq(Int::from_i64(i)).ite(&by(1 << i), &rest)
    })
}

/// `(x ^ y) % 2` as `(x % 2 + y % 2) % 2`: the low bit of two's complement,
/// which the Euclidean remainder by 2 is, of an xor is the sum of its
/// operands' (swizzled tiles' `((col >> 3) ^ (row >> 2)) % 2`), linear
/// without bit-vectors.
fn xor_parity(e: &Expr) -> Option<Expr> {
    let Expr::Bin(Op::Mod, xor, two) = e else {
        return None;
    };
    let (Expr::Bin(Op::BitXor, x, y), Expr::Int(2)) = (&**xor, &**two) else {
        return None;
    };
    let parity = |e: &Expr| Expr::bin(Op::Mod, e.clone(), Expr::Int(2));
    Some(parity(&Expr::add(parity(x), parity(y))))
}

/// `a op b` for two non-constant operands, through 64-bit two's complement
/// vectors and back to a signed integer. Exact but slow in Z3. Operands
/// whose one bits (`bits`, as [`bits::Bounds::may_be_one`] gives them) all
/// lie below bit `w` take `w`-bit vectors, which Z3 blasts in no time for a
/// lane or a tile; when only one does, `a & b` takes the other's low `w`
/// bits, and `a | b` and `a ^ b` are `a + b` less once or twice that.
fn bitwise(op: Op, a: &Int, b: &Int, bits: [u64; 2]) -> Int {
    let apply = |a: BV, b: BV| match op {
        Op::BitAnd => a.bvand(&b),
        Op::BitOr => a.bvor(&b),
        _ => a.bvxor(&b),
    };
    // Past 62 bits, `2^w` leaves the i64 the modulus is built from.
    let width = |m: u64| Some((64 - m.leading_zeros()).max(1)).filter(|w| *w <= 62);
    if let (Some(_), Some(_), Some(w)) = (width(bits[0]), width(bits[1]), width(bits[0] | bits[1]))
    {
        return apply(BV::from_int(a, w), BV::from_int(b, w)).to_int(false);
    }
    let Some(w) = bits.iter().filter_map(|m| width(*m)).min() else {
        return apply(BV::from_int(a, BV_BITS), BV::from_int(b, BV_BITS)).to_int(true);
    };
    // The low bits, as the Euclidean remainder by 2^w gives them.
    let low = |x: &Int| BV::from_int(&x.modulo(Int::from_i64(1 << w)), w);
    let and = low(a).bvand(&low(b)).to_int(false);
    match op {
        Op::BitAnd => and,
        Op::BitOr => Int::sub(&[Int::add(&[a.clone(), b.clone()]), and]),
        _ => Int::sub(&[
            Int::add(&[a.clone(), b.clone()]),
            Int::mul(&[Int::from_i64(2), and]),
        ]),
    }
}

impl Outcome {
    /// The outcome with every variable name `n` in race values replaced by
    /// `rename(n)`; names it maps to `None` are dropped.
    pub fn rename(&self, rename: impl Fn(&str) -> Option<String>) -> Outcome {
        match self {
            Outcome::Racy(races) => Outcome::Racy(
                races
                    .iter()
                    .map(|r| RawRace {
                        accesses: r.accesses,
                        index: r.index.clone(),
                        values: r
                            .values
                            .iter()
                            .filter_map(|(n, v)| Some((rename(n)?, *v)))
                            .collect(),
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// The outcome with trace variable names replaced by their canonical
    /// names ([`Trace::canonical_names`]: `v0`, `v1`, …), the form to cache
    /// under a content hash, since traces with one hash may name their
    /// variables differently.
    pub fn to_canonical(&self, trace: &Trace) -> Outcome {
        let pos: HashMap<String, usize> = trace
            .canonical_names()
            .into_iter()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        self.rename(|n| pos.get(n).map(|i| format!("v{i}")))
    }

    /// Inverse of [`Outcome::to_canonical`] for a trace with the same hash.
    pub fn from_canonical(&self, trace: &Trace) -> Outcome {
        let names = trace.canonical_names();
        self.rename(|n| {
            n.strip_prefix('v')?
                .parse::<usize>()
                .ok()
                .and_then(|i| names.get(i).cloned())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Pairing;
    use crate::protocol::Loc;

    fn v(name: &str) -> Expr {
        Expr::var(name)
    }
    fn n(x: i64) -> Expr {
        Expr::Int(x)
    }
    fn bin(op: Op, a: Expr, b: Expr) -> Expr {
        Expr::bin(op, a, b)
    }
    fn le(a: Expr, b: Expr) -> Cond {
        Cond::cmp(Rel::Le, a, b)
    }
    fn lt(a: Expr, b: Expr) -> Cond {
        Cond::cmp(Rel::Lt, a, b)
    }
    fn eq(a: Expr, b: Expr) -> Cond {
        Cond::cmp(Rel::Eq, a, b)
    }

    #[test]
    fn stored_values_that_take_bit_vectors_are_not_compared() {
        assert!(needs_bit_vectors(&bin(Op::BitXor, v("a"), v("b"))));
        assert!(needs_bit_vectors(&bin(Op::Shr, v("a"), v("b"))));
        assert!(needs_bit_vectors(&bin(
            Op::Add,
            n(1),
            bin(
                Op::BitOr,
                bin(Op::Shl, v("a"), n(3)),
                bin(Op::Shr, v("a"), n(29))
            )
        )));
        assert!(!needs_bit_vectors(&bin(Op::BitAnd, v("a"), n(255))));
        assert!(!needs_bit_vectors(&bin(Op::Shl, v("a"), n(2))));
        assert!(!needs_bit_vectors(&bin(Op::Add, v("a"), v("b"))));
    }

    /// One access of the protocol, as a function of the thread's suffix.
    struct Acc {
        id: u32,
        mode: Mode,
        index: fn(&str) -> Vec<Expr>,
        loops: fn(&str) -> Vec<Binder>,
    }

    fn acc(id: u32, mode: Mode, index: fn(&str) -> Vec<Expr>) -> Acc {
        Acc {
            id,
            mode,
            index,
            loops: |_| Vec::new(),
        }
    }

    /// A same-block trace over `tid.x` (`blockDim.x` symbolic, ≥ 1) with
    /// `globals` extra shared names and `extra` assumptions.
    fn trace(accs: &[Acc], globals: &[&str], extra: Vec<Cond>) -> Trace {
        let mut assumptions = extra;
        assumptions.push(le(n(1), v("blockDim.x")));
        let mut locals: [Vec<String>; 2] = Default::default();
        let accesses = [1, 2].map(|k| {
            let sfx = format!("@{k}");
            let tid = format!("tid.x{sfx}");
            assumptions.push(Cond::and(le(n(0), v(&tid)), lt(v(&tid), v("blockDim.x"))));
            locals[k - 1].push(tid);
            accs.iter()
                .map(|a| {
                    let loops = (a.loops)(&sfx);
                    locals[k - 1].extend(loops.iter().map(|b| b.var.clone()));
                    TraceAccess {
                        lock: None,
                        id: a.id,
                        mode: a.mode,
                        loc: Loc::new(a.id + 1, 1),
                        index: (a.index)(&sfx),
                        loops,
                        path: Cond::Bool(true),
                        value: None,
                    }
                })
                .collect()
        });
        let mut globals: Vec<String> = globals.iter().map(|g| g.to_string()).collect();
        globals.push("blockDim.x".into());
        Trace {
            pairing: Pairing::SameBlock,
            globals,
            locals,
            assumptions,
            distinct: vec![("tid.x@1".into(), "tid.x@2".into())],
            accesses,
            lockstep: false,
            start: None,
            end: None,
        }
    }

    fn tid(sfx: &str) -> Expr {
        v(&format!("tid.x{sfx}"))
    }

    /// The answer to `assertions` within a small fixed amount of work.
    fn within_budget(assertions: &[Bool]) -> SatResult {
        let solver = Solver::new();
        let mut params = z3::Params::new();
        params.set_u32("rlimit", 200_000);
        solver.set_params(&params);
        assertions.iter().for_each(|a| solver.assert(a));
        solver.check()
    }

    /// `query`'s assertions less `lemmas`, each of which it must hold.
    fn leaving_out(query: &Query, lemmas: &[Bool]) -> Vec<Bool> {
        let lemmas: Vec<String> = lemmas.iter().map(|l| l.to_string()).collect();
        let without: Vec<Bool> = query
            .assertions
            .iter()
            .filter(|a| !lemmas.contains(&a.to_string()))
            .cloned()
            .collect();
        assert_eq!(without.len() + lemmas.len(), query.assertions.len());
        without
    }

    fn races(solved: &Solved) -> &[RawRace] {
        match &solved.outcome {
            Outcome::Racy(r) => r,
            other => panic!("expected a race, got {other:?}"),
        }
    }

    #[test]
    fn a_column_the_launch_keeps_in_its_row_gets_its_guard() {
        // Rows of `w` cells, each written in two halves by a block of
        // `(w + 1) / 2` threads; for odd `w` the last thread skips the
        // second half. Nothing states `tid + blockDim.x < w`; the launch
        // and the skip imply it.
        let rows = |s: &str| {
            vec![Binder {
                var: format!("r{s}"),
                lo: n(0),
                hi: n(16),
            }]
        };
        let halves = [
            Acc {
                loops: rows,
                ..acc(0, Mode::Write, |s| {
                    vec![bin(
                        Op::Add,
                        bin(Op::Mul, v("w"), v(&format!("r{s}"))),
                        tid(s),
                    )]
                })
            },
            Acc {
                loops: rows,
                ..acc(1, Mode::Write, |s| {
                    let col = bin(Op::Add, tid(s), v("blockDim.x"));
                    vec![bin(Op::Add, bin(Op::Mul, v("w"), v(&format!("r{s}"))), col)]
                })
            },
        ];
        let launch = |wider: i64| {
            let twice = bin(Op::Mul, n(2), v("blockDim.x"));
            vec![
                le(twice.clone(), bin(Op::Add, v("w"), n(1 + wider))),
                le(
                    bin(Op::Add, v("w"), n(1 + wider)),
                    bin(Op::Add, twice, n(1)),
                ),
            ]
        };
        let skip = |t: &mut Trace| {
            for (k, accesses) in t.accesses.iter_mut().enumerate() {
                let s = format!("@{}", k + 1);
                let last = eq(tid(&s), bin(Op::Sub, v("blockDim.x"), n(1)));
                let odd = Cond::not(eq(bin(Op::Mod, v("w"), n(2)), n(0)));
                accesses[1].path = Cond::not(Cond::and(odd, last));
            }
        };
        let mut t = trace(&halves, &["w"], launch(0));
        skip(&mut t);
        let guarded = implied_columns(&t).expect("the second half's column is implied");
        let facts = radix::Facts::new(&guarded.assumptions);
        for (k, accesses) in guarded.accesses.iter().enumerate() {
            let s = format!("@{}", k + 1);
            for a in accesses {
                assert!(facts.shape(&a.index[0], a, &s).is_some(), "{a:?}");
            }
        }
        assert_eq!(solve(&guarded, &Options::default()).outcome, Outcome::Drf);
        // A block one thread wider writes past its row: no guard is added
        // for that half, and the race stays.
        let mut wide = trace(&halves, &["w"], launch(2));
        skip(&mut wide);
        let kept = implied_columns(&wide).unwrap_or_else(|| wide.clone());
        assert_eq!(kept.accesses[0][1].path, wide.accesses[0][1].path);
        assert!(matches!(
            solve(&wide, &Options::default()).outcome,
            Outcome::Racy(_)
        ));
    }

    #[test]
    fn distinct_cells_are_drf_in_one_query() {
        let t = trace(&[acc(0, Mode::Write, |s| vec![tid(s)])], &[], vec![]);
        let solved = solve(&t, &Options::default());
        assert_eq!(
            solved,
            Solved {
                outcome: Outcome::Drf,
                solver_calls: 1,
                cut_short: false,
            }
        );
    }

    #[test]
    fn lanes_in_lockstep_race_only_on_one_write_at_one_step() {
        let racy = |t: &Trace| matches!(solve(t, &Options::default()).outcome, Outcome::Racy(_));
        let lockstep = |t: &Trace| Trace {
            lockstep: true,
            ..t.clone()
        };
        // `a[t] = a[t - 1]`: in lockstep every lane reads before any writes.
        let shift = trace(
            &[
                acc(0, Mode::Read, |s| vec![Expr::sub(tid(s), n(1))]),
                acc(1, Mode::Write, |s| vec![tid(s)]),
            ],
            &[],
            vec![],
        );
        assert!(racy(&shift));
        assert!(!racy(&lockstep(&shift)));
        // `for i in 0..2: a[t + i] = …`: lane t's second step writes the
        // cell of lane t + 1's first, one step earlier.
        let strided = Acc {
            id: 0,
            mode: Mode::Write,
            index: |s| vec![Expr::add(tid(s), v(&format!("i{s}")))],
            loops: |s| {
                vec![Binder {
                    var: format!("i{s}"),
                    lo: n(0),
                    hi: n(2),
                }]
            },
        };
        let strided = trace(&[strided], &[], vec![]);
        assert!(racy(&strided));
        assert!(!racy(&lockstep(&strided)));
        // `a[0] = t`: one write of two lanes at one step is a race still.
        let same = trace(&[acc(0, Mode::Write, |_| vec![n(0)])], &[], vec![]);
        assert!(racy(&lockstep(&same)));
    }

    /// `(t % N) * M + t / N`: a transpose with its radices swapped, racy
    /// exactly when the sizes differ.
    fn swapped(sfx: &str) -> Vec<Expr> {
        let t = tid(sfx);
        vec![Expr::add(
            bin(Op::Mul, bin(Op::Mod, t.clone(), v("N")), v("M")),
            bin(Op::Div, t, v("N")),
        )]
    }

    #[test]
    fn instances_find_a_race_of_a_nonlinear_query_and_it_is_a_model() {
        let sizes = vec![le(n(1), v("N")), le(n(1), v("M"))];
        let t = trace(&[acc(0, Mode::Write, swapped)], &["N", "M"], sizes);
        assert_eq!(nonlinear_globals(&t), ["N", "M"]);
        let query = Query::encode(&t, false);
        let (found, calls) = query.instance_race(&[], 0, Deadline::never(), None, None);
        let (model, attempt) = found.expect("an instance with a race");
        assert!(calls >= 1 && attempt < INSTANCE_ATTEMPTS);
        let race = query.race(&model).unwrap();
        // The witness is a model of the whole query: replay it by hand.
        let at = |k: &str| {
            let (x, nn, m) = (
                race.values[&format!("tid.x@{k}")],
                race.values["N"],
                race.values["M"],
            );
            (x % nn) * m + x / nn
        };
        assert_ne!(race.values["tid.x@1"], race.values["tid.x@2"]);
        assert_eq!(at("1"), at("2"), "{race:?}");
        assert_ne!(race.values["N"], race.values["M"]);
        // Equal sizes over a square of threads leave no race.
        let square = |k: &str| lt(tid(k), bin(Op::Mul, v("N"), v("M")));
        let same = trace(
            &[acc(0, Mode::Write, swapped)],
            &["N", "M"],
            vec![
                eq(v("N"), v("M")),
                le(n(1), v("N")),
                square("@1"),
                square("@2"),
            ],
        );
        let query = Query::encode(&same, false);
        assert!(query
            .instance_race(&[], 0, Deadline::never(), None, None)
            .0
            .is_none());
        assert!(matches!(
            solve(&same, &Options::default()).outcome,
            Outcome::Drf
        ));
    }

    /// `2 * t - (t & (S - 1))`: a bitonic step's first key, disjoint from
    /// other threads' pairs only for a power-of-two `S`.
    fn merge_pair(sfx: &str) -> Vec<Expr> {
        let t = tid(sfx);
        let mask = bin(Op::BitAnd, t.clone(), bin(Op::Sub, v("S"), n(1)));
        vec![bin(Op::Sub, bin(Op::Mul, n(2), t), mask)]
    }

    #[test]
    fn instances_fixed_in_the_trace_find_races_behind_bitwise_operations() {
        // Substituted into the encoded query, `t & (S - 1)` keeps its bit
        // vectors; fixed in the trace it has a constant operand, and an odd
        // `S` shows the race in milliseconds.
        let t = trace(
            &[acc(0, Mode::Write, merge_pair)],
            &["S"],
            vec![le(n(1), v("S")), eq(v("blockDim.x"), n(64))],
        );
        assert!(uses_bit_vectors(&t));
        let fixed_trace = fixed(&t, &[("S", 3)]);
        assert!(
            !uses_bit_vectors(&fixed_trace),
            "{:?}",
            fixed_trace.accesses[0][0].index
        );
        let query = Query::encode(&t, false);
        let (found, _) = query.instance_race(&[], 0, Deadline::never(), None, Some((&t, false)));
        let (model, _) = found.expect("an instance with a race");
        assert!(query.satisfied_by(&model));
        let race = query.race(&model).unwrap();
        let at = |k: &str| {
            let (x, s) = (race.values[&format!("tid.x@{k}")], race.values["S"]);
            2 * x - (x & (s - 1))
        };
        assert_eq!(at("1"), at("2"), "{race:?}");
        assert_ne!(race.values["S"].count_ones(), 1);
        // With `S` a power of two no instance races.
        let pow2 = trace(
            &[acc(0, Mode::Write, merge_pair)],
            &["S"],
            vec![eq(v("S"), n(8)), eq(v("blockDim.x"), n(64))],
        );
        let query = Query::encode(&pow2, false);
        assert!(query
            .instance_race(&[], 0, Deadline::never(), None, Some((&pow2, false)))
            .0
            .is_none());
    }

    #[test]
    fn instance_assignments_are_fixed_and_give_launch_and_size_values() {
        let names: Vec<(String, Int)> = ["N", "blockDim.x", "bid.x", "M"]
            .iter()
            .map(|n| (n.to_string(), Int::new_const(*n)))
            .collect();
        assert_eq!(instance_values(&names, 0), [2, 64, 0, 3]);
        assert_eq!(instance_values(&names, 1), [3, 64, 0, 2]);
        assert_eq!(instance_values(&names, 2), [1, 64, 0, 1]);
        for attempt in 3..INSTANCE_ATTEMPTS {
            assert_eq!(
                instance_values(&names, attempt),
                instance_values(&names, attempt)
            );
        }
    }

    #[test]
    fn shared_cell_races_with_a_small_witness() {
        let t = trace(&[acc(0, Mode::Write, |_| vec![n(0)])], &[], vec![]);
        let solved = solve(&t, &Options::default());
        let [r] = races(&solved) else {
            panic!("one pair expected: {solved:?}")
        };
        assert_eq!(r.accesses, [0, 0]);
        assert_eq!(r.index, vec![0]);
        let (t1, t2, dim) = (
            r.values["tid.x@1"],
            r.values["tid.x@2"],
            r.values["blockDim.x"],
        );
        assert_ne!(t1, t2);
        assert!(
            (0..dim).contains(&t1) && (0..dim).contains(&t2) && dim <= 8,
            "{r:?}"
        );
    }

    #[test]
    fn every_distinct_pair_is_reported_once() {
        // rd[tid]; wr[tid + 1]; rd[tid + 2]: pairs {0,1} and {1,2} race, and
        // the write with itself does not.
        let t = trace(
            &[
                acc(0, Mode::Read, |s| vec![tid(s)]),
                acc(1, Mode::Write, |s| vec![Expr::add(tid(s), n(1))]),
                acc(2, Mode::Read, |s| vec![Expr::add(tid(s), n(2))]),
            ],
            &[],
            vec![],
        );
        let solved = solve(&t, &Options::default());
        let mut pairs: Vec<[u32; 2]> = races(&solved)
            .iter()
            .map(|r| {
                let mut p = r.accesses;
                p.sort();
                p
            })
            .collect();
        pairs.sort();
        assert_eq!(pairs, vec![[0, 1], [1, 2]]);
        for r in races(&solved) {
            let offset = |a: u32| i64::from(a);
            let (t1, t2) = (r.values["tid.x@1"], r.values["tid.x@2"]);
            assert_eq!(t1 + offset(r.accesses[0]), r.index[0]);
            assert_eq!(t2 + offset(r.accesses[1]), r.index[0]);
        }
        // Two races, then the final UNSAT, plus possibly witness refinements.
        assert!(solved.solver_calls >= 3);

        let one = solve(
            &t,
            &Options {
                max_races_per_interval: 1,
                ..Options::default()
            },
        );
        assert_eq!(races(&one).len(), 1);
    }

    #[test]
    fn modes_conflict_as_specified() {
        let same = |a: Mode, b: Mode| {
            let t = trace(
                &[acc(0, a, |_| vec![n(3)]), acc(1, b, |_| vec![n(3)])],
                &[],
                vec![],
            );
            solve(&t, &Options::default()).outcome
        };
        assert_eq!(same(Mode::Read, Mode::Read), Outcome::Drf);
        assert_eq!(same(Mode::Atomic, Mode::Atomic), Outcome::Drf);
        // Reads alone are race free without a query, however hard their
        // indexes: a hash's lookups, `(x ^ y << 8) * x % 256`.
        let lookups = trace(
            &[
                acc(0, Mode::Read, |s| {
                    let x = v(&format!("tid.x{s}"));
                    let y = bin(Op::BitXor, x.clone(), bin(Op::Shl, v("h"), n(8)));
                    vec![bin(Op::Mod, bin(Op::Mul, y, x), n(256))]
                }),
                acc(1, Mode::Read, |_| vec![n(3)]),
            ],
            &["h"],
            vec![],
        );
        let solved = solve(&lookups, &Options::default());
        assert_eq!((solved.outcome, solved.solver_calls), (Outcome::Drf, 0));
        for (a, b) in [
            (Mode::Read, Mode::Atomic),
            (Mode::Write, Mode::Read),
            (Mode::Atomic, Mode::Write),
        ] {
            let outcome = same(a, b);
            let Outcome::Racy(races) = &outcome else {
                panic!("{a:?}/{b:?}: {outcome:?}")
            };
            // Each of the two ids with itself is a read/read or atomic/atomic
            // pair unless it is a write.
            assert!(races.iter().any(|r| r.accesses[0] != r.accesses[1]));
        }
    }

    #[test]
    fn division_by_zero_agrees_with_the_evaluator() {
        // tid / 0 = 0 for every thread: a race; tid % 0 = tid: none.
        let div = trace(
            &[acc(0, Mode::Write, |s| vec![bin(Op::Div, tid(s), n(0))])],
            &[],
            vec![],
        );
        assert!(matches!(
            solve(&div, &Options::default()).outcome,
            Outcome::Racy(_)
        ));
        let rem = trace(
            &[acc(0, Mode::Write, |s| vec![bin(Op::Mod, tid(s), n(0))])],
            &[],
            vec![],
        );
        assert_eq!(solve(&rem, &Options::default()).outcome, Outcome::Drf);
        // Euclidean: (tid - 5) / 2 and (tid - 5) % 2 pin down tid.
        let euclid = trace(
            &[acc(0, Mode::Write, |s| {
                let x = Expr::sub(tid(s), n(5));
                vec![bin(Op::Div, x.clone(), n(2)), bin(Op::Mod, x, n(2))]
            })],
            &[],
            vec![],
        );
        assert_eq!(solve(&euclid, &Options::default()).outcome, Outcome::Drf);
    }

    #[test]
    fn shifts_and_bitwise_operators() {
        let small = vec![le(v("blockDim.x"), n(32))];
        // (tid & 3) + ((tid >> 2) << 2) == tid: no race.
        let t = trace(
            &[acc(0, Mode::Write, |s| {
                vec![Expr::add(
                    bin(Op::BitAnd, tid(s), n(3)),
                    bin(Op::Shl, bin(Op::Shr, tid(s), n(2)), n(2)),
                )]
            })],
            &[],
            small.clone(),
        );
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
        // 1 << tid is injective for tid < 32.
        let t = trace(
            &[acc(0, Mode::Write, |s| vec![bin(Op::Shl, n(1), tid(s))])],
            &[],
            small.clone(),
        );
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
        // tid ^ 1 pairs neighbours: wr[tid ^ 1] against rd[tid] races.
        let t = trace(
            &[
                acc(0, Mode::Write, |s| vec![bin(Op::BitXor, tid(s), n(1))]),
                acc(1, Mode::Read, |s| vec![tid(s)]),
            ],
            &[],
            small,
        );
        let solved = solve(&t, &Options::default());
        for r in races(&solved) {
            let (t1, t2) = (r.values["tid.x@1"], r.values["tid.x@2"]);
            assert_ne!(r.accesses[0], r.accesses[1]);
            assert_eq!(t1 ^ 1, t2, "{r:?}");
        }
    }

    #[test]
    fn loop_variables_are_per_thread_and_bounded() {
        // for j in 0..N { wr[tid * N + j] } with N a param: DRF.
        let mut t = trace(
            &[Acc {
                id: 0,
                mode: Mode::Write,
                index: |s| vec![Expr::add(bin(Op::Mul, tid(s), v("N")), v(&format!("j{s}")))],
                loops: |s| {
                    vec![Binder {
                        var: format!("j{s}"),
                        lo: n(0),
                        hi: v("N"),
                    }]
                },
            }],
            &["N"],
            vec![le(n(0), v("N"))],
        );
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
        // Without the upper bound the loop variable may overrun: racy.
        for a in t.accesses.iter_mut().flatten() {
            a.loops[0].hi = Expr::add(v("N"), n(1));
        }
        let solved = solve(&t, &Options::default());
        let r = &races(&solved)[0];
        let (t1, t2) = (r.values["tid.x@1"], r.values["tid.x@2"]);
        let (j1, j2, big_n) = (r.values["j@1"], r.values["j@2"], r.values["N"]);
        assert_eq!(t1 * big_n + j1, t2 * big_n + j2);
        assert!((0..=big_n).contains(&j1) && (0..=big_n).contains(&j2));
    }

    #[test]
    fn a_remainder_kept_in_range_by_an_offset_every_thread_shares_divides() {
        // for j in 0..K { if (0 <= tid - 1 < n) wr[(j - 1) * w + tid - 1] }
        // under `n <= w`: the column `tid - 1` is below `w`, `tid` is not,
        // so the division by `w` keeps the shared `- 1` in the remainder.
        let mut t = trace(
            &[Acc {
                id: 0,
                mode: Mode::Write,
                index: |s| {
                    let row = bin(Op::Sub, v(&format!("j{s}")), n(1));
                    let col = bin(Op::Sub, tid(s), n(1));
                    vec![Expr::add(bin(Op::Mul, row, v("w")), col)]
                },
                loops: |s| {
                    vec![Binder {
                        var: format!("j{s}"),
                        lo: n(0),
                        hi: v("K"),
                    }]
                },
            }],
            &["w", "n", "K"],
            vec![le(v("n"), v("w"))],
        );
        for (k, accesses) in t.accesses.iter_mut().enumerate() {
            let col = bin(Op::Sub, tid(&format!("@{}", k + 1)), n(1));
            accesses[0].path = Cond::and(le(n(0), col.clone()), lt(col, v("n")));
        }
        let query = Query::encode(&t, true);
        let lemma = query
            .assertions
            .iter()
            .any(|a| a.to_string().contains("!r"));
        assert!(lemma, "no division lemma for the row length `w`");
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
    }

    #[test]
    fn a_row_start_is_divided_beside_the_rows_cells() {
        // atomic[tid * w] beside for j in 0..K { if (j < w) rd[tid * w + j] }:
        // the row start's remainder is zero, not seen below `w` (which may
        // be 0), yet its parts join the lemma, whose premise asks `0 < w`.
        let mut t = trace(
            &[
                acc(0, Mode::Atomic, |s| vec![bin(Op::Mul, tid(s), v("w"))]),
                Acc {
                    id: 1,
                    mode: Mode::Read,
                    index: |s| {
                        let row = bin(Op::Mul, tid(s), v("w"));
                        vec![Expr::add(row, v(&format!("j{s}")))]
                    },
                    loops: |s| {
                        vec![Binder {
                            var: format!("j{s}"),
                            lo: n(0),
                            hi: v("K"),
                        }]
                    },
                },
            ],
            &["w", "K"],
            vec![le(n(0), v("w"))],
        );
        for (k, accesses) in t.accesses.iter_mut().enumerate() {
            accesses[1].path = lt(v(&format!("j@{}", k + 1)), v("w"));
        }
        let query = Query::encode(&t, true);
        let start = query
            .assertions
            .iter()
            .any(|a| a.to_string().contains("(= !r0.0@1 0)"));
        assert!(start, "the row start has no parts");
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
    }

    #[test]
    fn witnesses_prefer_small_values_but_respect_assumptions() {
        let big = vec![eq(v("blockDim.x"), n(2000))];
        let t = trace(
            &[acc(0, Mode::Write, |s| vec![bin(Op::Min, tid(s), n(1500))])],
            &[],
            big,
        );
        let solved = solve(&t, &Options::default());
        let r = &races(&solved)[0];
        assert_eq!(r.values["blockDim.x"], 2000);
        assert!(r.values["tid.x@1"] >= 1500 && r.values["tid.x@2"] >= 1500);
    }

    #[test]
    fn no_threads_differ_no_race() {
        // `blockDim.x == 1`: a single thread races with no one.
        let t = trace(
            &[acc(0, Mode::Write, |_| vec![n(0)])],
            &[],
            vec![eq(v("blockDim.x"), n(1))],
        );
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
    }

    #[test]
    fn bitwise_encodings_match_twos_complement() {
        use z3::ast::Ast;
        let values = [
            0,
            1,
            2,
            3,
            5,
            7,
            8,
            31,
            1000,
            -1,
            -2,
            -5,
            -8,
            -1000,
            i64::MAX,
            i64::MIN,
        ];
        type Concrete = fn(i64, i64) -> i64;
        let ops: [(Op, Concrete); 3] = [
            (Op::BitAnd, |a, b| a & b),
            (Op::BitOr, |a, b| a | b),
            (Op::BitXor, |a, b| a ^ b),
        ];
        for (op, f) in ops {
            for a in values {
                for c in values {
                    let x = Int::from_i64(a);
                    let mut terms = vec![
                        ("constant", with_constant(op, &x, c, &mut DivMod(&x))),
                        (
                            "bit-vector",
                            bitwise(op, &x, &Int::from_i64(c), [u64::MAX; 2]),
                        ),
                    ];
                    // As narrow as both operands' one bits, or one's.
                    if a >= 0 && c >= 0 {
                        let bits = [a as u64, c as u64];
                        terms.push(("narrow", bitwise(op, &x, &Int::from_i64(c), bits)));
                    }
                    if a >= 0 {
                        let bits = [a as u64, u64::MAX];
                        terms.push(("narrow", bitwise(op, &x, &Int::from_i64(c), bits)));
                    }
                    if c >= 0 {
                        let bits = [u64::MAX, c as u64];
                        terms.push(("narrow", bitwise(op, &x, &Int::from_i64(c), bits)));
                    }
                    for (how, term) in terms {
                        assert_eq!(
                            term.simplify().as_i64(),
                            Some(f(a, c)),
                            "{how}: {a} {op:?} {c}"
                        );
                    }
                }
            }
        }
        for a in [0, 1, -1, 7, -7, 1 << 40] {
            for b in [0, 1, 5, 62] {
                let (x, y) = (Int::from_i64(a), Int::from_i64(b));
                let shl = shift_by(&y, |p| Int::mul(&[x.clone(), Int::from_i64(p)]));
                assert_eq!(
                    shl.simplify().as_i128(),
                    Some(i128::from(a) << b),
                    "{a} << {b}"
                );
                let shr = shift_by(&y, |p| x.div(Int::from_i64(p)));
                assert_eq!(shr.simplify().as_i64(), Some(a >> b), "{a} >> {b}");
            }
        }
    }

    #[test]
    fn shifts_by_a_variable_match_the_evaluator() {
        for (a, b) in [(-7i64, 0i64), (-7, 2), (40, 3), (-7, 63), (-7, 70), (9, 64)] {
            for (op, expected) in [
                (Op::Shr, Some(a >> b.min(63))),
                (Op::Shl, (b < 63).then(|| a << b)),
            ] {
                let mut enc = Encoder::default();
                let term = enc.expr(&bin(op, n(a), v("b")));
                let solver = Solver::new();
                solver.assert(enc.var("b").eq(Int::from_i64(b)));
                assert_eq!(solver.check(), SatResult::Sat);
                let got = solver
                    .get_model()
                    .unwrap()
                    .eval(&term, true)
                    .and_then(|x| x.as_i64());
                if let Some(e) = expected {
                    assert_eq!(got, Some(e), "{a} {op:?} {b}");
                }
            }
        }
    }

    #[test]
    fn the_parity_of_an_xor_matches_the_evaluator_and_needs_no_bit_vectors() {
        let parity = bin(Op::Mod, bin(Op::BitXor, v("x"), v("y")), n(2));
        let values = [0, 1, 2, 7, 8, -1, -2, -7, i64::MAX, i64::MIN];
        for a in values {
            for b in values {
                let mut enc = Encoder::default();
                let term = enc.expr(&parity);
                let solver = Solver::new();
                solver.assert(enc.var("x").eq(Int::from_i64(a)));
                solver.assert(enc.var("y").eq(Int::from_i64(b)));
                assert_eq!(solver.check(), SatResult::Sat);
                let got = solver.get_model().unwrap().eval(&term, true);
                let env = |name: &str| match name {
                    "x" => Some(a),
                    "y" => Some(b),
                    _ => None,
                };
                let expected = crate::protocol::eval::eval_expr(&parity, &env);
                assert_eq!(
                    got.and_then(|x| x.as_i64()),
                    expected.ok(),
                    "({a} ^ {b}) % 2"
                );
                assert!(!term.to_string().contains("bv"), "{term}");
            }
        }
        // A swizzled tile (`((k >> 3) ^ (m >> 2)) % 2 * 8` added to row `m`
        // of 16, for the two halves `k` of a row): distinct cells, proved.
        let t = trace(
            &[acc(0, Mode::Write, |s| {
                let (m, k) = (
                    bin(Op::Div, tid(s), n(2)),
                    bin(Op::Mul, bin(Op::Mod, tid(s), n(2)), n(8)),
                );
                let swizzle = bin(
                    Op::Mod,
                    bin(
                        Op::BitXor,
                        bin(Op::Shr, k, n(3)),
                        bin(Op::Shr, m.clone(), n(2)),
                    ),
                    n(2),
                );
                vec![Expr::add(
                    bin(Op::Mul, m, n(16)),
                    bin(Op::Shl, swizzle, n(3)),
                )]
            })],
            &[],
            vec![le(v("blockDim.x"), n(256))],
        );
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
    }

    /// Whether `query`'s assertions have a model, on a fresh solver.
    fn satisfiable(query: &Query) -> SatResult {
        let solver = Solver::new();
        for a in &query.assertions {
            solver.assert(a);
        }
        solver.check()
    }

    #[test]
    fn exclusive_or_partners_are_proved_by_the_bitwise_abstraction() {
        // A bitonic step: a thread whose partner `tid ^ j` is above it
        // writes its own cell and its partner's.
        let guarded = |partners_above: bool| {
            let own = |sfx: &str| vec![tid(sfx)];
            let partner = |sfx: &str| vec![bin(Op::BitXor, tid(sfx), v("j"))];
            let mut t = trace(
                &[acc(0, Mode::Write, own), acc(1, Mode::Write, partner)],
                &["j"],
                vec![],
            );
            for (k, sfx) in ["@1", "@2"].into_iter().enumerate() {
                let xor = bin(Op::BitXor, tid(sfx), v("j"));
                let rel = if partners_above { Rel::Gt } else { Rel::Ne };
                for a in &mut t.accesses[k] {
                    a.path = Cond::cmp(rel, xor.clone(), tid(sfx));
                }
            }
            t
        };
        let t = guarded(true);
        assert_eq!(xor_lemmas(&t, &mut Encoder::default()).len(), 2);
        assert!(Query::bitwise_abstraction(&t, true).abstracted);
        assert!(abstraction_unsat(&t, true, Deadline::never(), None).0);
        // Both partners of a pair swapping: a race, which no lemma hides.
        let t = guarded(false);
        assert!(!abstraction_unsat(&t, true, Deadline::never(), None).0);
        let quick = Options {
            timeout_ms: 500,
            ..Options::default()
        };
        assert_ne!(solve(&t, &quick).outcome, Outcome::Drf);
    }

    #[test]
    fn products_both_threads_share_are_proved_by_the_abstraction() {
        // `N * M * 4 + tid`: the product cancels out of the index equality.
        let shared = |sfx: &str| {
            let nm = bin(Op::Mul, v("N"), v("M"));
            vec![Expr::add(bin(Op::Mul, nm, n(4)), tid(sfx))]
        };
        let t = trace(&[acc(0, Mode::Write, shared)], &["N", "M"], vec![]);
        let abstraction = Query::abstraction(&t, true);
        assert!(abstraction.abstracted);
        assert_eq!(satisfiable(&abstraction), SatResult::Unsat);
        assert!(abstraction_unsat(&t, true, Deadline::never(), None).0);
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
    }

    #[test]
    fn ids_rebuilt_from_quotient_and_remainders_are_proved_by_the_abstraction() {
        // `t * (N * N) + i * N + j` with `t`, `i`, `j` the quotient and
        // remainders of `tid` by `H * H` and `H`, and `H <= N`: equal digits
        // give back equal ids without multiplying out.
        fn tile(sfx: &str) -> Vec<Expr> {
            let hh = bin(Op::Mul, v("H"), v("H"));
            let loc = bin(Op::Mod, tid(sfx), hh.clone());
            let t = bin(Op::Div, tid(sfx), hh);
            let i = bin(Op::Div, loc.clone(), v("H"));
            let j = bin(Op::Mod, loc, v("H"));
            let plane = bin(Op::Mul, t, bin(Op::Mul, v("N"), v("N")));
            vec![Expr::add(Expr::add(plane, bin(Op::Mul, i, v("N"))), j)]
        }
        let t = trace(
            &[acc(0, Mode::Write, tile)],
            &["N", "H"],
            vec![le(v("H"), v("N")), le(n(1), v("H")), le(n(0), v("N"))],
        );
        let abstraction = Query::abstraction(&t, true);
        assert_eq!(satisfiable(&abstraction), SatResult::Unsat);
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
        // Without `H <= N` the rows of a tile overlap.
        let t = trace(
            &[acc(0, Mode::Write, tile)],
            &["N", "H"],
            vec![le(n(1), v("H"))],
        );
        assert!(matches!(
            solve(&t, &Options::default()).outcome,
            Outcome::Racy(_)
        ));
    }

    #[test]
    fn accesses_under_one_lock_do_not_race() {
        use crate::protocol::Lock;
        // `bins[b] += 1` with `b` each thread's own, under `locks[f(b)]`.
        let t = trace(
            &[
                acc(0, Mode::Read, |s| vec![v(&format!("b{s}"))]),
                acc(1, Mode::Write, |s| vec![v(&format!("b{s}"))]),
            ],
            &[],
            vec![],
        );
        let under = |lock: fn(&str) -> Option<Vec<Expr>>| {
            let mut t = t.clone();
            for (k, accesses) in t.accesses.iter_mut().enumerate() {
                for a in accesses {
                    a.lock = lock(&format!("@{}", k + 1)).map(|index| Lock {
                        array: "locks".into(),
                        index,
                    });
                }
            }
            solve(&t, &Options::default()).outcome
        };
        assert!(matches!(under(|_| None), Outcome::Racy(_)));
        // The bin's own lock: ordered.
        assert_eq!(under(|s| Some(vec![v(&format!("b{s}"))])), Outcome::Drf);
        // One lock for every bin: ordered too.
        assert_eq!(under(|_| Some(vec![n(0)])), Outcome::Drf);
        // A lock per thread, not per bin: two threads on one bin race.
        assert!(matches!(under(|s| Some(vec![tid(s)])), Outcome::Racy(_)));
        // Only the second thread's accesses under the lock: a race.
        assert!(matches!(
            under(|s| (s == "@2").then(|| vec![n(0)])),
            Outcome::Racy(_)
        ));
    }

    #[test]
    fn remainders_by_a_loop_variable_keep_their_difference() {
        // Round `s` of an interleaved sum chosen by the global index:
        // `if ((b * B + tid) % (2 * s) == 0) { rd[tid + s]; wr[tid] }`.
        let mut t = trace(
            &[
                acc(0, Mode::Read, |s| vec![Expr::add(tid(s), v("s"))]),
                acc(1, Mode::Write, |s| vec![tid(s)]),
            ],
            &["s", "b"],
            vec![le(n(1), v("s")), le(n(0), v("b"))],
        );
        for (k, accesses) in t.accesses.iter_mut().enumerate() {
            let g = Expr::add(
                bin(Op::Mul, v("b"), v("blockDim.x")),
                tid(&format!("@{}", k + 1)),
            );
            let guard = eq(bin(Op::Mod, g, bin(Op::Mul, n(2), v("s"))), n(0));
            for a in accesses {
                a.path = guard.clone();
            }
        }
        let query = Query::encode(&t, true);
        assert_eq!(within_budget(&query.assertions), SatResult::Unsat);
        // The lemma is what makes it quick.
        let mut enc = Encoder::default();
        let without = leaving_out(&query, &congruence_lemmas(&t, &mut enc));
        assert_eq!(within_budget(&without), SatResult::Unknown);
    }

    #[test]
    fn frames_laid_out_by_the_count_of_threads_are_apart() {
        // Rows of 1096 cells, laid out as `(F + row) * 4 + F` for one kind
        // of result and `(F + row) * 2 + F` for another, with `F` the count
        // of threads and `row` a thread's row-major number: the kinds fill
        // rows `5F..9F` and `3F..5F`, apart because `row < F`, and two
        // threads' rows of one kind differ because their numbers do.
        fn linear(s: &str) -> Expr {
            let ty = v(&format!("tid.y{s}"));
            Expr::add(bin(Op::Mul, ty, v("blockDim.x")), tid(s))
        }
        // Cell `p` of the thread's row, `(frames + row) * rows + frames`
        // rows in.
        fn cell_of_kind(s: &str, rows: i64) -> Vec<Expr> {
            let frames = bin(Op::Mul, v("blockDim.x"), v("blockDim.y"));
            let at = Expr::add(
                bin(Op::Mul, Expr::add(frames.clone(), linear(s)), n(rows)),
                frames,
            );
            vec![Expr::add(bin(Op::Mul, at, n(1096)), v(&format!("p{s}")))]
        }
        fn cell(s: &str) -> Vec<Binder> {
            vec![Binder {
                var: format!("p{s}"),
                lo: n(0),
                hi: n(1096),
            }]
        }
        let mut t = trace(
            &[
                Acc {
                    id: 0,
                    mode: Mode::Write,
                    index: |s| cell_of_kind(s, 4),
                    loops: cell,
                },
                Acc {
                    id: 1,
                    mode: Mode::Write,
                    index: |s| cell_of_kind(s, 2),
                    loops: cell,
                },
            ],
            &["blockDim.y"],
            vec![le(n(1), v("blockDim.y"))],
        );
        for k in 1..=2 {
            let ty = v(&format!("tid.y@{k}"));
            t.assumptions
                .push(Cond::and(le(n(0), ty.clone()), lt(ty, v("blockDim.y"))));
            t.locals[k - 1].push(format!("tid.y@{k}"));
        }
        let mut enc = Encoder::default();
        let lemmas = id_product_lemmas(&t, &mut enc);
        // `tid.y * blockDim.x` of each thread: a bound each, both ways of
        // writing the count, and the pair's distance both ways.
        assert_eq!(lemmas.len(), 6, "{lemmas:?}");
        // Each is a theorem of the trace's assumptions.
        for lemma in &lemmas {
            let solver = Solver::new();
            for c in &t.assumptions {
                solver.assert(enc.cond(c));
            }
            solver.assert(lemma.not());
            assert_eq!(solver.check(), SatResult::Unsat, "{lemma}");
        }
        // And they are what proves the frames apart with the products
        // uninterpreted, which the exact query cannot within a budget.
        let query = Query::abstraction(&t, true);
        let mut enc = Encoder {
            abstracted: Some(Abstracted::default()),
            ..Encoder::default()
        };
        let lemmas = id_product_lemmas(&t, &mut enc);
        assert_eq!(within_budget(&query.assertions), SatResult::Unsat);
        assert_eq!(within_budget(&leaving_out(&query, &lemmas)), SatResult::Sat);
    }

    #[test]
    fn tiles_a_computed_stride_apart_are_told_apart_by_whole_strides() {
        // for j in st..16 - st { wr[(16 - 2 * st) * tid + j - st] }: each
        // thread's cells, `16 - 2 * st` of them, start that stride apart,
        // as a ghost-zone stencil's tiles do.
        fn tile(s: &str) -> Vec<Expr> {
            let stride = Expr::sub(n(16), bin(Op::Mul, n(2), v("st")));
            let column = Expr::sub(v(&format!("j{s}")), v("st"));
            vec![Expr::add(bin(Op::Mul, stride, tid(s)), column)]
        }
        fn cells(s: &str) -> Vec<Binder> {
            vec![Binder {
                var: format!("j{s}"),
                lo: v("st"),
                hi: Expr::sub(n(16), v("st")),
            }]
        }
        let t = trace(
            &[Acc {
                id: 0,
                mode: Mode::Write,
                index: tile,
                loops: cells,
            }],
            &["st"],
            Vec::new(),
        );
        // The exact query has the lemmas as theorems: none asked there.
        assert!(stride_lemmas(&t, &mut Encoder::default()).is_empty());
        let query = Query::abstraction(&t, true);
        let mut enc = Encoder {
            abstracted: Some(Abstracted::default()),
            ..Encoder::default()
        };
        let lemmas = stride_lemmas(&t, &mut enc);
        // One product of the shared stride by each thread's id: either
        // thread's id the smaller.
        assert_eq!(lemmas.len(), 2, "{lemmas:?}");
        assert_eq!(within_budget(&query.assertions), SatResult::Unsat);
        assert_eq!(within_budget(&leaving_out(&query, &lemmas)), SatResult::Sat);
    }

    #[test]
    fn even_splits_are_proved_by_the_order_of_quotients() {
        // for i in N * tid / S .. N * (tid + 1) / S { wr[i] }: the ranges of
        // two threads follow each other.
        fn split(s: &str) -> Vec<Binder> {
            let at = |t: Expr| bin(Op::Div, bin(Op::Mul, v("N"), t), v("S"));
            vec![Binder {
                var: format!("i{s}"),
                lo: at(tid(s)),
                hi: at(Expr::add(tid(s), n(1))),
            }]
        }
        let mut t = trace(
            &[Acc {
                id: 0,
                mode: Mode::Write,
                index: |s| vec![v(&format!("i{s}"))],
                loops: split,
            }],
            &["N", "S"],
            vec![le(n(0), v("N")), le(v("blockDim.x"), v("S"))],
        );
        let abstraction = Query::abstraction(&t, true);
        assert_eq!(satisfiable(&abstraction), SatResult::Unsat);
        assert_eq!(solve(&t, &Options::default()).outcome, Outcome::Drf);
        // Ranges two threads wide overlap.
        for a in t.accesses.iter_mut().flatten() {
            let Expr::Bin(_, product, _) = &a.loops[0].hi else {
                unreachable!()
            };
            let Expr::Bin(_, _, next) = &**product else {
                unreachable!()
            };
            a.loops[0].hi = bin(
                Op::Div,
                bin(Op::Mul, v("N"), Expr::add((**next).clone(), n(1))),
                v("S"),
            );
        }
        assert!(matches!(
            solve(&t, &Options::default()).outcome,
            Outcome::Racy(_)
        ));
    }

    #[test]
    fn the_abstraction_never_proves_a_racy_query() {
        // `tid * N` races for N = 0, `tid / N` for N > 1, `tid % N` for
        // N = 1: each is a model of the abstraction too.
        let shapes: [fn(&str) -> Vec<Expr>; 3] = [
            |sfx| vec![bin(Op::Mul, tid(sfx), v("N"))],
            |sfx| vec![bin(Op::Div, tid(sfx), v("N"))],
            |sfx| vec![bin(Op::Mod, tid(sfx), v("N"))],
        ];
        for index in shapes {
            let t = trace(&[acc(0, Mode::Write, index)], &["N"], vec![]);
            assert_eq!(satisfiable(&Query::abstraction(&t, true)), SatResult::Sat);
            assert!(!abstraction_unsat(&t, true, Deadline::never(), None).0);
            assert!(matches!(
                solve(&t, &Options::default()).outcome,
                Outcome::Racy(_)
            ));
        }
        // A linear query has nothing to abstract and is not asked twice.
        let t = trace(&[acc(0, Mode::Write, |sfx| vec![tid(sfx)])], &[], vec![]);
        assert!(!Query::abstraction(&t, true).abstracted);
        assert_eq!(
            abstraction_unsat(&t, true, Deadline::never(), None),
            (false, 0)
        );
    }

    #[test]
    fn shared_digit_fields_are_exact() {
        // Several bits of one value through its fields, against the
        // concrete operators: exactly one value for each term.
        let values = [0i64, 1, 5, 6, 31, 1000, -1, -6, -1000];
        let constants = [1i64, 4, 6, 31, 512, -1, -4, -7];
        type Concrete = fn(i64, i64) -> i64;
        let ops: [(Op, Concrete); 3] = [
            (Op::BitAnd, |a, b| a & b),
            (Op::BitOr, |a, b| a | b),
            (Op::BitXor, |a, b| a ^ b),
        ];
        for a in values {
            let mut enc = Encoder::default();
            let terms: Vec<(Int, i64, String)> = ops
                .iter()
                .flat_map(|&(op, f)| constants.map(|c| (op, f, c)))
                .map(|(op, f, c)| {
                    (
                        enc.expr(&bin(op, v("a"), n(c))),
                        f(a, c),
                        format!("{a} {op:?} {c}"),
                    )
                })
                .collect();
            assert!(!enc.fields.is_empty(), "the fields are in use");
            let solver = Solver::new();
            for side in &enc.side {
                solver.assert(side);
            }
            solver.assert(enc.var("a").eq(Int::from_i64(a)));
            for (term, expected, what) in &terms {
                solver.push();
                solver.assert(term.ne(Int::from_i64(*expected)));
                assert_eq!(solver.check(), SatResult::Unsat, "{what}");
                solver.pop(1);
            }
        }
    }

    #[test]
    fn every_restart_strategy_answers_and_gives_models() {
        for (k, strategy) in RESTARTS.iter().enumerate() {
            let solver = Limited::with(*strategy, k as u32 + 1);
            let x = Int::new_const("x");
            solver.push();
            solver.assert(x.div(Int::from_i64(4)).eq(Int::from_i64(3)));
            solver.assert(x.modulo(Int::from_i64(4)).eq(Int::from_i64(1)));
            assert_eq!(solver.check(), SatResult::Sat, "{strategy:?}");
            let model = solver.get_model().expect("a model");
            assert_eq!(
                model.eval(&x, true).and_then(|v| v.as_i64()),
                Some(13),
                "{strategy:?}"
            );
            solver.pop(1);
            solver.assert(x.modulo(Int::from_i64(4)).eq(Int::from_i64(4)));
            assert_eq!(solver.check(), SatResult::Unsat, "{strategy:?}");
        }
    }

    #[test]
    fn canonical_names_round_trip() {
        let t = trace(&[acc(0, Mode::Write, |_| vec![n(0)])], &[], vec![]);
        let solved = solve(&t, &Options::default());
        let canonical = solved.outcome.to_canonical(&t);
        let Outcome::Racy(rs) = &canonical else {
            panic!()
        };
        assert!(rs[0].values.keys().all(|k| k.starts_with('v')));
        assert_eq!(canonical.from_canonical(&t), solved.outcome);
        let json = serde_json::to_string(&canonical).unwrap();
        assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), canonical);
    }
}
