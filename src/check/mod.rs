//! Verdicts (DESIGN §6): run the pipeline on each array protocol of a kernel,
//! turn solver models into witnesses, replay every witness on the concrete
//! evaluator, and classify races as confirmed or possible.

mod divergence;

use crate::analysis::{self, Trace, TraceAccess};
use crate::protocol::eval::{self, EvalError, Instance};
use crate::protocol::{
    builtin, wf, ArrayProtocol, Assumed, Cond, Expr, Kernel, Loc, Mode, Op, Rel, Value,
};
use crate::smt::{self, Outcome, RawRace};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Drf,
    Racy,
    Divergent,
    Unknown,
    Unsupported,
    Error,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Drf => "drf",
            Verdict::Racy => "racy",
            Verdict::Divergent => "divergent",
            Verdict::Unknown => "unknown",
            Verdict::Unsupported => "unsupported",
            Verdict::Error => "error",
        }
    }
    /// The verdict of a kernel from those of its arrays: the worst wins.
    pub fn combine(self, other: Verdict) -> Verdict {
        fn rank(v: Verdict) -> u8 {
            match v {
                Verdict::Drf => 0,
                Verdict::Unknown => 1,
                Verdict::Unsupported => 2,
                Verdict::Error => 3,
                Verdict::Divergent => 4,
                Verdict::Racy => 5,
            }
        }
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Nothing the race depends on is an unknown: provably real (seed 001).
    Confirmed,
    /// The index or a path condition depends on an unknown.
    Possible,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RaceAccess {
    pub id: u32,
    pub loc: Loc,
    pub mode: Mode,
}

/// Concrete values that make a race happen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Witness {
    /// Params, launch dimensions and synchronized-loop variables.
    pub globals: BTreeMap<String, i64>,
    /// Each thread's ids, locals and unsynchronized-loop variables, under
    /// their source names (no `@1`/`@2` suffix).
    pub threads: [BTreeMap<String, i64>; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Race {
    pub array: String,
    /// `accesses[i]` is issued by `witness.threads[i]`.
    pub accesses: [RaceAccess; 2],
    pub index: Vec<i64>,
    pub confidence: Confidence,
    pub witness: Witness,
    /// A condition over parameters and launch dimensions under which the
    /// array has no race: the `__requires` that would prove it. A race with
    /// one is only *possible*: callers may never pass the values it needs.
    #[serde(default)]
    pub precondition: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrayReport {
    pub name: String,
    pub verdict: Verdict,
    /// Why the verdict is `divergent`, `unknown`, `unsupported` or `error`.
    pub reason: Option<String>,
    /// The barrier for `divergent`, the construct for `unsupported`.
    pub loc: Option<Loc>,
    pub races: Vec<Race>,
    /// Benign races: two writes of provably equal values to one cell, not
    /// counted as races unless `Options::strict`.
    #[serde(default)]
    pub benign: Vec<Race>,
    pub intervals: usize,
    pub solver_calls: usize,
}

impl ArrayReport {
    /// The report of array `name` before any race, interval or solver call
    /// is counted in it.
    pub fn empty(name: impl Into<String>, verdict: Verdict, reason: Option<String>) -> ArrayReport {
        ArrayReport {
            name: name.into(),
            verdict,
            reason,
            loc: None,
            races: Vec::new(),
            benign: Vec::new(),
            intervals: 0,
            solver_calls: 0,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelReport {
    pub name: String,
    pub arrays: Vec<ArrayReport>,
    /// Where the kernel's protocols over-approximate it
    /// (`Kernel::approximations`): why its races are only possible.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approximations: Vec<String>,
}

impl KernelReport {
    pub fn verdict(&self) -> Verdict {
        self.arrays
            .iter()
            .fold(Verdict::Drf, |v, a| v.combine(a.verdict))
    }

    /// The array that gives the kernel its verdict, reason and location;
    /// none when the kernel is DRF.
    pub fn worst(&self) -> Option<&ArrayReport> {
        let verdict = self.verdict();
        self.arrays
            .iter()
            .find(|a| a.verdict == verdict && verdict != Verdict::Drf)
    }
}

pub use crate::options::{Deadline, Options, ANALYSIS_VERSION, TIME_BUDGET};

/// Solver outcomes by trace content hash ([`Trace::hash`]), shared by the
/// threads of a scan. Outcomes are stored with canonical variable names
/// ([`Outcome::to_canonical`]), as traces with one hash may name their
/// variables differently.
pub trait TraceCache: Sync {
    fn get(&self, hash: &str) -> Option<Outcome>;
    fn put(&self, hash: &str, outcome: &Outcome);
    /// How the precondition searches for races of the shape `key` (see
    /// [`template_search_key`]) went earlier in this scan. Kept in memory
    /// only.
    fn search_tally(&self, _key: &str) -> Option<SearchTally> {
        None
    }
    /// Counts a search for races of the shape `key`: `Some(undecided)`
    /// when it came to nothing in its time, `None` when it ended.
    fn tally_search(&self, _key: &str, _futile: Option<bool>) {}
}

/// How the precondition searches for one shape of races went in a scan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchTally {
    /// Searches that came to nothing in their time.
    pub futile: u32,
    /// Whether one ended: a precondition found, or every candidate
    /// refuted.
    pub settled: bool,
    /// Whether the last futile one left a candidate unsettled (else its
    /// time ran out).
    pub undecided: bool,
}

impl SearchTally {
    /// Whether searches of this shape are not worth repeating: several
    /// came to nothing and none ended. One alone may have run out of time
    /// where the next finds a precondition.
    pub fn futile(&self) -> bool {
        !self.settled && self.futile >= FUTILE_SEARCHES
    }

    pub fn count(&mut self, futile: Option<bool>) {
        match futile {
            Some(undecided) => {
                self.futile += 1;
                self.undecided = undecided;
            }
            None => self.settled = true,
        }
    }
}

/// Searches of one shape of races that come to nothing before the rest
/// are not repeated.
const FUTILE_SEARCHES: u32 = 3;

/// The cache that remembers nothing.
pub struct NoCache;

impl TraceCache for NoCache {
    fn get(&self, _hash: &str) -> Option<Outcome> {
        None
    }
    fn put(&self, _hash: &str, _outcome: &Outcome) {}
}

/// Where the time of one check went, and how much the cache saved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Traces built (barrier intervals, plus one cross-block trace per
    /// global array).
    pub traces: usize,
    /// Traces answered by the cache.
    pub cache_hits: usize,
    pub solver_calls: usize,
    /// Well-formedness, split and seq.
    pub analysis: Duration,
    pub solve: Duration,
    pub replay: Duration,
    /// Traces whose search the kernel's budget ended (`--kernel-timeout`):
    /// the report is then not the whole answer, and is not cached.
    pub cut_short: usize,
}

impl Stats {
    fn add(&mut self, other: &Stats) {
        self.cut_short += other.cut_short;
        self.traces += other.traces;
        self.cache_hits += other.cache_hits;
        self.solver_calls += other.solver_calls;
        self.analysis += other.analysis;
        self.solve += other.solve;
        self.replay += other.replay;
    }
}

/// Steps the evaluator may take to replay one witness.
pub const REPLAY_BUDGET: u64 = 10_000_000;

/// Steps for each later witness of an array once one ran out of
/// [`REPLAY_BUDGET`]: witnesses of one array tend to run the same loops,
/// and a kernel with many races would spend most of its time in replays
/// that end the same way.
const REPLAY_BUDGET_AFTER_EXHAUSTION: u64 = REPLAY_BUDGET / 16;

/// Checks every array protocol of `kernel`.
pub fn check_kernel(kernel: &Kernel, opts: &Options) -> KernelReport {
    check_kernel_cached(kernel, opts, &NoCache)
}

/// [`check_kernel`], answering traces from `cache` where it can.
pub fn check_kernel_cached(
    kernel: &Kernel,
    opts: &Options,
    cache: &dyn TraceCache,
) -> KernelReport {
    check_kernel_stats(kernel, opts, cache).0
}

/// [`check_kernel_cached`] with where the time went.
pub fn check_kernel_stats(
    kernel: &Kernel,
    opts: &Options,
    cache: &dyn TraceCache,
) -> (KernelReport, Stats) {
    // One budget for the whole kernel, every array's queries included.
    let deadline = Deadline::after_ms(opts.kernel_timeout_ms);
    let (mut report, mut stats) = check_within(kernel, opts, cache, deadline);
    // Proved under what a variant assumes (parameters that are powers of
    // two, a flat block): the races need what the precondition rules out.
    let mut proved = None;
    for variant in &kernel.variants {
        if !matches!(report.verdict(), Verdict::Racy | Verdict::Unknown) {
            break;
        }
        let (variant_report, s) = check_within(&variant.kernel, opts, cache, deadline);
        stats.add(&s);
        if variant_report.verdict() == Verdict::Drf {
            proved = Some(variant);
            break;
        }
    }
    let Some(variant) = proved else {
        return (report, stats);
    };
    let precondition = match &variant.assumed {
        Assumed::PowersOfTwo(params) => params
            .iter()
            .map(|p| format!("__is_pow2({})", source_name(kernel, p).0))
            .collect::<Vec<_>>()
            .join(" && "),
        Assumed::FlatBlock => "blockDim.y == 1 && blockDim.z == 1".to_string(),
    };
    for a in &mut report.arrays {
        match a.verdict {
            Verdict::Racy => {
                removed_by(&mut a.races, &precondition);
                // The precondition is found after all.
                if let Some(why) = a.reason.take() {
                    let rest: Vec<&str> = why
                        .split("; ")
                        .filter(|p| {
                            ![
                                PRECONDITION_CUT_SHORT,
                                PRECONDITION_UNDECIDED,
                                PRECONDITION_SHARED,
                            ]
                            .contains(p)
                        })
                        .collect();
                    a.reason = (!rest.is_empty()).then(|| rest.join("; "));
                }
            }
            Verdict::Unknown => {
                let why = a.reason.take().unwrap_or_default();
                a.reason = Some(format!(
                    "{why}; no race if callers ensure `__requires({precondition})`"
                ));
            }
            _ => {}
        }
    }
    (report, stats)
}

/// Races a precondition removes: only possible, and it says which.
fn removed_by(races: &mut [Race], precondition: &str) {
    for r in races {
        r.confidence = Confidence::Possible;
        r.precondition = Some(precondition.to_string());
    }
}

/// [`check_kernel_stats`] of the kernel itself, within `deadline`.
fn check_within(
    kernel: &Kernel,
    opts: &Options,
    cache: &dyn TraceCache,
    deadline: Deadline,
) -> (KernelReport, Stats) {
    let mut stats = Stats::default();
    let prepared = prepare(kernel);
    if assumptions_admit_no_launch(&prepared) {
        stats.solver_calls += 1;
        let arrays = prepared
            .arrays
            .iter()
            .map(|a| ArrayReport::empty(&a.name, Verdict::Unknown, Some(VACUOUS.into())))
            .collect();
        let report = KernelReport {
            name: kernel.name.clone(),
            arrays,
            approximations: prepared.approximations.clone(),
        };
        return (report, stats);
    }
    let launches: Vec<Kernel> = launch_alternatives(kernel).iter().map(prepare).collect();
    let arrays: Vec<ArrayReport> = prepared
        .arrays
        .iter()
        .map(|array| {
            if let Some(v) = prepared.unbound_variable(array) {
                let why = format!(
                    "internal error: the protocol of `{}` names `{v}` where nothing binds it",
                    array.name
                );
                return ArrayReport::empty(&array.name, Verdict::Error, Some(why));
            }
            if launches.is_empty() {
                let (report, s) = check_prepared(&prepared, array, opts, cache, deadline);
                stats.add(&s);
                return report;
            }
            // One launch at a time: each fixes its sizes and arguments to
            // constants, which keeps the solver's arithmetic linear where
            // the disjunction of them all is not.
            let mut merged: Option<ArrayReport> = None;
            for k in &launches {
                let Some(array) = k.array(&array.name).filter(|a| a.scope == array.scope) else {
                    continue;
                };
                let (report, s) = check_prepared(k, array, opts, cache, deadline);
                stats.add(&s);
                merged = Some(match merged {
                    None => report,
                    Some(m) => merge_reports(m, report),
                });
            }
            merged.unwrap_or_else(|| {
                let (report, s) = check_prepared(&prepared, array, opts, cache, deadline);
                stats.add(&s);
                report
            })
        })
        .collect();
    let mut approximations = prepared.approximations.clone();
    if let Some(note) = open_template_note(kernel, &arrays) {
        approximations.push(note);
    }
    (
        KernelReport {
            name: kernel.name.clone(),
            arrays,
            approximations,
        },
        stats,
    )
}

/// Why a kernel template's races are possible when they depend on a
/// value argument no instantiation fixes (`witness` decides which do).
fn open_template_note(kernel: &Kernel, arrays: &[ArrayReport]) -> Option<String> {
    if kernel.open_template_params.is_empty() || !kernel.approximations.is_empty() {
        return None;
    }
    let possible = arrays
        .iter()
        .flat_map(|a| &a.races)
        .any(|r| r.confidence == Confidence::Possible && r.precondition.is_none());
    if !possible {
        return None;
    }
    let names: Vec<String> = kernel
        .open_template_params
        .iter()
        .map(|p| format!("`{p}`"))
        .collect();
    Some(format!(
        "the template is analysed for every value of {}: no instantiation in the scanned code fixes it",
        names.join(", ")
    ))
}

/// Why a kernel whose assumptions no launch satisfies has no verdict.
pub const VACUOUS: &str = "vacuous: no launch satisfies the kernel's assumptions \
     (its launches, `__requires`, --block-dim, --grid-dim, --param), so nothing was checked";

/// Whether no launch satisfies the kernel's assumptions: every query
/// would then be unsatisfiable and the kernel race free for nothing.
fn assumptions_admit_no_launch(kernel: &Kernel) -> bool {
    launch_satisfies(kernel, &[]) == Some(false)
}

/// Whether a launch satisfies the kernel's assumptions and `extra`, with
/// sizes at least 1 and parameters not negative as every trace has them;
/// `None` when the solver cannot tell in its time.
fn launch_satisfies(kernel: &Kernel, extra: &[Cond]) -> Option<bool> {
    use crate::protocol::{Expr, Rel};
    let mut conds: Vec<Cond> = kernel.assumes.iter().chain(extra).cloned().collect();
    for d in builtin::BLOCK_DIM.iter().chain(builtin::GRID_DIM.iter()) {
        conds.push(Cond::cmp(Rel::Ge, Expr::var(d), Expr::Int(1)));
    }
    for p in &kernel.params {
        if crate::protocol::fixed_value(&kernel.assumes, p).is_none_or(|n| n >= 0) {
            conds.push(Cond::cmp(Rel::Ge, Expr::var(p), Expr::Int(0)));
        }
    }
    smt::satisfiable(&conds, VACUITY_MS)
}

/// Time limit of the check that a kernel's assumptions admit a launch.
const VACUITY_MS: u64 = 1000;

/// At most this many launches are checked one by one; more stay one
/// disjunction.
const MAX_LAUNCH_SPLIT: usize = 8;

/// The kernel once per alternative of its first disjunctive assumption
/// whose every alternative fixes some launch size to a constant (one of
/// several launches happens): each with that alternative assumed and its
/// constants (sizes and parameters) substituted. Empty when there is none.
fn launch_alternatives(kernel: &Kernel) -> Vec<Kernel> {
    for (i, a) in kernel.assumes.iter().enumerate() {
        let ds = a.disjuncts();
        if ds.len() < 2 || ds.len() > MAX_LAUNCH_SPLIT {
            continue;
        }
        let fixed: Vec<Vec<(&str, i64)>> = ds
            .iter()
            .map(|d| {
                d.fixed_values()
                    .into_iter()
                    .filter(|(v, _)| builtin::is_dim(v) || kernel.params.iter().any(|p| p == v))
                    .collect()
            })
            .collect();
        // Launches fix launch sizes; a parameter's domain (an enumeration's
        // values) is no launch.
        let launch = |f: &Vec<(&str, i64)>| f.iter().any(|(v, _)| builtin::is_dim(v));
        if !fixed.iter().all(launch) {
            continue;
        }
        return ds
            .iter()
            .zip(fixed)
            .map(|(d, fixed)| {
                let mut k = kernel.clone();
                k.assumes[i] = (*d).clone();
                for (v, n) in fixed {
                    k.fix(v, n);
                }
                k
            })
            .collect();
    }
    Vec::new()
}

/// One array's reports under two launches as one: the worse verdict with
/// its reason, the races of both (once per pair of source accesses, a
/// confirmed one before a possible one), benign races that are races in
/// neither.
fn merge_reports(a: ArrayReport, b: ArrayReport) -> ArrayReport {
    let verdict = a.verdict.combine(b.verdict);
    let (mut first, second) = if a.verdict == verdict { (a, b) } else { (b, a) };
    let site = |r: &Race| sorted_sites(&r.accesses);
    for race in second.races {
        match first.races.iter_mut().find(|r| site(r) == site(&race)) {
            Some(r)
                if r.confidence == Confidence::Possible
                    && race.confidence == Confidence::Confirmed =>
            {
                *r = race;
            }
            Some(_) => {}
            None => first.races.push(race),
        }
    }
    for race in second.benign {
        if !first.benign.iter().any(|r| site(r) == site(&race)) {
            first.benign.push(race);
        }
    }
    let raced: Vec<_> = first.races.iter().map(site).collect();
    first.benign.retain(|r| !raced.contains(&site(r)));
    first.verdict = verdict;
    first.intervals = first.intervals.max(second.intervals);
    first.solver_calls += second.solver_calls;
    first
}

/// The two source accesses of a race, in a fixed order.
fn sorted_sites(accesses: &[RaceAccess; 2]) -> [(Loc, Mode); 2] {
    let mut pair = [
        (accesses[0].loc, accesses[0].mode),
        (accesses[1].loc, accesses[1].mode),
    ];
    pair.sort();
    pair
}

/// The pipeline on one array protocol: well-formedness, split, seq, solve,
/// witnesses, replay.
pub fn check_array(
    kernel: &Kernel,
    array: &ArrayProtocol,
    opts: &Options,
    cache: &dyn TraceCache,
    deadline: Deadline,
) -> (ArrayReport, Stats) {
    let prepared = prepare(kernel);
    // The array as prepared: its warp barriers may have changed.
    let array = prepared
        .array(&array.name)
        .filter(|a| a.scope == array.scope)
        .cloned()
        .unwrap_or_else(|| array.clone());
    check_prepared(&prepared, &array, opts, cache, deadline)
}

/// What the kernel's arrays are checked under: the axes it never mentions
/// of size 1, the reads its blocks agree on, and the warp barriers its
/// warps reach together (the others order nothing, for the analysis and
/// the replay alike).
fn prepare(kernel: &Kernel) -> Kernel {
    let mut sized = kernel.clone();
    sized.assumes.extend(kernel.unused_dimensions());
    let agreed = |k: &Kernel| {
        let uniform = analysis::uniform_reads(k);
        let mut k = k.clone();
        k.block_uniform.extend(uniform.values);
        k.control_uniform.extend(uniform.control);
        k
    };
    let mut fixed = divergence::uniform_guards(&sized, &agreed);
    let view = fixed.clone();
    for array in &mut fixed.arrays {
        if !array.body.has_warp_sync() {
            continue;
        }
        let (kept, dropped) = wf::uniform_warp_barriers(&view, &array.body);
        array.body = kept;
        for loc in dropped {
            let note = format!(
                "`__syncwarp` at {loc} is not modelled: the lanes of a warp may not all reach it"
            );
            if !fixed.approximations.contains(&note) {
                fixed.approximations.push(note);
            }
        }
    }
    fixed
}

fn check_prepared(
    kernel: &Kernel,
    array: &ArrayProtocol,
    opts: &Options,
    cache: &dyn TraceCache,
    deadline: Deadline,
) -> (ArrayReport, Stats) {
    let mut stats = Stats::default();
    let mut report = ArrayReport::empty(&array.name, Verdict::Drf, None);

    let started = Instant::now();
    let traces = match analysis::traces(kernel, array, opts.block_level) {
        Ok(traces) => traces,
        Err(d)
            if d.guard
                .as_ref()
                .is_some_and(|g| kernel.undecided_guards.contains(g)) =>
        {
            // Not shown either way: the question ran out of time.
            report.verdict = Verdict::Unknown;
            report.reason = Some(format!(
                "the solver gave up: timeout, on whether every thread of a block reaches the barrier at {}",
                d.loc
            ));
            report.loc = Some(d.loc);
            stats.analysis = started.elapsed();
            return (report, stats);
        }
        Err(d) => {
            report.verdict = Verdict::Divergent;
            let why = match &d.guard {
                Some(guard) => divergence::explain(kernel, guard, deadline),
                None => String::new(),
            };
            report.reason = Some(format!("{}{why}", d.reason));
            report.loc = Some(d.loc);
            stats.analysis = started.elapsed();
            return (report, stats);
        }
    };
    stats.traces = traces.len();
    report.intervals = traces.len();
    stats.analysis = started.elapsed();

    let mut unknown: Option<String> = None;
    // Access pairs whose witnesses did not replay, with why; a pair that
    // replays from another interval is not one.
    let mut bad_witnesses: BTreeMap<[u32; 2], String> = BTreeMap::new();
    let mut unreplayed: Vec<String> = Vec::new();
    let mut replay_budget = REPLAY_BUDGET;
    let mut seen: HashSet<[u32; 2]> = HashSet::new();
    // Copies of one source access (unrolled loops, inlined calls) race the
    // same way: users see one race per pair of source accesses, confirmed
    // when any copy's race is.
    let mut shown: HashMap<[(Loc, Mode, u32); 2], usize> = HashMap::new();
    let mut racy_traces: Vec<&Trace> = Vec::new();
    // The pairs of accesses that race in each of `racy_traces`.
    let mut racy_pairs: Vec<Vec<[u32; 2]>> = Vec::new();
    let mut undecided_traces: Vec<&Trace> = Vec::new();
    // The models of the races found: a precondition they satisfy removes
    // none of them, which needs no solver to see.
    let mut witnessed: Vec<BTreeMap<String, i64>> = Vec::new();
    // Strict first: the cheaper question, and the usual answer. Only a race
    // between two writes of known values needs the second one. Intervals are
    // independent queries, asked on all cores: a kernel of many barriers (a
    // sorting network) would otherwise be one core's work while the others
    // wait at the end of a scan.
    let strict = Options {
        strict: true,
        ..opts.clone()
    };
    let started = Instant::now();
    let strict_outcomes: Vec<Solved> = {
        use rayon::prelude::*;
        let firsts: Vec<(Result<Outcome, smt::Solved>, Stats)> = traces
            .par_iter()
            .map(|trace| {
                let mut own = Stats::default();
                let first = solve_first_cached(trace, &strict, cache, &mut own, deadline);
                (first, own)
            })
            .collect();
        // The array races already: intervals the solver finds hard would
        // take seconds each to add races to a verdict that stands. They
        // stay undecided (and out of the cache), which the report says.
        let races = firsts
            .iter()
            .zip(&traces)
            .any(|((first, _), trace)| match first {
                Ok(Outcome::Racy(raw)) => raw.iter().any(|r| {
                    !maybe_benign(trace, r) && limits_exceeded(kernel, trace, &r.values).is_empty()
                }),
                _ => false,
            });
        firsts
            .into_par_iter()
            .zip(traces.par_iter())
            .map(|((first, mut own), trace)| {
                let outcome = match first {
                    Ok(outcome) => outcome,
                    Err(first) if races => {
                        own.solver_calls += first.solver_calls;
                        Outcome::Unknown(UNDECIDED_BESIDE_RACES.into())
                    }
                    Err(first) => {
                        solve_hard_cached(trace, &strict, cache, &mut own, deadline, first)
                    }
                };
                match within_hardware(kernel, trace, &outcome, &strict, cache, &mut own, deadline) {
                    None => (None, outcome, own, None),
                    // The races stand as found, but need a launch no GPU
                    // runs to happen: not shown real.
                    Some((_, Outcome::Unknown(_))) => {
                        let beyond = beyond_hardware_note(kernel, trace, &outcome);
                        (None, outcome, own, beyond)
                    }
                    Some((limited, outcome)) => (Some(limited), outcome, own, None),
                }
            })
            .collect()
    };
    stats.solve += started.elapsed();
    let (limited, strict_outcomes): (Vec<Option<Trace>>, Vec<_>) = strict_outcomes
        .into_iter()
        .map(|(limited, outcome, own, beyond)| (limited, (outcome, own, beyond)))
        .unzip();
    for ((trace, limited), (mut outcome, own, beyond)) in
        traces.iter().zip(&limited).zip(strict_outcomes)
    {
        stats.add(&own);
        let trace = limited.as_ref().unwrap_or(trace);
        if let Some(note) = beyond.as_ref().filter(|n| !unreplayed.contains(n)) {
            unreplayed.push(note.clone());
        }
        let started = Instant::now();
        if let Outcome::Racy(raw) = &outcome {
            if !opts.strict && raw.iter().any(|r| maybe_benign(trace, r)) {
                // Telling benign from real is worth a short look only.
                let quick = Options {
                    timeout_ms: short_limit(opts.timeout_ms),
                    ..opts.clone()
                };
                let lenient = solve_cached(trace, &quick, cache, &mut stats, deadline);
                // When the lenient query gives up, which races are benign
                // is unknown: all stay races but those whose values are
                // equal on their face.
                let rest: Vec<RawRace> = match &lenient {
                    Outcome::Unknown(_) => raw
                        .iter()
                        .filter(|r| !stores_surely_equal(trace, r))
                        .cloned()
                        .collect(),
                    _ => Vec::new(),
                };
                let real: HashSet<[u32; 2]> = match &lenient {
                    Outcome::Racy(rs) => rs.iter().map(|r| sorted(r.accesses)).collect(),
                    Outcome::Drf => HashSet::new(),
                    Outcome::Unknown(_) => rest.iter().map(|r| sorted(r.accesses)).collect(),
                };
                for r in raw.iter().filter(|r| {
                    writes_known_values(trace, r) && !real.contains(&sorted(r.accesses))
                }) {
                    let race = witness(kernel, array, trace, r, opts.strict);
                    let site = |a: &RaceAccess| (a.loc, a.mode);
                    let known = report.benign.iter().any(|b| {
                        [site(&b.accesses[0]), site(&b.accesses[1])]
                            == [site(&race.accesses[0]), site(&race.accesses[1])]
                    });
                    if !known && replay(kernel, array, &race, &mut replay_budget).is_ok() {
                        report.benign.push(race);
                    }
                }
                match lenient {
                    Outcome::Unknown(why) => {
                        // Real races may hide behind the benign ones the
                        // strict query found: undecided without those.
                        if rest.is_empty() {
                            outcome = Outcome::Unknown(why);
                        } else if rest.len() < raw.len() {
                            outcome = Outcome::Racy(rest);
                        }
                    }
                    lenient => outcome = lenient,
                }
            }
        }
        stats.solve += started.elapsed();

        let started = Instant::now();
        match outcome {
            Outcome::Drf => {}
            Outcome::Unknown(reason) => {
                unknown.get_or_insert(reason);
                undecided_traces.push(trace);
            }
            Outcome::Racy(raw) => {
                racy_traces.push(trace);
                racy_pairs.push(raw.iter().map(|r| r.accesses).collect());
                // Only races sure to be real: the lenient query may have
                // given up, leaving races that are benign.
                let real = raw.iter().filter(|r| !maybe_benign(trace, r));
                witnessed.extend(real.map(|r| r.values.clone()));
                for r in &raw {
                    let mut pair = r.accesses;
                    pair.sort_unstable();
                    if seen.contains(&pair) {
                        continue;
                    }
                    let race = witness(kernel, array, trace, r, opts.strict);
                    // Accesses without a position keep their identity.
                    let site =
                        |a: &RaceAccess| (a.loc, a.mode, if a.loc.line == 0 { a.id } else { 0 });
                    let mut source = [site(&race.accesses[0]), site(&race.accesses[1])];
                    source.sort_unstable();
                    let earlier = shown.get(&source).copied();
                    if let Some(i) = earlier {
                        let better = race.confidence == Confidence::Confirmed
                            && report.races[i].confidence == Confidence::Possible;
                        if !better {
                            seen.insert(pair);
                            continue;
                        }
                    }
                    let mut race = race;
                    match replay(kernel, array, &race, &mut replay_budget) {
                        Ok(note) => {
                            // Confirmed means reproduced from the witness, in
                            // a launch a GPU runs.
                            if note.is_some() || beyond.is_some() {
                                race.confidence = Confidence::Possible;
                            }
                            unreplayed.extend(note);
                            seen.insert(pair);
                            match earlier {
                                Some(i) => report.races[i] = race,
                                None => {
                                    shown.insert(source, report.races.len());
                                    report.races.push(race);
                                }
                            }
                        }
                        Err(why) => {
                            bad_witnesses.entry(pair).or_insert(why);
                        }
                    }
                }
            }
        }
        stats.replay += started.elapsed();
    }
    report.solver_calls = stats.solver_calls;
    bad_witnesses.retain(|pair, _| !seen.contains(pair));

    if !bad_witnesses.is_empty() {
        report.verdict = Verdict::Error;
        report.reason = Some(bad_witnesses.into_values().collect::<Vec<_>>().join("; "));
    } else if !report.races.is_empty() {
        report.verdict = Verdict::Racy;
        let started = Instant::now();
        // Possible races too: a user who reads an alarm wants the
        // assumption that removes it, whether or not drfscan could confirm
        // the race.
        let racy = Racy {
            traces: &racy_traces,
            pairs: &racy_pairs,
            undecided: &undecided_traces,
            witnessed: &witnessed,
        };
        // The instantiations of one template race alike, at the same
        // accesses: a search that came to nothing for one is not repeated
        // for each (thousands, in a library that instantiates a kernel for
        // every type and tile size), and leaves their races possible too.
        let shared = template_search_key(kernel, array, &report.races, &racy_traces);
        let earlier = shared
            .as_deref()
            .and_then(|k| cache.search_tally(k))
            .filter(SearchTally::futile);
        let search = match earlier {
            Some(tally) if tally.undecided => Search::Undecided,
            Some(_) => Search::CutShort,
            None => {
                let search = precondition(kernel, &racy, opts, cache, &mut stats, deadline);
                if let Some(key) = &shared {
                    let futile = match search {
                        Search::CutShort => Some(false),
                        Search::Undecided => Some(true),
                        Search::Found(_) | Search::None => None,
                    };
                    cache.tally_search(key, futile);
                }
                search
            }
        };
        match search {
            Search::Found(pre) => removed_by(&mut report.races, &pre.to_string()),
            // A precondition may remove the races, and the time to find
            // it ran out (a loaded machine): not provably real.
            Search::CutShort => {
                for r in &mut report.races {
                    r.confidence = Confidence::Possible;
                }
                unreplayed.push(PRECONDITION_CUT_SHORT.to_string());
            }
            // A candidate the solver could not settle may be the one that
            // removes the races: they are not shown real either.
            Search::Undecided => {
                for r in &mut report.races {
                    r.confidence = Confidence::Possible;
                }
                unreplayed.push(PRECONDITION_UNDECIDED.to_string());
            }
            Search::None => {}
        }
        if earlier.is_some() {
            unreplayed.push(PRECONDITION_SHARED.to_string());
        }
        stats.solve += started.elapsed();
        if let Some(reason) = &unknown {
            // More races may hide there.
            unreplayed.push(format!("some intervals undecided: {reason}"));
        }
        if !unreplayed.is_empty() {
            report.reason = Some(unreplayed.join("; "));
        }
    } else if let Some(reason) = unknown {
        report.verdict = Verdict::Unknown;
        let mut why = if reason == TIME_BUDGET {
            format!(
                "{TIME_BUDGET}: the kernel's analysis took its {} s (--kernel-timeout)",
                opts.kernel_timeout_ms as f64 / 1e3
            )
        } else {
            format!("the solver gave up: {reason}")
        };
        // What callers may state to have the kernel proved: an index that
        // decomposes by sizes of unknown sign (`i / w % h`) is hard, and
        // under positive sizes often quick.
        if reason != TIME_BUDGET {
            let started = Instant::now();
            let racy = Racy {
                traces: &undecided_traces,
                pairs: &[],
                undecided: &[],
                witnessed: &[],
            };
            if let Search::Found(pre) =
                precondition(kernel, &racy, opts, cache, &mut stats, deadline)
            {
                why.push_str(&format!("; proved if callers ensure `__requires({pre})`"));
            }
            stats.solve += started.elapsed();
        }
        report.reason = Some(why);
    }
    (report, stats)
}

/// The hardware's limits that a race's model `values` exceeds, over the
/// launch sizes of `trace` the kernel's assumptions leave open: a block
/// wider than 1024 threads along x or y or 64 along z, a grid beyond the
/// hardware's, and a block of more than 1024 threads in all unless the
/// sizes the kernel assumes make one already (a GPUVerify line may ask for
/// more than a GPU runs).
fn limits_exceeded(kernel: &Kernel, trace: &Trace, values: &BTreeMap<String, i64>) -> Vec<Cond> {
    let vars: BTreeSet<String> = trace.globals.iter().cloned().collect();
    let open = analysis::open_sizes(kernel, &vars);
    let mut exceeded: Vec<Cond> = open
        .iter()
        .filter(|(d, max)| values.get(*d).is_some_and(|v| v > max))
        .map(|(d, max)| Cond::cmp(Rel::Le, Expr::var(d), Expr::Int(*max)))
        .collect();
    let block: Vec<&str> = builtin::BLOCK_DIM
        .into_iter()
        .filter(|d| vars.contains(*d))
        .collect();
    let is_open = |d: &&str| open.iter().any(|(o, _)| o == d);
    let threads = |dims: &mut dyn Iterator<Item = &&str>| {
        dims.map(|d| values.get(*d).copied().unwrap_or(1))
            .fold(1i64, |n, v| n.saturating_mul(v))
    };
    let assumed = threads(&mut block.iter().filter(|d| !is_open(d)));
    if block.iter().any(is_open)
        && assumed <= builtin::BLOCK_THREADS_MAX
        && threads(&mut block.iter()) > builtin::BLOCK_THREADS_MAX
    {
        exceeded.extend(block_threads_limit(trace));
    }
    exceeded
}

/// The hardware's bound on a block's threads in all, `blockDim.x *
/// blockDim.y * … <= 1024` over the sizes `trace` names; `None` for fewer
/// than two, which the bounds on each size cover.
fn block_threads_limit(trace: &Trace) -> Option<Cond> {
    Some(Cond::cmp(
        Rel::Le,
        block_threads(trace)?,
        Expr::Int(builtin::BLOCK_THREADS_MAX),
    ))
}

/// `blockDim.x * blockDim.y * …` over the sizes `trace` names, or `None`
/// for fewer than two.
fn block_threads(trace: &Trace) -> Option<Expr> {
    let sizes: Vec<&str> = builtin::BLOCK_DIM
        .into_iter()
        .filter(|d| trace.globals.iter().any(|g| g == d))
        .collect();
    if sizes.len() < 2 {
        return None;
    }
    sizes
        .into_iter()
        .map(Expr::var)
        .reduce(|a, b| Expr::bin(Op::Mul, a, b))
}

/// For each thread of `trace`, its place in the block counted row by row
/// is below the block's threads in all: `(tid.z * blockDim.y + tid.y) *
/// blockDim.x + tid.x < blockDim.x * blockDim.y * blockDim.z`, over the
/// sizes the trace names. A theorem of the ids' ranges, but a nonlinear
/// one Z3 finds only after seconds; stated, it ties the kernel's own
/// linearised ids to the bound on the block's threads in one step.
fn linear_ids_within_block(trace: &Trace) -> Vec<Cond> {
    let Some(threads) = block_threads(trace) else {
        return Vec::new();
    };
    let dims: Vec<usize> = (0..3)
        .filter(|&d| trace.globals.iter().any(|g| g == builtin::BLOCK_DIM[d]))
        .collect();
    let size = |d: usize| Expr::var(builtin::BLOCK_DIM[d]);
    let named = |v: &str| {
        trace.globals.iter().any(|g| g == v) || trace.locals.iter().flatten().any(|l| l == v)
    };
    (1..=2)
        .filter_map(|k| {
            let id = |d: usize| {
                let v = format!("{}@{k}", builtin::TID[d]);
                named(&v).then(|| Expr::var(&v))
            };
            // Outermost dimension first: `((z * Y) + y) * X + x`.
            let mut place: Option<Expr> = None;
            for &d in dims.iter().rev() {
                place = match (place, id(d)) {
                    (None, t) => t,
                    (Some(p), t) => {
                        let scaled = Expr::bin(Op::Mul, p, size(d));
                        Some(match t {
                            Some(t) => Expr::bin(Op::Add, scaled, t),
                            None => scaled,
                        })
                    }
                };
            }
            Some(Cond::cmp(Rel::Lt, place?, threads.clone()))
        })
        .collect()
}

/// `trace` asked again within the launches a GPU runs, when the races
/// `outcome` found need a larger block or grid: a race no hardware can run
/// is none. `None` when no race needs one. The limits are added only then:
/// they slow the solver's proofs over symbolic sizes (see
/// `divergence::within_limits`).
fn within_hardware(
    kernel: &Kernel,
    trace: &Trace,
    outcome: &Outcome,
    opts: &Options,
    cache: &dyn TraceCache,
    stats: &mut Stats,
    deadline: Deadline,
) -> Option<(Trace, Outcome)> {
    let mut limited: Option<(Trace, Outcome)> = None;
    // The sizes first, then the block's threads in all if a new witness
    // still exceeds them: at most two more questions.
    for _ in 0..2 {
        let (now, found) = match &limited {
            Some((t, o)) => (t, o),
            None => (trace, outcome),
        };
        let Outcome::Racy(raw) = found else { break };
        let mut exceeded: Vec<Cond> = Vec::new();
        for r in raw {
            for c in limits_exceeded(kernel, now, &r.values) {
                if !now.assumptions.contains(&c) && !exceeded.contains(&c) {
                    exceeded.push(c);
                }
            }
        }
        if exceeded.is_empty() {
            break;
        }
        // Limits on sizes the assumptions relate (`blockDim.x ==
        // blockDim.y` beside `blockDim.x == 64`) may contradict them: no
        // race then proves nothing.
        if !admits_a_launch(kernel, &exceeded) {
            break;
        }
        let mut next = now.clone();
        let lemmas = match block_threads_limit(now) {
            Some(limit) if exceeded.contains(&limit) => linear_ids_within_block(now),
            _ => Vec::new(),
        };
        next.assumptions.extend(exceeded);
        next.assumptions
            .extend(lemmas.into_iter().filter(|l| !now.assumptions.contains(l)));
        let answer = solve_cached(&next, opts, cache, stats, deadline);
        limited = Some((next, answer));
    }
    limited
}

/// Whether some launch satisfies the kernel's assumptions and `limits`
/// together ([`launch_satisfies`]). Limits on sizes no assumption names
/// contradict nothing, without asking.
fn admits_a_launch(kernel: &Kernel, limits: &[Cond]) -> bool {
    let mut limited = BTreeSet::new();
    limits.iter().for_each(|c| c.free_vars(&mut limited));
    let mut assumed = BTreeSet::new();
    kernel
        .assumes
        .iter()
        .for_each(|c| c.free_vars(&mut assumed));
    limited.is_disjoint(&assumed) || launch_satisfies(kernel, limits) == Some(true)
}

/// Why races found beyond the hardware's limits stay possible when the
/// solver cannot settle their interval within them.
fn beyond_hardware_note(kernel: &Kernel, trace: &Trace, outcome: &Outcome) -> Option<String> {
    let Outcome::Racy(raw) = outcome else {
        return None;
    };
    let values = &raw.first()?.values;
    let sizes: Vec<String> = limits_exceeded(kernel, trace, values)
        .iter()
        .flat_map(|c| {
            let mut vars = BTreeSet::new();
            c.free_vars(&mut vars);
            vars
        })
        .collect::<BTreeSet<_>>()
        .iter()
        .map(|d| format!("{d} = {}", values.get(d).copied().unwrap_or(1)))
        .collect();
    Some(format!(
        "a race needs a launch larger than a GPU runs ({}), and the solver could not \
         settle the interval within the hardware's limits",
        sizes.join(", ")
    ))
}

/// An interval's outcome: the interval asked within the hardware's limits
/// when its races needed more ([`within_hardware`]), the outcome, the
/// solver's work, and why its races stay possible when they need more and
/// the solver could not settle the interval within the limits.
type Solved = (Option<Trace>, Outcome, Stats, Option<String>);

/// Whether a race is between two writes that both store a known value (and
/// so may be benign).
fn writes_known_values(trace: &Trace, r: &smt::RawRace) -> bool {
    (0..2).all(|k| {
        issued(trace, k, r.accesses[k]).all(|a| a.mode == Mode::Write && a.value.is_some())
    })
}

/// Whether the two writes of a race store one value whatever the solver
/// says: the same value over names both threads share (`flag = 0`, `y[0] =
/// n`, a copy of `in[0]`). The lenient query may give up on an interval
/// whose indexes are hard; such a pair is benign all the same.
fn stores_surely_equal(trace: &Trace, r: &smt::RawRace) -> bool {
    if !writes_known_values(trace, r) {
        return false;
    }
    let shared = |v: &Value| {
        let mut vars = BTreeSet::new();
        v.exprs().for_each(|e| e.free_vars(&mut vars));
        vars.iter().all(|n| trace.globals.contains(n))
    };
    let mut stored = (0..2).flat_map(|k| issued(trace, k, r.accesses[k]).map(|a| a.value.as_ref()));
    match stored.next() {
        Some(Some(first)) => shared(first) && stored.all(|v| v == Some(first)),
        _ => false,
    }
}

/// Whether a strict race may be benign: two writes of known values that its
/// own model does not show different. Only the lenient query tells.
fn maybe_benign(trace: &Trace, r: &smt::RawRace) -> bool {
    writes_known_values(trace, r) && !stores_differ(trace, r)
}

/// Whether the race's own model has the two writes store different values:
/// then it is a model of the lenient query too, and no race of the pair is
/// benign, without asking.
fn stores_differ(trace: &Trace, r: &smt::RawRace) -> bool {
    // Cells of never-written arrays are compared as cells: their contents
    // may be any input, so copies of different cells may differ.
    let stored = |k: usize| -> Option<Vec<(Option<&str>, Vec<i64>)>> {
        let eval = |e: &crate::protocol::Expr| {
            crate::protocol::eval::eval_expr(e, &|n| r.values.get(n).copied()).ok()
        };
        issued(trace, k, r.accesses[k])
            .map(|a| match a.value.as_ref()? {
                Value::Expr(e) => Some((None, vec![eval(e)?])),
                Value::Fields(fields) => {
                    let fields = fields.iter().map(eval).collect::<Option<Vec<i64>>>()?;
                    Some((Some("{}"), fields))
                }
                Value::Read { array, index } => {
                    let cell = index.iter().map(eval).collect::<Option<Vec<i64>>>()?;
                    Some((Some(array.as_str()), cell))
                }
            })
            .collect()
    };
    match (stored(0), stored(1)) {
        (Some(a), Some(b)) => a.iter().all(|x| b.iter().all(|y| x != y)),
        _ => false,
    }
}

fn sorted(mut pair: [u32; 2]) -> [u32; 2] {
    pair.sort_unstable();
    pair
}

/// A trace's outcome from the cache, else from the solver (and cached).
///
/// An `unknown` is cached too: the key holds the time limit, and the same
/// query under the same limit gives up again, so a nightly re-scan of an
/// unchanged tree would only pay the limit again. A larger `--timeout-ms`
/// is another key, and asks the solver anew.
fn solve_cached(
    trace: &Trace,
    opts: &Options,
    cache: &dyn TraceCache,
    stats: &mut Stats,
    deadline: Deadline,
) -> Outcome {
    match solve_first_cached(trace, opts, cache, stats, deadline) {
        Ok(outcome) => outcome,
        Err(first) => solve_hard_cached(trace, opts, cache, stats, deadline, first),
    }
}

/// A trace's outcome from the cache or the solver's first, brief attempt
/// ([`smt::solve_first`]); that attempt when only restarts can tell more.
fn solve_first_cached(
    trace: &Trace,
    opts: &Options,
    cache: &dyn TraceCache,
    stats: &mut Stats,
    deadline: Deadline,
) -> Result<Outcome, smt::Solved> {
    let hash = trace.hash(&opts.solver_key());
    if let Some(o) = cache.get(&hash) {
        stats.cache_hits += 1;
        return Ok(o.from_canonical(trace));
    }
    match smt::solve_first(trace, opts, deadline) {
        smt::First::Decided(solved) => Ok(record(trace, &hash, cache, stats, solved)),
        smt::First::Hard(first) => Err(first),
    }
}

fn solve_hard_cached(
    trace: &Trace,
    opts: &Options,
    cache: &dyn TraceCache,
    stats: &mut Stats,
    deadline: Deadline,
    first: smt::Solved,
) -> Outcome {
    let hash = trace.hash(&opts.solver_key());
    let solved = smt::solve_hard(trace, opts, deadline, first);
    record(trace, &hash, cache, stats, solved)
}

/// Counts a solver's answer and caches it unless the budget cut it short.
fn record(
    trace: &Trace,
    hash: &str,
    cache: &dyn TraceCache,
    stats: &mut Stats,
    solved: smt::Solved,
) -> Outcome {
    stats.solver_calls += solved.solver_calls;
    if solved.cut_short {
        stats.cut_short += 1;
    } else {
        cache.put(hash, &solved.outcome.to_canonical(trace));
    }
    solved.outcome
}

/// Why an interval of an array that races elsewhere is left undecided.
const UNDECIDED_BESIDE_RACES: &str = "hard for the solver, not asked further once others raced";

/// Time limit of the queries that refine a verdict (benign races,
/// preconditions), in ms: a refinement the solver cannot settle quickly is
/// left out, and the verdict stays as it was.
const REFINE_MS: u64 = 1_000;

fn short_limit(timeout_ms: u64) -> u64 {
    if timeout_ms == 0 {
        REFINE_MS
    } else {
        timeout_ms.min(REFINE_MS)
    }
}

/// Time for all of a kernel's precondition candidates together, and for
/// each one, in ms: a candidate the solver cannot settle in a tenth of a
/// second is rarely the simple condition sought, and the races it leaves
/// are real in the kernel as written.
const PRECONDITION_BUDGET_MS: u64 = 200;
const CANDIDATE_MS: u64 = 100;

/// Time for a candidate relating a size in cells to one in bytes
/// (`width * 4 <= pitch`), whose proof goes through a division, and how
/// many such candidates a kernel's budget grows by at most.
const SCALED_MS: u64 = 500;
const MAX_SCALED_ASKED: usize = 2;

/// How the racy intervals answer under a condition the search asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    /// No race in any of them.
    Holds,
    /// A race in one, whose model is kept.
    Refuted,
    /// One the solver could not settle in its time.
    Unsettled,
}

/// At most this many row lengths of an index are tried as bounds.
const MAX_STRIDES: usize = 4;

/// At most this many questions widen a block bound towards the narrowest
/// racing block: enough to settle any width a GPU runs after the first
/// narrowings.
const MAX_BISECTIONS: usize = 14;

/// The first questions of the widening ask for the narrowest racing block
/// less one, before bisecting.
const MAX_NARROWINGS: usize = 3;

/// Every subexpression of `e`, `e` first, outside conditions.
fn each_subexpr(e: &crate::protocol::Expr, f: &mut impl FnMut(&crate::protocol::Expr)) {
    use crate::protocol::Expr;
    f(e);
    match e {
        Expr::Bin(_, a, b) | Expr::Ite(_, a, b) => {
            each_subexpr(a, f);
            each_subexpr(b, f);
        }
        Expr::Int(_) | Expr::Var(_) => {}
    }
}

/// Constants an index multiplies a non-constant by (row lengths), `>= 2`.
fn collect_strides(e: &crate::protocol::Expr, out: &mut Vec<i64>) {
    use crate::protocol::{Expr, Op};
    each_subexpr(e, &mut |e| {
        if let Expr::Bin(Op::Mul, a, b) = e {
            for (k, other) in [(a, b), (b, a)] {
                if let Expr::Int(c) = **k {
                    if c >= 2 && !matches!(**other, Expr::Int(_)) {
                        out.push(c);
                    }
                }
            }
        }
    });
}

/// The constants `collect` finds in the indices of the racy intervals.
fn index_constants(
    traces: &[&Trace],
    collect: impl Fn(&crate::protocol::Expr, &mut Vec<i64>),
) -> Vec<i64> {
    access_constants(traces, |a, f| a.index.iter().for_each(f), collect)
}

/// The constants `collect` finds in the conditions under which the racy
/// intervals' accesses happen (`threadIdx.x % 32 == 0`: lane 0 of a warp).
fn path_constants(
    traces: &[&Trace],
    collect: impl Fn(&crate::protocol::Expr, &mut Vec<i64>),
) -> Vec<i64> {
    access_constants(traces, |a, f| a.path.each_expr(f), collect)
}

/// The constants `collect` finds in the expressions `part` gives of each
/// access of the racy intervals.
fn access_constants(
    traces: &[&Trace],
    part: impl Fn(&TraceAccess, &mut dyn FnMut(&crate::protocol::Expr)),
    collect: impl Fn(&crate::protocol::Expr, &mut Vec<i64>),
) -> Vec<i64> {
    let mut out = Vec::new();
    for t in traces {
        for a in t.accesses.iter().flatten() {
            part(a, &mut |e| collect(e, &mut out));
        }
    }
    out
}

/// Constants `>= 2` on the right of `op` in an index.
fn collect_right_operands(e: &crate::protocol::Expr, op: crate::protocol::Op, out: &mut Vec<i64>) {
    use crate::protocol::Expr;
    each_subexpr(e, &mut |e| {
        if let Expr::Bin(o, _, b) = e {
            if let (true, Expr::Int(c)) = (*o == op, &**b) {
                if *c >= 2 {
                    out.push(*c);
                }
            }
        }
    });
}

/// Constants an index takes the remainder by (`threadIdx.x % 64`), `>= 2`.
fn collect_moduli(e: &crate::protocol::Expr, out: &mut Vec<i64>) {
    collect_right_operands(e, crate::protocol::Op::Mod, out);
}

/// Constants a thread's own part of an index divides by (`(r * pitch) /
/// 4`: bytes to cells of four), `>= 2`. A size both threads share divided
/// by a constant (LRN's `(size - 1) / 2` half window) is no unit of the
/// index: its `n * 2 <= w` would suggest a launch over half a row.
fn collect_divisors(e: &crate::protocol::Expr, out: &mut Vec<i64>) {
    use crate::protocol::{Expr, Op};
    each_subexpr(e, &mut |e| {
        if let Expr::Bin(Op::Div, n, k) = e {
            if let Expr::Int(c) = **k {
                let mut vars = BTreeSet::new();
                n.free_vars(&mut vars);
                if c >= 2 && vars.iter().any(|v| v.ends_with("@1") || v.ends_with("@2")) {
                    out.push(c);
                }
            }
        }
    });
}

/// Constants `>= 2` an index divides the block size `dim` by (`blockDim.x /
/// 32`: the warps of a block), largest first.
fn dim_divisors(traces: &[&Trace], dim: &str) -> Vec<i64> {
    use crate::protocol::{Expr, Op};
    let mut out = index_constants(traces, |e, out| {
        each_subexpr(e, &mut |e| {
            if let Expr::Bin(Op::Div, n, k) = e {
                if let Expr::Int(c) = **k {
                    let mut vars = BTreeSet::new();
                    n.free_vars(&mut vars);
                    if c >= 2 && vars.contains(dim) {
                        out.push(c);
                    }
                }
            }
        })
    });
    out.sort_unstable_by(|a, b| b.cmp(a));
    out.dedup();
    out
}

/// At most this many races of one interval are asked whether a
/// precondition leaves their accesses reached.
const MAX_RACED_PAIRS: usize = 4;

/// At most this many racy intervals are asked again for a precondition.
const PRECONDITION_TRACES: usize = 16;

/// A kernel's racy intervals, and the values of the races found in them.
struct Racy<'a> {
    traces: &'a [&'a Trace],
    /// The accesses of the races found in each of `traces` (thread 1's,
    /// thread 2's); none known when empty.
    pairs: &'a [Vec<[u32; 2]>],
    /// Intervals the solver did not settle: a condition that removes the
    /// races proves the kernel only if it proves these too.
    undecided: &'a [&'a Trace],
    witnessed: &'a [BTreeMap<String, i64>],
}

/// Whether a race with one of `witnessed`'s values holds under `c` too, so
/// that `c` does not remove it.
fn survives(witnessed: &[BTreeMap<String, i64>], c: &Cond) -> bool {
    witnessed
        .iter()
        .any(|values| crate::protocol::eval::eval_cond(c, &|v| values.get(v).copied()) == Ok(true))
}

/// What the search for a precondition found.
enum Search {
    Found(Cond),
    /// Its time ran out before every candidate was asked.
    CutShort,
    /// Every candidate was asked; none was shown to remove the races, and
    /// the solver settled some neither way in their time.
    Undecided,
    /// No candidate removes the races, or there were none to try.
    None,
}

/// Why races a precondition search could not finish are only possible.
const PRECONDITION_CUT_SHORT: &str =
    "the search for a precondition that removes the races ran out of time";

/// Why races a precondition the solver could not settle may remove are
/// only possible.
const PRECONDITION_UNDECIDED: &str =
    "a simple precondition the solver could not settle in time may remove the races";

/// Said with either of those when the search was not repeated.
const PRECONDITION_SHARED: &str = "not searched again: the search came to nothing for \
     other instantiations of the template racing at the same accesses";

/// What makes the precondition searches of two instantiations of a kernel
/// template alike: the template and its parameters, the array, the source
/// accesses of each race, and the shape of the racy intervals' indexes and
/// conditions with their constants left out. Tile sizes differ between
/// instantiations; a flag that adds a term to an index (`SWIZZLE *
/// blockIdx.z * gridDim.x`) makes another search. `None` for a kernel that
/// is no instantiation, or races without source positions.
fn template_search_key(
    kernel: &Kernel,
    array: &ArrayProtocol,
    races: &[Race],
    traces: &[&Trace],
) -> Option<String> {
    let (template, _) = kernel.name.split_once('<')?;
    let mut shape = blake3::Hasher::new();
    for t in traces {
        for a in t.accesses.iter().flatten() {
            let text = format!("{:?}|{:?}\n", a.index, a.path);
            let mut last_digit = false;
            for c in text.chars() {
                let digit = c.is_ascii_digit();
                if !(digit && last_digit) {
                    let mut buf = [0u8; 4];
                    shape.update(if digit {
                        b"#"
                    } else {
                        c.encode_utf8(&mut buf).as_bytes()
                    });
                }
                last_digit = digit;
            }
        }
    }
    let mut sites: Vec<String> = Vec::new();
    for r in races {
        let [a, b] = &r.accesses;
        if a.loc.line == 0 || b.loc.line == 0 {
            return None;
        }
        sites.push(format!(
            "{}:{}:{:?}-{}:{}:{:?}",
            a.loc.line, a.loc.column, a.mode, b.loc.line, b.loc.column, b.mode
        ));
    }
    sites.sort_unstable();
    Some(format!(
        "precondition\x1f{template}({})\x1f{}\x1f{}\x1f{}",
        kernel.params.join(","),
        array.name,
        sites.join(","),
        shape.finalize().to_hex()
    ))
}

/// The simplest condition over the kernel's parameters, from a short list
/// of the shapes real preconditions take (a size at least 1, at least a
/// block, at least the threads of the grid along x), under which every racy
/// interval is free of races.
fn precondition(
    kernel: &Kernel,
    racy: &Racy,
    opts: &Options,
    cache: &dyn TraceCache,
    stats: &mut Stats,
    deadline: Deadline,
) -> Search {
    // Tests on a loaded machine give the search more time; its answers
    // are the same, only found later.
    let patience = opts.precondition_patience.max(1);
    let (candidate_ms, scaled_ms) = (CANDIDATE_MS * patience, SCALED_MS * patience);
    use crate::protocol::{Expr, Op, Rel};
    let traces = racy.traces;
    if traces.is_empty() || traces.len() > PRECONDITION_TRACES {
        return Search::None;
    }
    // Undecided intervals too many to prove under every candidate (more of
    // them on a loaded machine) are left out: a condition found removes the
    // races shown, and the report says the rest is undecided. Searching
    // nothing would leave the races confirmed for want of time.
    let hard: &[&Trace] = if traces.len() + racy.undecided.len() > PRECONDITION_TRACES {
        &[]
    } else {
        racy.undecided
    };
    // Candidates come from the undecided intervals' indexes too: which
    // intervals the solver settles depends on the machine's load, the
    // conditions sought should not.
    let shapes: Vec<&Trace> = traces.iter().chain(hard).copied().collect();
    let shapes = &shapes[..];
    let mut params: Vec<&String> = kernel
        .params
        .iter()
        .filter(|p| !kernel.unknown_params.contains(p))
        .filter(|p| !is_flag(kernel, p))
        .filter(|p| traces.iter().any(|t| t.globals.contains(p)))
        .collect();
    params.dedup();
    // Block sizes the launch leaves free: a kernel written for one block
    // shape (`s[threadIdx.x % 64]`, `a[blockIdx.x * 16 + threadIdx.x]`)
    // races only in wider blocks.
    // A size the kernel's launches or `__requires` already constrain is a
    // fact of the program, not a caller's choice.
    let mut constrained = BTreeSet::new();
    kernel
        .assumes
        .iter()
        .for_each(|a| a.free_vars(&mut constrained));
    let free = |sizes: [&'static str; 3]| -> Vec<&'static str> {
        sizes
            .into_iter()
            .filter(|d| !constrained.contains(*d))
            .filter(|d| traces.iter().any(|t| t.globals.iter().any(|g| g == d)))
            .collect()
    };
    let dims = free(builtin::BLOCK_DIM);
    // Grid sizes the launch leaves free: a kernel that indexes global
    // memory by the thread's place in its block alone (`zs[threadIdx.x]`)
    // is written for one block.
    let grids = free(builtin::GRID_DIM);
    if params.is_empty() && dims.is_empty() && grids.is_empty() {
        return Search::None;
    }
    let block = Expr::var(builtin::BLOCK_DIM[0]);
    let threads = Expr::bin(Op::Mul, block.clone(), Expr::var(builtin::GRID_DIM[0]));
    // A size the launch fixes enters the queries as its value: the solver
    // then sees `n >= 16 * gridDim.x`, linear, not a product of unknowns.
    // The suggestion keeps the name.
    let fixed: Vec<(String, Expr)> = kernel
        .assumes
        .iter()
        .filter_map(|a| match a {
            Cond::Cmp(Rel::Eq, Expr::Var(v), Expr::Int(c)) if builtin::is_dim(v) => {
                Some((v.clone(), Expr::Int(*c)))
            }
            _ => None,
        })
        .collect();
    let bounds = [Expr::Int(1), block, threads];
    let at_least = |p: &str, b: &Expr| Cond::cmp(Rel::Ge, Expr::var(p), b.clone());
    let at_most = |p: &str, b: &Expr| Cond::cmp(Rel::Le, Expr::var(p), b.clone());
    let multiple_of = |v: &str, c: i64| {
        Cond::cmp(
            Rel::Eq,
            Expr::bin(Op::Mod, Expr::var(v), Expr::Int(c)),
            Expr::Int(0),
        )
    };
    let mut candidates: Vec<Cond> = Vec::new();
    // A row length that holds the row its index assumes (`ldc >= 128 *
    // gridDim.x` for `ldc * row + bx * 128 + mid`, `n <= w` for `w * row
    // + col` under `col < n`): the likeliest condition of row-major
    // indices, asked early and with the longer time of a proof through a
    // division.
    let mut rows: Vec<Cond> = Vec::new();
    let mut row_widths: Vec<(String, Cond)> = Vec::new();
    for t in shapes {
        for (w, least) in smt::row_lengths(t) {
            // `n <= w` reads as the size within the row it is.
            let c = match &least {
                Expr::Var(n) if !builtin::is_dim(n) => at_most(n, &Expr::var(w.as_str())),
                _ => at_least(&w, &least),
            };
            // A row of at least one cell first: when the column is one
            // all threads share (`off + i * inc`), it cancels out, and
            // `inc >= 1` is the weaker condition.
            let one = at_least(&w, &Expr::Int(1));
            if params.contains(&&w) && !rows.contains(&one) && c != one {
                rows.push(one);
            }
            if params.contains(&&w) && !rows.contains(&c) {
                rows.push(c.clone());
                if !row_widths.iter().any(|(v, _)| *v == w) {
                    row_widths.push((w, c));
                }
            }
        }
    }
    // A block flat along the axes the code never indexes (`threadIdx.x`
    // alone, or x and y of a tile) while its block is left free there.
    let flat: Vec<Cond> = dims
        .iter()
        .filter(|d| kernel.unnamed_axes.iter().any(|u| u == *d))
        .map(|d| Cond::cmp(Rel::Eq, Expr::var(d), Expr::Int(1)))
        .collect();
    let flat = flat.into_iter().reduce(Cond::and);
    candidates.extend(flat.clone());
    // Every size at least a bound is asked before each alone: when races
    // survive it, their witness rejects each single one without the
    // solver; when it removes them, a single one may still, and is the
    // simpler suggestion.
    let mut groups: Vec<Cond> = Vec::new();
    for b in &bounds {
        if params.len() > 1 {
            let all = params.iter().map(|p| at_least(p, b)).reduce(Cond::and);
            groups.extend(all.clone());
            candidates.extend(all);
        }
        for p in &params {
            candidates.push(at_least(p, b));
        }
    }
    // A size within another: `width <= pitch`.
    for p in &params {
        for q in &params {
            if p != q {
                candidates.push(at_most(p, &Expr::var(q.as_str())));
            }
        }
    }
    let mut scaled: Vec<Cond> = Vec::new();
    // A size that is a whole number of the vectors an index divides by
    // (`width % 2 == 0` for `((half2 *)p)[(row * width + y) >> 1]`): the
    // quotient is exact only then, and the proof goes through it.
    for t in shapes {
        for (p, c) in smt::quotient_multiples(t) {
            let c = multiple_of(&p, c);
            if params.contains(&&p) && !scaled.contains(&c) {
                scaled.push(c);
            }
        }
    }
    // Strides of a tensor that keep its rows, planes and batches apart
    // (`nb1 >= ne00 && nb2 >= nb1 * gridDim.x` for `i2 * nb2 + i1 * nb1 +
    // i0`): a product of sizes, proved through nonlinear arithmetic.
    for t in shapes {
        for c in smt::nested_strides(t, &kernel.params) {
            let mut vars = BTreeSet::new();
            c.free_vars(&mut vars);
            let known = vars
                .iter()
                .all(|v| builtin::is_dim(v) || params.contains(&v));
            if known && !scaled.contains(&c) {
                scaled.push(c);
            }
        }
    }
    // A flat index within a plane of an NCHW tensor (`b * C * H * W + c * H
    // * W + i` under `i < n`) keeps its batches and channels apart when the
    // bound fits the plane: `n <= H * W`.
    for t in shapes {
        for c in smt::plane_ceilings(t) {
            let mut vars = BTreeSet::new();
            c.free_vars(&mut vars);
            if vars.iter().all(|v| params.contains(&v)) && !scaled.contains(&c) {
                scaled.push(c);
            }
        }
    }
    // The rows of a plane need their lengths together (`sx <= nx && sy <=
    // ny` for `(z * ny + y) * nx + x`), the weakest of each, asked first
    // and as a group, so that one length alone, when it is enough, is
    // still the answer.
    if row_widths.len() > 1 {
        let all = row_widths.into_iter().map(|(_, c)| c).reduce(Cond::and);
        groups.extend(all.clone());
        scaled.extend(all);
    }
    scaled.extend(rows);
    // A size in cells within a length in bytes: `width * 4 <= pitch` when
    // the index counts `r * pitch` bytes in cells of four.
    let mut divisors = index_constants(shapes, collect_divisors);
    divisors.sort_unstable();
    divisors.dedup();
    for d in divisors.iter().take(MAX_STRIDES) {
        for p in &params {
            for q in &params {
                if p != q {
                    scaled.push(Cond::cmp(
                        Rel::Le,
                        Expr::bin(Op::Mul, Expr::var(p.as_str()), Expr::Int(*d)),
                        Expr::var(q.as_str()),
                    ));
                }
            }
        }
    }
    // A size within a row length the index fixes: `i * 2048 + j` needs
    // `j < 2048`, so a bound `m` on `j` needs `m <= 2048`. Largest first: the
    // weakest such condition is the useful one.
    let mut strides = index_constants(shapes, collect_strides);
    strides.sort_unstable_by(|a, b| b.cmp(a));
    strides.dedup();
    strides.truncate(MAX_STRIDES);
    let singles: Vec<(&String, Cond)> = strides
        .iter()
        .flat_map(|c| params.iter().map(move |p| (*p, at_most(p, &Expr::Int(*c)))))
        .collect();
    let mut pairs = Vec::new();
    for (i, (p, a)) in singles.iter().enumerate() {
        for (q, b) in &singles[i + 1..] {
            if p != q {
                pairs.push(Cond::and(a.clone(), b.clone()));
            }
        }
    }
    candidates.extend(singles.into_iter().map(|(_, c)| c));
    candidates.extend(pairs.into_iter().take(MAX_STRIDES * MAX_STRIDES));
    // A size that is a whole number of the vectors or tiles the index
    // steps by (`oc % 8 == 0` for `bx * 64 + w * 8 + k`, `k < 8`): the
    // smallest, weakest, first.
    let mut widths = strides.clone();
    widths.sort_unstable();
    for c in widths.iter().take(MAX_STRIDES) {
        for p in &params {
            candidates.push(multiple_of(p, *c));
        }
    }
    // A block within the extent its index assumes: the row lengths and
    // the moduli of the indices, largest (weakest) first.
    // A path's moduli too: a warp's lane 0 writing its row's result
    // (`tid % 32 == 0`) needs a block of one warp along that axis.
    let mut extents = strides.clone();
    extents.extend(index_constants(shapes, collect_moduli));
    extents.extend(path_constants(shapes, collect_moduli));
    extents.sort_unstable_by(|a, b| b.cmp(a));
    extents.dedup();
    extents.truncate(MAX_STRIDES);
    for d in &dims {
        for c in &extents {
            candidates.push(at_most(d, &Expr::Int(*c)));
        }
    }
    // A block narrower than the races' own: the solver's witnesses are
    // small, so the narrowest block a race needs, less one, is where the
    // kernel's layout stops holding (a tile sized for the block it was
    // written for, `s[BDIMX + 8]` indexed by `threadIdx.x + 4`).
    for d in &dims {
        let mut widths: Vec<i64> = racy
            .witnessed
            .iter()
            .filter_map(|w| w.get(*d).copied())
            // A block one or two threads wide along an axis the kernel
            // uses is no layout anyone writes for.
            .filter(|v| *v > 3)
            .collect();
        widths.sort_unstable();
        widths.dedup();
        for v in widths.into_iter().take(MAX_STRIDES) {
            let c = at_most(d, &Expr::Int(v - 1));
            if !candidates.contains(&c) {
                candidates.push(c);
            }
        }
    }
    // A block of whole warps (or tiles): `blockDim.x / 32` warps cover the
    // block only when it is a multiple of 32.
    for d in &dims {
        for c in dim_divisors(shapes, d).into_iter().take(MAX_STRIDES) {
            candidates.push(multiple_of(d, c));
        }
    }
    for g in &grids {
        candidates.push(Cond::cmp(Rel::Eq, Expr::var(g), Expr::Int(1)));
    }
    // One race per interval is enough to reject a candidate, and a
    // candidate the solver cannot settle quickly is not the simple one.
    let opts = Options {
        max_races_per_interval: 1,
        timeout_ms: short_limit(opts.timeout_ms),
        // The budget is short: restarts in fresh contexts would spend it
        // setting up, where the first attempt goes on to an answer.
        first_attempt_ms: candidate_ms,
        ..opts.clone()
    };
    // Whether two threads still both reach an access of a racy interval: a
    // condition that switches the work off (`k >= blockDim.x * gridDim.x`
    // when every thread needs `j > k`) removes races by removing the kernel.
    let active: Vec<Trace> = traces
        .iter()
        .map(|t| {
            let mut t = (*t).clone();
            for a in t.accesses.iter_mut().flatten() {
                a.index = vec![Expr::Int(0); a.index.len()];
                a.mode = Mode::Write;
                a.value = None;
                a.lock = None;
            }
            t
        })
        .collect();
    // Whether two threads still reach the two accesses of a race found,
    // one each: a condition that switches one of them off (`n <= 0` for an
    // update in a loop to `n`, racing with an initialisation every thread
    // makes) removes the race by removing the code that races.
    let mut raced: Vec<Trace> = Vec::new();
    for (t, pairs) in active.iter().zip(racy.pairs) {
        let mut seen: Vec<[u32; 2]> = Vec::new();
        for &[a, b] in pairs {
            let mut key = [a, b];
            key.sort_unstable();
            if seen.len() == MAX_RACED_PAIRS || seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let mut t = t.clone();
            t.accesses[0].retain(|x| x.id == a);
            t.accesses[1].retain(|x| x.id == b);
            raced.push(t);
        }
    }
    let active = if raced.is_empty() { active } else { raced };
    // Whether one thread still reaches an access of a racy interval: the
    // second thread's accesses become one it always makes.
    let alone: Vec<Trace> = active
        .iter()
        .filter_map(|t| {
            let mut t = t.clone();
            let mut any = t.accesses[1].first()?.clone();
            any.loops.clear();
            any.path = Cond::Bool(true);
            t.accesses[1] = vec![any];
            Some(t)
        })
        .collect();
    let strict = Options {
        strict: true,
        ..opts.clone()
    };
    let under = |t: &Trace, c: &Cond| {
        let mut t = t.clone();
        t.assumptions.push(c.clone());
        t
    };
    // Every racy interval asked under `c`, each with `ms` of `budget`, and
    // then every undecided one: a condition that holds costs a proof per
    // interval. The models of the races that refute it are kept.
    let ask = |c: &Cond,
               opts: &Options,
               ms: u64,
               budget: Deadline,
               own: &mut Stats,
               witnessed: &mut Vec<BTreeMap<String, i64>>| {
        for t in traces.iter().chain(hard) {
            let each = Deadline::after_ms(ms).sooner(budget);
            match solve_cached(&under(t, c), opts, cache, own, each) {
                Outcome::Drf => {}
                Outcome::Racy(races) => {
                    witnessed.extend(races.into_iter().map(|r| r.values));
                    return Asked::Refuted;
                }
                Outcome::Unknown(_) => return Asked::Unsettled,
            }
        }
        Asked::Holds
    };
    // A kernel's candidates share one time budget, which ends any query at
    // it: past it, no suggestion. A query it ends is not cached, and the
    // report stays whole unless the kernel's own budget ended it.
    let budget = Deadline::after_ms(
        PRECONDITION_BUDGET_MS * patience + scaled_ms * scaled.len().min(MAX_SCALED_ASKED) as u64,
    )
    .sooner(deadline);
    let scaled_opts = Options {
        first_attempt_ms: scaled_ms,
        ..opts.clone()
    };
    let mut own = Stats::default();
    // A race found under one candidate rejects, without the solver, every
    // later candidate its values satisfy.
    let mut witnessed = racy.witnessed.to_vec();
    let mut found = None;
    // A group that removes the races, kept while its members are asked.
    let mut group = None;
    let mut cut_short = false;
    let mut undecided = false;
    // Exact quotients, row lengths and sizes against lengths in bytes
    // first: they are the likely conditions of indices that divide, and a
    // proof through the division takes the solver longer than the others.
    let mut tried: VecDeque<(Cond, u64)> = scaled
        .into_iter()
        .map(|c| (c, scaled_ms))
        .chain(candidates.into_iter().map(|c| (c, candidate_ms)))
        .collect();
    let mut asked: Vec<Cond> = tried.iter().map(|(c, _)| c.clone()).collect();
    // A block narrower than the narrowest race is asked too: the solver's
    // witnesses need not be the narrowest, and the width a tile was written
    // for is just below it. A few times at most, and last, so that the
    // shared budget still reaches every candidate of the list.
    let mut narrowed = 0;
    let mut narrow_next = |refuted: &Cond,
                           witnessed: &[BTreeMap<String, i64>],
                           tried: &mut VecDeque<(Cond, u64)>,
                           asked: &mut Vec<Cond>| {
        if narrowed >= MAX_STRIDES {
            return;
        }
        if let Some(n) = narrower(refuted, &dims, witnessed) {
            if !asked.contains(&n) {
                narrowed += 1;
                asked.push(n.clone());
                tried.push_back((n, candidate_ms));
            }
        }
    };
    // Candidates the solver refuted, with their time and the races that
    // refuted them: two that each rule out the other's races are asked
    // together once every single one is refuted (`blockDim.x <= 256`
    // for the races within a block, `cols <= stride` for those between
    // blocks).
    let mut refuted: Vec<(Cond, u64, Vec<BTreeMap<String, i64>>)> = Vec::new();
    let mut paired = false;
    loop {
        let next = match tried.pop_front() {
            // A pair is the simpler suggestion only beside a longer group.
            None if group
                .as_ref()
                .is_some_and(|g: &Cond| g.conjuncts().len() <= 2) =>
            {
                None
            }
            None if !paired => {
                paired = true;
                for (c, ms) in complementary_pairs(&refuted) {
                    if !asked.contains(&c) {
                        asked.push(c.clone());
                        tried.push_back((c, ms));
                    }
                }
                tried.pop_front()
            }
            next => next,
        };
        let Some((c, ms)) = next else {
            break;
        };
        if budget.passed() {
            cut_short = true;
            break;
        }
        if survives(&witnessed, &c) {
            if !paired && !groups.contains(&c) {
                let races: Vec<_> = witnessed
                    .iter()
                    .filter(|w| survives(std::slice::from_ref(*w), &c))
                    .cloned()
                    .collect();
                refuted.push((c.clone(), ms, races));
            }
            narrow_next(&c, &witnessed, &mut tried, &mut asked);
            continue;
        }
        let opts_c = if ms == scaled_ms { &scaled_opts } else { &opts };
        let shown = c;
        let c = fixed.iter().fold(shown.clone(), |c, (v, e)| c.subst(v, e));
        let before = witnessed.len();
        let answer = ask(&c, opts_c, ms, budget, &mut own, &mut witnessed);
        // A group is several conditions already; a pair of them is no
        // simple suggestion.
        if answer == Asked::Refuted && !paired && !groups.contains(&shown) {
            refuted.push((shown.clone(), ms, witnessed[before..].to_vec()));
        }
        // Ended by the kernel's budget: the search is cut short, not the
        // candidate undecided.
        undecided |= answer == Asked::Unsettled && !budget.passed();
        cut_short |= answer == Asked::Unsettled && budget.passed();
        if answer != Asked::Holds {
            narrow_next(&shown, &witnessed, &mut tried, &mut asked);
            continue;
        }
        // The proofs may have spent the candidate's time; this check is
        // usually quick, with time of its own.
        let each = Deadline::after_ms(candidate_ms).sooner(budget);
        // A grid of one block leaves pairs of threads of different blocks
        // nowhere to race, but the block's threads work on, unless where
        // they work depends on the block's id.
        let one_block = grids
            .iter()
            .any(|g| shown == Cond::cmp(Rel::Eq, Expr::var(g), Expr::Int(1)));
        // Nor does a flat block: the work of one thread per block (`if
        // (threadIdx.x == 0)`) stays one thread's.
        let working = if one_block {
            !traces.iter().any(|t| {
                t.accesses.iter().flatten().any(|a| {
                    let mut vars = BTreeSet::new();
                    a.path.free_vars(&mut vars);
                    vars.iter().any(|v| v.starts_with("bid."))
                })
            })
        } else {
            // A check the solver could not settle leaves the candidate
            // possibly the one that removes the races.
            let mut unsettled = false;
            let mut reached = |traces: &[Trace], own: &mut Stats| {
                traces.iter().any(|t| {
                    match solve_cached(&under(t, &c), &strict, cache, own, each) {
                        Outcome::Racy(_) => true,
                        Outcome::Unknown(_) => {
                            unsettled = true;
                            false
                        }
                        Outcome::Drf => false,
                    }
                })
            };
            let working = reached(&active, &mut own)
                || (Some(&shown) == flat.as_ref() && reached(&alone, &mut own));
            if !working && unsettled {
                undecided |= !budget.passed();
                cut_short |= budget.passed();
            }
            working
        };
        if working {
            if groups.contains(&shown) {
                group.get_or_insert(shown);
                continue;
            }
            found = Some(shown);
            break;
        }
    }
    // A bound on a block found among the candidates (a warp, a tile) may be
    // narrower than the narrowest block a race needs: the weakest one is
    // the users' answer, whose launches may be wider than the constant.
    // Searched between the bound and the narrowest witnessed race: that
    // race less one, a few times, then by bisection.
    if let Some(Cond::Cmp(Rel::Le, Expr::Var(d), Expr::Int(proved))) = &found {
        let (d, mut proved) = (d.clone(), *proved);
        let narrowest = |witnessed: &[BTreeMap<String, i64>], proved: i64| {
            witnessed
                .iter()
                .filter_map(|w| w.get(&d).copied())
                .filter(|w| *w > proved)
                .min()
        };
        let mut racing = narrowest(&witnessed, proved).filter(|_| dims.contains(&d.as_str()));
        // A budget of its own: the search may have spent the shared one
        // on the candidates before, and a bound found stays proved.
        let budget = Deadline::after_ms(PRECONDITION_BUDGET_MS * patience).sooner(deadline);
        let mut steps = 0;
        let mut narrowing = true;
        while let Some(hi) = racing.filter(|hi| hi - proved > 1 && steps < MAX_BISECTIONS) {
            // The narrowest race less one first, a few times: the solver's
            // witnesses are usually just past where races start (33 for a
            // layout of 32), and each race refuting it is narrower.
            let mid = if narrowing && steps < MAX_NARROWINGS {
                hi - 1
            } else {
                proved + (hi - proved) / 2
            };
            steps += 1;
            let c = Cond::cmp(Rel::Le, Expr::var(&d), Expr::Int(mid));
            let answer = ask(&c, &opts, candidate_ms, budget, &mut own, &mut witnessed);
            // Not provable in its time: a narrower bound may be, and which
            // one is bisected for.
            narrowing &= answer != Asked::Unsettled;
            if answer == Asked::Holds {
                proved = mid;
            } else if budget.passed() {
                break;
            } else {
                racing = narrowest(&witnessed, proved)
                    .map(|w| w.min(mid))
                    .or(Some(mid));
            }
        }
        found = Some(Cond::cmp(Rel::Le, Expr::var(&d), Expr::Int(proved)));
    }
    if !deadline.passed() {
        // Only the kernel's own budget makes the report partial.
        own.cut_short = 0;
    }
    stats.add(&own);
    match found.or(group) {
        Some(c) => Search::Found(c),
        None if cut_short => Search::CutShort,
        None if undecided => Search::Undecided,
        None => Search::None,
    }
}

/// Whether the kernel's parameter `p` is a flag, not a size: a `bool`
/// (0 or 1 by its type) or an enumeration.
fn is_flag(kernel: &Kernel, p: &str) -> bool {
    use crate::protocol::{Expr, Rel};
    fn enumerated(c: &Cond, p: &str) -> bool {
        match c {
            Cond::Cmp(Rel::Eq, Expr::Var(v), Expr::Int(_)) => v == p,
            Cond::Or(a, b) => enumerated(a, p) && enumerated(b, p),
            _ => false,
        }
    }
    kernel.assumes.iter().any(|c| match c {
        Cond::And(_, hi) => {
            matches!(&**hi, Cond::Cmp(Rel::Le, Expr::Var(v), Expr::Int(h)) if v == p && *h <= 1)
        }
        c => enumerated(c, p),
    })
}

/// At most this many pairs of refuted candidates are asked together.
const MAX_PAIRS: usize = 6;

/// Pairs of refuted candidates each of which rules out every race that
/// refuted the other, earliest first, with the longer of their times.
fn complementary_pairs(refuted: &[(Cond, u64, Vec<BTreeMap<String, i64>>)]) -> Vec<(Cond, u64)> {
    let rules_out = |c: &Cond, races: &[BTreeMap<String, i64>]| {
        !races.is_empty()
            && races.iter().all(|values| {
                crate::protocol::eval::eval_cond(c, &|v| values.get(v).copied()) == Ok(false)
            })
    };
    let mut out = Vec::new();
    for (i, (a, a_ms, a_races)) in refuted.iter().enumerate() {
        for (b, b_ms, b_races) in &refuted[i + 1..] {
            if out.len() < MAX_PAIRS && rules_out(b, a_races) && rules_out(a, b_races) {
                out.push((Cond::and(a.clone(), b.clone()), (*a_ms).max(*b_ms)));
            }
        }
    }
    out
}

/// For a refuted `d <= v` over a block size `d`, the bound just below
/// the narrowest block a witnessed race needs within it, when that block
/// is one a layout is written for (more than three threads).
fn narrower(c: &Cond, dims: &[&str], witnessed: &[BTreeMap<String, i64>]) -> Option<Cond> {
    use crate::protocol::{Expr, Rel};
    let Cond::Cmp(Rel::Le, Expr::Var(d), Expr::Int(v)) = c else {
        return None;
    };
    if !dims.contains(&d.as_str()) {
        return None;
    }
    let least = witnessed
        .iter()
        .filter_map(|w| w.get(d).copied())
        .filter(|w| *w > 3 && w <= v)
        .min()?;
    Some(Cond::cmp(Rel::Le, Expr::var(d), Expr::Int(least - 1)))
}

/// Splits a trace variable into its source name and thread: `j#2@1` is `j`
/// of thread 1, `N` is shared.
fn source_name<'a>(kernel: &Kernel, name: &'a str) -> (&'a str, Option<usize>) {
    let (base, thread) = match name.rsplit_once('@') {
        Some((base, "1")) => (base, Some(0)),
        Some((base, "2")) => (base, Some(1)),
        _ => (name, None),
    };
    // `#n` marks a copy the analysis made of a loop variable, unless the
    // kernel itself declares the numbered name (front-ends number unknowns).
    if kernel.is_local(base) || kernel.is_param(base) {
        (base, thread)
    } else {
        (base.split('#').next().unwrap_or(base), thread)
    }
}

/// How a thread's variable reads in a witness: its source name, unless it
/// counts the iterations of a loop whose variable steps by more than one
/// (`i#k` for `i = start + k * step`), which is no value of the variable.
fn witness_name(kernel: &Kernel, name: &str, base: &str) -> String {
    let plain = name.split('@').next().unwrap_or(name);
    if !kernel.is_local(plain) && plain.split('#').nth(1) == Some("k") {
        format!("iteration of {base}")
    } else {
        base.to_string()
    }
}

/// The trace accesses of thread `k` with `Access::id` `id` (one, unless a
/// transformation copied the access within the interval).
fn issued(trace: &Trace, k: usize, id: u32) -> impl Iterator<Item = &TraceAccess> {
    trace.accesses[k].iter().filter(move |a| a.id == id)
}

/// A raw solver race as a [`Race`]: source names, the values each thread
/// needs, and whether an unknown is involved.
fn witness(
    kernel: &Kernel,
    array: &ArrayProtocol,
    trace: &Trace,
    raw: &RawRace,
    strict: bool,
) -> Race {
    // Unsynchronized-loop variables matter only for the loops around the
    // racing access; the model's values for other loops are arbitrary.
    let loop_vars: [BTreeSet<&str>; 2] = [0, 1].map(|k| {
        trace.accesses[k]
            .iter()
            .flat_map(|a| a.loops.iter().map(|b| b.var.as_str()))
            .collect()
    });
    let own_loops: [BTreeSet<&str>; 2] = [0, 1].map(|k| {
        issued(trace, k, raw.accesses[k])
            .flat_map(|a| a.loops.iter().map(|b| b.var.as_str()))
            .collect()
    });

    // Ids and dimensions of unused axes are fixed (to 0 and 1) and only
    // clutter the witness.
    let mut mentioned = BTreeSet::new();
    kernel
        .arrays
        .iter()
        .for_each(|a| a.body.free_vars(&mut mentioned));
    let axis_fixed = |dim: &str| {
        kernel.assumes.contains(&Cond::cmp(
            crate::protocol::Rel::Eq,
            crate::protocol::Expr::var(dim),
            crate::protocol::Expr::Int(1),
        ))
    };
    let trivial = |base: &str| {
        let dim = (1..3).find_map(|d| {
            if base == builtin::TID[d] || base == builtin::BLOCK_DIM[d] {
                Some(builtin::BLOCK_DIM[d])
            } else if base == builtin::BID[d] || base == builtin::GRID_DIM[d] {
                Some(builtin::GRID_DIM[d])
            } else {
                None
            }
        });
        dim.is_some_and(axis_fixed) && !mentioned.contains(base)
    };
    let mut w = Witness::default();
    for (name, &value) in &raw.values {
        if trivial(source_name(kernel, name).0) {
            continue;
        }
        // A copy of a loop variable named after a parameter the loop steps
        // (`for (; stride > 0; stride >>= 1)` counted by `stride#k`) is no
        // value of the parameter, which the witness gives.
        let base = source_name(kernel, name).0;
        if kernel.is_param(base) && name.split('@').next() != Some(base) {
            continue;
        }
        match source_name(kernel, name) {
            (base, Some(k)) => {
                if !loop_vars[k].contains(name.as_str()) || own_loops[k].contains(name.as_str()) {
                    w.threads[k].insert(witness_name(kernel, name, base), value);
                }
            }
            // A block id shared by both threads (same block).
            (base, None) if builtin::is_thread_id(base) => {
                w.threads[0].insert(base.to_string(), value);
                w.threads[1].insert(base.to_string(), value);
            }
            (base, None) => {
                w.globals.insert(base.to_string(), value);
            }
        }
    }

    // Two writes of known values race only if the values differ, unless
    // `strict`: values read from memory then decide it too.
    let values_decide = !strict && writes_known_values(trace, raw);
    let involves_unknown = (0..2).any(|k| {
        issued(trace, k, raw.accesses[k]).any(|a| {
            let mut vars = BTreeSet::new();
            a.index.iter().for_each(|e| e.free_vars(&mut vars));
            a.path.free_vars(&mut vars);
            // A cell of an array the kernel never writes holds input: any
            // content is one a caller may pass, so only its index counts.
            if values_decide {
                a.value
                    .iter()
                    .flat_map(crate::protocol::Value::exprs)
                    .for_each(|e| e.free_vars(&mut vars));
            }
            for b in &a.loops {
                b.lo.free_vars(&mut vars);
                b.hi.free_vars(&mut vars);
            }
            vars.iter().any(|v| {
                let name = source_name(kernel, v).0;
                // A block id is below a grid size the launch leaves unread;
                // block 0 is in every grid.
                let grid = builtin::BID
                    .iter()
                    .position(|b| *b == name)
                    .filter(|_| w.threads.iter().any(|t| t.get(name) != Some(&0)))
                    .map(|a| builtin::GRID_DIM[a]);
                kernel.is_local(name)
                    || kernel.unknown_params.iter().any(|u| u == name)
                    || grid.is_some_and(|g| kernel.unknown_params.iter().any(|u| u == g))
                    || kernel.open_template_params.iter().any(|u| u == name)
            })
        })
    });

    // The interval itself may exist only for some values of an unknown (a
    // synchronized loop of unknown trip count). The ranges of ids say
    // nothing of that: an id the accesses use is counted above.
    let mut interval_vars = BTreeSet::new();
    trace
        .assumptions
        .iter()
        .filter(|c| !analysis::seq::is_launch_range(c))
        .for_each(|c| c.free_vars(&mut interval_vars));
    let involves_unknown = involves_unknown
        || kernel
            .unknown_params
            .iter()
            .any(|u| interval_vars.contains(u.as_str()));

    // A quotient by 0 is unspecified on the GPU (the solver and the
    // evaluator make it 0): an address resting on one is no launch's.
    let divides_by_zero = (0..2).any(|k| {
        issued(trace, k, raw.accesses[k]).any(|a| {
            let lookup = |v: &str| raw.values.get(v).copied();
            let mut zero = false;
            let mut visit = |e: &crate::protocol::Expr| {
                zero |= divisor_zero(e, &lookup);
            };
            a.index.iter().for_each(&mut visit);
            a.path.each_expr(&mut visit);
            zero
        })
    });
    // A value no 32-bit parameter holds (the solver's integers are
    // unbounded): no launch shows this race as it is.
    let beyond_its_type = kernel
        .word_ranges
        .iter()
        .any(|(p, lo, hi)| w.globals.get(p).is_some_and(|v| v < lo || v > hi));
    let access = |k: usize| {
        let id = raw.accesses[k];
        let found = issued(trace, k, id).next();
        RaceAccess {
            id,
            loc: found.map_or(Loc::NONE, |a| a.loc),
            mode: found.map_or(Mode::Write, |a| a.mode),
        }
    };
    Race {
        array: array.name.clone(),
        accesses: [access(0), access(1)],
        index: raw.index.clone(),
        confidence: if involves_unknown
            || !kernel.approximations.is_empty()
            || beyond_its_type
            || divides_by_zero
        {
            Confidence::Possible
        } else {
            Confidence::Confirmed
        },
        witness: w,
        precondition: None,
    }
}

/// Whether `e` divides (or takes a remainder) by a value that is 0 under
/// `lookup`, anywhere in it.
fn divisor_zero(e: &crate::protocol::Expr, lookup: &impl Fn(&str) -> Option<i64>) -> bool {
    use crate::protocol::{Expr, Op};
    match e {
        Expr::Int(_) | Expr::Var(_) => false,
        Expr::Bin(op, a, b) => {
            (matches!(op, Op::Div | Op::Mod)
                && crate::protocol::eval::eval_expr(b, lookup) == Ok(0))
                || divisor_zero(a, lookup)
                || divisor_zero(b, lookup)
        }
        // Only the branch taken is evaluated.
        Expr::Ite(c, a, b) => {
            let mut zero = false;
            c.each_expr(&mut |x| zero |= divisor_zero(x, lookup));
            zero || match crate::protocol::eval::eval_cond(c, lookup) {
                Ok(true) => divisor_zero(a, lookup),
                Ok(false) => divisor_zero(b, lookup),
                Err(_) => divisor_zero(a, lookup) || divisor_zero(b, lookup),
            }
        }
    }
}

/// The two-thread instance a witness describes.
pub fn instance(kernel: &Kernel, w: &Witness) -> Instance {
    let globals = w
        .globals
        .iter()
        .filter(|(n, _)| kernel.is_param(n))
        .map(|(n, v)| (n.clone(), *v))
        .collect();
    let threads = w
        .threads
        .iter()
        .map(|t| {
            t.iter()
                .filter(|(n, _)| builtin::is_thread_id(n) || kernel.is_local(n))
                .map(|(n, v)| (n.clone(), *v))
                .collect()
        })
        .collect();
    Instance { globals, threads }
}

/// Runs the witness of `race` on the concrete evaluator within `budget`
/// steps. A witness that runs out of budget is kept, with a note: it is
/// not shown wrong, only too long to run; later ones get a smaller budget.
fn replay(
    kernel: &Kernel,
    array: &ArrayProtocol,
    race: &Race,
    budget: &mut u64,
) -> Result<Option<String>, String> {
    let inst = instance(kernel, &race.witness);
    let ids = (race.accesses[0].id, race.accesses[1].id);
    let [a, b] = &race.accesses;
    let what = format!(
        "the witness for the race of `{}` between access #{} at {} and access #{} at {}",
        race.array, a.id, a.loc, b.id, b.loc
    );
    match eval::replay(kernel, array, &inst, ids, &race.index, *budget) {
        Ok(true) => Ok(None),
        Err(EvalError::Budget) => {
            *budget = REPLAY_BUDGET_AFTER_EXHAUSTION;
            Ok(Some(format!(
                "{what} was not replayed: evaluation budget exhausted"
            )))
        }
        // The solver leaves an operation C does not define (a shift by a
        // negative amount) unconstrained: the race is possible, not shown.
        Err(EvalError::Overflow(op)) => Ok(Some(format!(
            "{what} was not replayed: it takes `{op}`, which has no defined value"
        ))),
        // Locals a block shares where its threads meet are each thread's
        // own in a trace: a witness that splits one may not run.
        Ok(false) | Err(_) if split_shared(kernel, &inst).is_some() => {
            let v = split_shared(kernel, &inst).unwrap_or_default();
            Ok(Some(format!(
                "{what} was not replayed: it gives the two threads different values of `{v}`, \
                 which the threads of a block share where they meet"
            )))
        }
        Ok(false) => Err(format!("internal error: {what} does not replay")),
        Err(e) => Err(format!("internal error: {what} does not replay ({e})")),
    }
}

/// A local the threads of a block hold alike at each barrier
/// (`Kernel::control_uniform`, `Kernel::block_uniform`) that `inst` gives
/// the two threads different values of.
fn split_shared(kernel: &Kernel, inst: &Instance) -> Option<String> {
    let [a, b] = inst.threads.as_slice() else {
        return None;
    };
    kernel
        .control_uniform
        .iter()
        .chain(&kernel.block_uniform)
        .find(|v| a.get(*v).is_some_and(|x| b.get(*v).is_some_and(|y| x != y)))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse;
    use std::collections::HashMap;
    use std::sync::Mutex;

    const ONE_DIM: &str =
        "assume blockDim.y == 1 && blockDim.z == 1 && gridDim.y == 1 && gridDim.z == 1;\n";

    /// Options whose precondition search has time to spare: the search
    /// has a wall-clock budget, and a loaded machine must not change what
    /// it finds.
    fn patient() -> Options {
        Options {
            precondition_patience: 20,
            ..Options::default()
        }
    }

    fn kernel(src: &str) -> Kernel {
        parse(&format!("{ONE_DIM}{src}")).unwrap()
    }

    #[test]
    fn copies_of_one_source_access_make_one_race() {
        // Two copies of the write (as loop unrolling makes) at one position.
        let mut k = kernel("array a { wr[tid + 1] wr[tid + 2] rd[tid] }");
        let crate::protocol::Stmt::Seq(items) = &mut k.arrays[0].body else {
            panic!("a sequence")
        };
        let first = match &items[0] {
            crate::protocol::Stmt::Access(a) => a.loc,
            _ => panic!("an access"),
        };
        if let crate::protocol::Stmt::Access(a) = &mut items[1] {
            a.loc = first;
        }
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.verdict(), Verdict::Racy);
        // Write against write (both copies at `first`) and write against the
        // read: each copy would give the second one again.
        let races = &report.arrays[0].races;
        assert_eq!(races.len(), 2, "{races:#?}");
        let mut sites: Vec<_> = races
            .iter()
            .map(|r| {
                let mut s = [r.accesses[0].loc, r.accesses[1].loc];
                s.sort();
                s
            })
            .collect();
        sites.dedup();
        assert_eq!(sites.len(), 2);
        assert!(races
            .iter()
            .all(|r| r.accesses.iter().any(|a| a.loc == first)));
    }

    #[derive(Default)]
    struct MapCache(Mutex<HashMap<String, Outcome>>);

    impl TraceCache for MapCache {
        fn get(&self, hash: &str) -> Option<Outcome> {
            self.0.lock().unwrap().get(hash).cloned()
        }
        fn put(&self, hash: &str, outcome: &Outcome) {
            self.0
                .lock()
                .unwrap()
                .insert(hash.to_string(), outcome.clone());
        }
    }

    #[test]
    fn a_witness_that_splits_a_shared_local_is_not_an_internal_error() {
        // `x` is one value for the block where its threads meet, but each
        // thread's own in a trace: a witness may give the threads two
        // values that take them to different barriers, which no run does.
        let mut k = kernel("locals x; array a { if x > 0 { sync }; wr[0] }");
        k.control_uniform.push("x".into());
        let report = check_kernel(&k, &Options::default());
        let mut race = report.arrays[0].races[0].clone();
        race.witness.threads[0].insert("x".into(), 1);
        race.witness.threads[1].insert("x".into(), 0);
        let mut budget = REPLAY_BUDGET;
        let note = replay(&k, &k.arrays[0], &race, &mut budget).unwrap();
        assert!(note.is_some_and(|n| n.contains("different values of `x`")));
        // Of a local that is each thread's own, the same witness is wrong.
        k.control_uniform.clear();
        let internal = replay(&k, &k.arrays[0], &race, &mut budget);
        assert!(
            internal
                .as_ref()
                .is_err_and(|e| e.contains("barrier divergence")),
            "{internal:?}"
        );
    }

    #[test]
    fn a_witness_out_of_budget_shrinks_the_budget_of_the_next() {
        let k = kernel("params n; array a { wr[0] }");
        let report = check_kernel(&k, &Options::default());
        let race = &report.arrays[0].races[0];
        let mut budget = 0;
        let note = replay(&k, &k.arrays[0], race, &mut budget).unwrap();
        assert!(note.is_some_and(|n| n.contains("budget exhausted")));
        assert_eq!(budget, REPLAY_BUDGET_AFTER_EXHAUSTION);
        let mut budget = REPLAY_BUDGET;
        assert_eq!(replay(&k, &k.arrays[0], race, &mut budget), Ok(None));
        assert_eq!(budget, REPLAY_BUDGET);
    }

    #[test]
    fn a_witness_beyond_a_parameters_type_is_possible() {
        // Only `n > 2^31` lets two threads both write: no `int` holds it.
        let text = "params n; array a { if (n > 2147483648) { wr[0] } }";
        let mut k = kernel(text);
        k.word_ranges = vec![("n".into(), i32::MIN.into(), i32::MAX.into())];
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.arrays[0].races[0].confidence, Confidence::Possible);
        // A `long long` holds it: the race is real.
        let report = check_kernel(&kernel(text), &Options::default());
        assert_eq!(report.arrays[0].races[0].confidence, Confidence::Confirmed);
    }

    #[test]
    fn races_on_an_open_template_argument_are_possible() {
        // `vec` is a template argument no instantiation fixes: the race
        // needs `vec == 0`, a value the program may never use.
        let mut k = kernel("params vec; array a { wr[tid * vec] }");
        k.open_template_params = vec!["vec".into()];
        let report = check_kernel(&k, &Options::default());
        let race = &report.arrays[0].races[0];
        assert_eq!(race.confidence, Confidence::Possible);
        assert!(
            race.precondition.is_some()
                || report.approximations.iter().any(|a| a.contains("`vec`")),
            "{report:?}"
        );
        // A race that does not depend on it stays confirmed.
        let mut k = kernel("params vec; array a { wr[0] }");
        k.open_template_params = vec!["vec".into()];
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.arrays[0].races[0].confidence, Confidence::Confirmed);
        assert!(report.approximations.is_empty());
    }

    #[test]
    fn races_between_blocks_of_an_unread_grid_are_possible() {
        // Columns of a table scanned by DIVISIONS = 1024 threads: threads
        // 1024 apart meet, which needs a grid of more than 8 blocks of 128.
        // With the grid read as a constant the launch rules that out; left
        // unread, the witness's grid may be one the program never runs.
        let src = "params rows;\n\
                   assume blockDim.x == 128 && blockDim.y == 1 && blockDim.z == 1 && gridDim.y == 1 && gridDim.z == 1;\n\
                   global array offsets { for i in bid.x * 128 + tid.x..rows * 1024 {\n\
                   if ((i - (bid.x * 128 + tid.x)) % 1024 == 0) { rd[i]; wr[i]; } } }";
        let mut k = kernel(src);
        // A precondition search cut short by a loaded machine would make
        // the race possible too.
        let patient = patient();
        let report = check_kernel(&k, &patient);
        assert_eq!(report.arrays[0].races[0].confidence, Confidence::Confirmed);
        k.unknown_params = vec!["gridDim.x".into()];
        let report = check_kernel(&k, &patient);
        let race = &report.arrays[0].races[0];
        assert_eq!(race.confidence, Confidence::Possible, "{report:?}");
        // A race within one block does not depend on the grid.
        let mut k = kernel(
            "assume blockDim.x == 32 && blockDim.y == 1 && blockDim.z == 1;\n\
             array a { wr[tid.x % 16] }",
        );
        k.unknown_params = vec!["gridDim.x".into()];
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.arrays[0].races[0].confidence, Confidence::Confirmed);
        // Nor does one within a block of global memory its block id
        // indexes, when its witness is block 0, which every grid has.
        let mut k = kernel(
            "assume blockDim.x == 32 && blockDim.y == 1 && blockDim.z == 1;\n\
             global array a { wr[bid.x * 32 + tid.x / 2] }",
        );
        k.unknown_params = vec!["gridDim.x".into()];
        let report = check_kernel(&k, &Options::default());
        let race = &report.arrays[0].races[0];
        assert_eq!(race.witness.threads[0].get("bid.x"), Some(&0), "{race:?}");
        assert_eq!(race.confidence, Confidence::Confirmed);
    }

    #[test]
    fn two_conditions_that_each_remove_the_others_races_are_suggested_together() {
        // Rows of `c` cells `s` apart, walked by a loop that steps by 256:
        // a block wider than 256 threads races within a row, a row longer
        // than `s` with the next block's; neither bound alone removes both.
        let k = parse(
            "params c, s; global array y { for j in 0..4 { if (tid.x + 256 * j < c) { \
             wr[bid.x * s + tid.x + 256 * j] } } }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.confidence, Confidence::Possible);
        // (`c <= 256` keeps the loop to one step as well.)
        let pre = race.precondition.as_deref();
        assert!(
            matches!(
                pre,
                Some("c <= s && blockDim.x <= 256" | "c <= s && c <= 256")
            ),
            "{pre:?}"
        );
        // A cell past a row's `c` values (`row[c]`) is in the row when the
        // row length exceeds `c`; a flag (0 or 1 by its type) is no size.
        let k = parse(
            "params c, s, f; assume 0 <= f && f <= 1; global array y { \
             if (tid.x < c) { wr[bid.x * s + tid.x] } if (tid.x == 0 && f != 0) { wr[bid.x * s + c] } }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("s >= 1 + c"));
        // A strided vector (`y[off + i * inc]`, BLAS's axpy): the offset
        // is every thread's and cancels out; a stride of one cell or more
        // is enough, not one past the offset, nor `n` within a stride.
        let k = parse(
            "params n, inc, off; global array y { if (bid.x * blockDim.x + tid.x < n) { \
             wr[off + (bid.x * blockDim.x + tid.x) * inc] } }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("inc >= 1"));
    }

    #[test]
    fn races_a_precondition_removes_are_possible_and_say_which() {
        // a[tid + j * n] for j in 0..2: threads collide unless n covers a
        // block, here of 64 threads: the row length the index assumes.
        let k = kernel(
            "params n; assume blockDim.x == 64; array a { for j in 0..2 { wr[tid + j * n] } }",
        );
        let report = check_kernel(&k, &patient());
        assert_eq!(report.verdict(), Verdict::Racy);
        let race = &report.arrays[0].races[0];
        assert_eq!(race.confidence, Confidence::Possible);
        assert_eq!(race.precondition.as_deref(), Some("n >= 64"));
        // A global array indexed by the thread's place in its block alone
        // is written for one block.
        let k = kernel("global array a { wr[tid] }");
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("gridDim.x == 1"));
        // With the block free, the same row length over the block's size.
        let k = kernel("params n; array a { for j in 0..2 { wr[tid + j * n] } }");
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("n >= blockDim.x"));
        // Rows of whole vectors: the eight cells from a multiple of 8 below
        // `oc` stay in the row only when `oc` is a multiple of 8 too. (The
        // grid is wider than a row, so no row length holds the grid.)
        let k = parse(
            "params oc; assume blockDim.x == 8 && gridDim.y == 2 && oc < 8 * gridDim.x; \
             global array d { if (bid.x * 8 < oc) { wr[bid.y * oc + bid.x * 8 + tid.x] } }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("oc % 8 == 0"));
        // A row of half2 cells, `(row * w + 2 * t) >> 1`: cells of two rows
        // meet at an odd `w`, and the quotient is exact at an even one.
        let k = parse(
            "params w; global array d { for y in 0..w { if (tid.x * 2 + y * (blockDim.x * 2) < w) { \
             wr[(bid.x * w + tid.x * 2 + y * (blockDim.x * 2)) >> 1] } } }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("w % 2 == 0"));
        // A column kept below a size by its guard: the row holds it when
        // the size is within the row length, weaker than any bound from the
        // grid's width.
        let k = parse(
            "params n, w; assume blockDim.x == 32; \
             global array d { if (bid.x * 32 + tid.x < n) { wr[bid.y * w + bid.x * 32 + tid.x] } }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("n <= w"));
        // A volume copied into a larger one, `(z * dy + y) * dx + x` under
        // `x < sx && y < sy`: its rows and its planes each hold the smaller
        // volume's, and neither length alone removes the races.
        let k = parse(
            "params dx, dy, sx, sy, sz; assume blockDim.x == 8 && blockDim.y == 8 && blockDim.z == 2; \
             global array d { if (bid.x * 8 + tid.x < sx && bid.y * 8 + tid.y < sy && bid.z * 2 + tid.z < sz) { \
             wr[((bid.z * 2 + tid.z) * dy + bid.y * 8 + tid.y) * dx + bid.x * 8 + tid.x] } }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("sx <= dx && sy <= dy"));
        // Of two row lengths, the weaker: `(h + 1) * r + tid.x + 1` needs
        // `h + 1` above `tid.x` alone (the `+ 1` is every thread's), not
        // above `tid.x + 1 + tid.y`.
        let k = parse(
            "params h; assume blockDim.x == 16 && blockDim.y == 16 && gridDim.x == 1; \
             global array d { wr[(h + 1) * (bid.y * 16 + tid.y) + tid.x + 1 + (h + 1)] }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("h >= 15"));
        // A thread that writes rows eight apart, `n * (8 * (tid / 64) + 1)`:
        // the row is `n` long, not `8 * n`, and holds the block's 64
        // columns of the grid.
        let k = parse(
            "params n; assume blockDim.x == 512 && gridDim.y == 1; \
             global array c { wr[n * (tid.x / 64 * 8) + bid.x * 64 + tid.x % 64]; \
             wr[n * (tid.x / 64 * 8 + 1) + bid.x * 64 + tid.x % 64] }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("n >= 64 * gridDim.x"));
        // Columns of one row written at `c` and `c + 3` (a vector's parts):
        // the row holds both, three cells more than one.
        let k = parse(
            "params n; assume blockDim.x == 64 && gridDim.x == 1; \
             global array c { wr[n * (tid.x / 16) + tid.x % 16 * 4]; wr[n * (tid.x / 16) + tid.x % 16 * 4 + 3] }",
        )
        .unwrap();
        let race = &check_kernel(&k, &patient()).arrays[0].races[0];
        assert_eq!(race.precondition.as_deref(), Some("n >= 64"));
        // A race no such condition removes stays confirmed.
        let k = kernel("params n; array a { wr[n] }");
        let report = check_kernel(&k, &patient());
        let race = &report.arrays[0].races[0];
        assert_eq!(
            (race.confidence, race.precondition.as_deref()),
            (Confidence::Confirmed, None)
        );
    }

    #[test]
    fn a_threads_place_in_its_block_is_below_the_blocks_threads() {
        let k = prepare(
            &parse("array a { wr[(tid.z * blockDim.y + tid.y) * blockDim.x + tid.x] }").unwrap(),
        );
        let traces = analysis::traces(&k, &k.arrays[0], false).expect("traces");
        let lemmas = linear_ids_within_block(&traces[0]);
        assert_eq!(lemmas.len(), 2, "{lemmas:?}");
        assert_eq!(
            block_threads_limit(&traces[0])
                .map(|c| c.to_string())
                .as_deref(),
            Some("blockDim.x * blockDim.y * blockDim.z <= 1024")
        );
        // A theorem of the ids' ranges: it holds at every small launch.
        for lemma in &lemmas {
            for dims in 0..27 {
                let size = [dims % 3 + 1, dims / 3 % 3 + 1, dims / 9 + 1];
                for place in 0..size.iter().product::<i64>() {
                    let id = [
                        place % size[0],
                        place / size[0] % size[1],
                        place / size[0] / size[1],
                    ];
                    let lookup = |n: &str| {
                        let d = n.rsplit('.').next()?.chars().next()? as usize;
                        let d = d.checked_sub('x' as usize)?;
                        if n.starts_with("blockDim.") {
                            Some(size[d])
                        } else if n.starts_with("tid.") {
                            Some(id[d])
                        } else {
                            None
                        }
                    };
                    assert_eq!(
                        eval::eval_cond(lemma, &lookup),
                        Ok(true),
                        "{lemma} at {size:?} {id:?}"
                    );
                }
            }
        }
        assert_eq!(
            lemmas[0].to_string(),
            "(tid.z@1 * blockDim.y + tid.y@1) * blockDim.x + tid.x@1 < blockDim.x * blockDim.y * blockDim.z"
        );
    }

    #[test]
    fn hardware_limits_that_contradict_related_sizes_admit_no_launch() {
        let product = Cond::cmp(
            Rel::Le,
            Expr::bin(Op::Mul, Expr::var("blockDim.x"), Expr::var("blockDim.y")),
            Expr::Int(builtin::BLOCK_THREADS_MAX),
        );
        let square = prepare(
            &parse("assume blockDim.x == blockDim.y; array a { wr[tid.y * blockDim.x + tid.x] }")
                .unwrap(),
        );
        assert!(admits_a_launch(&square, std::slice::from_ref(&product)));
        // Related sizes stay open to the limits, fixed ones do not.
        let sizes = BTreeSet::from(["blockDim.x".to_string(), "blockDim.y".to_string()]);
        assert_eq!(analysis::open_sizes(&square, &sizes).len(), 2);
        let wide = prepare(
            &parse("assume blockDim.x == blockDim.y; assume blockDim.x == 64; array a { wr[tid.y * blockDim.x + tid.x] }")
                .unwrap(),
        );
        assert_eq!(analysis::open_sizes(&wide, &sizes).len(), 1);
        assert!(!admits_a_launch(&wide, &[product]));
    }

    /// The precondition search on `racy`, with time to spare.
    fn patient_search(k: &Kernel, racy: &Racy) -> Search {
        precondition(
            k,
            racy,
            &patient(),
            &NoCache,
            &mut Stats::default(),
            Deadline::after_ms(60_000),
        )
    }

    /// Two rows of a 64-thread block `n` cells apart: racy unless `n` keeps
    /// them apart.
    fn two_rows() -> Kernel {
        prepare(&kernel(
            "params n; assume blockDim.x == 64; array a { for j in 0..2 { wr[tid + j * n] } }",
        ))
    }

    #[test]
    fn a_precondition_proves_the_intervals_left_undecided_too() {
        let k = two_rows();
        let traces = analysis::traces(&k, &k.arrays[0], false).expect("traces");
        let racy: Vec<&Trace> = traces.iter().collect();
        let search = |undecided: &[&Trace]| {
            let racy = Racy {
                traces: &racy,
                pairs: &[],
                undecided,
                witnessed: &[],
            };
            patient_search(&k, &racy)
        };
        assert!(matches!(search(&[]), Search::Found(_)));
        // An interval the scan left undecided, where every thread writes
        // one cell whatever `n`: no condition on `n` proves the kernel.
        let shared = prepare(&kernel(
            "params n; assume blockDim.x == 64; array a { wr[n] }",
        ));
        let hard = analysis::traces(&shared, &shared.arrays[0], false).expect("traces");
        let hard: Vec<&Trace> = hard.iter().collect();
        assert!(!matches!(search(&hard), Search::Found(_)));
    }

    #[test]
    fn an_undecided_kernel_shows_the_precondition_that_proves_it() {
        // The scan's own queries undecided (a cache that answers so), the
        // queries under each candidate asked of the solver.
        struct Hard(HashSet<String>);
        impl TraceCache for Hard {
            fn get(&self, hash: &str) -> Option<Outcome> {
                self.0
                    .contains(hash)
                    .then(|| Outcome::Unknown("timeout".into()))
            }
            fn put(&self, _hash: &str, _outcome: &Outcome) {}
        }
        let k = two_rows();
        let opts = patient();
        let traces = analysis::traces(&k, &k.arrays[0], false).expect("traces");
        let mut hard = HashSet::new();
        for strict in [false, true] {
            let o = Options {
                strict,
                ..opts.clone()
            };
            hard.extend(traces.iter().map(|t| t.hash(&o.solver_key())));
        }
        let report = check_kernel_cached(&k, &opts, &Hard(hard));
        assert_eq!(report.verdict(), Verdict::Unknown, "{report:?}");
        let reason = report.arrays[0].reason.clone().unwrap_or_default();
        assert!(
            reason.contains("if callers ensure `__requires(n >= "),
            "{reason}"
        );
        // Where no condition proves it (every thread writes one cell), the
        // reason says only that the solver gave up.
        let shared = prepare(&kernel(
            "params n; assume blockDim.x == 64; array a { wr[n] }",
        ));
        let traces = analysis::traces(&shared, &shared.arrays[0], false).expect("traces");
        let mut hard = HashSet::new();
        for strict in [false, true] {
            let o = Options {
                strict,
                ..opts.clone()
            };
            hard.extend(traces.iter().map(|t| t.hash(&o.solver_key())));
        }
        let report = check_kernel_cached(&shared, &opts, &Hard(hard));
        assert_eq!(report.verdict(), Verdict::Unknown, "{report:?}");
        let reason = report.arrays[0].reason.clone().unwrap_or_default();
        assert!(!reason.contains("__requires"), "{reason}");
    }

    #[test]
    fn races_whose_precondition_search_is_cut_short_or_undecided_are_not_confirmed() {
        let k = two_rows();
        let traces = analysis::traces(&k, &k.arrays[0], false).expect("traces");
        let racy: Vec<&Trace> = traces.iter().collect();
        let racy = Racy {
            traces: &racy,
            pairs: &[],
            undecided: &[],
            witnessed: &[],
        };
        let opts = patient();
        let mut stats = Stats::default();
        let search =
            |deadline| precondition(&k, &racy, &opts, &NoCache, &mut Stats::default(), deadline);
        let passed = Deadline::after_ms(1);
        std::thread::sleep(Duration::from_millis(5));
        assert!(matches!(search(passed), Search::CutShort));
        // Every query undecided (a cache that answers so): no candidate is
        // refuted, so the race may still be one a precondition removes.
        struct Undecided;
        impl TraceCache for Undecided {
            fn get(&self, _hash: &str) -> Option<Outcome> {
                Some(Outcome::Unknown("timeout".into()))
            }
            fn put(&self, _hash: &str, _outcome: &Outcome) {}
        }
        let undecided = precondition(
            &k,
            &racy,
            &opts,
            &Undecided,
            &mut Stats::default(),
            Deadline::after_ms(60_000),
        );
        assert!(matches!(undecided, Search::Undecided));
        assert!(matches!(
            precondition(
                &k,
                &racy,
                &opts,
                &NoCache,
                &mut stats,
                Deadline::after_ms(60_000)
            ),
            Search::Found(_)
        ));
    }

    #[test]
    fn searches_that_came_to_nothing_are_not_repeated_for_other_instantiations() {
        // A cache tallying searches in memory, as a scan's does.
        struct Tallies(Mutex<HashMap<String, SearchTally>>);
        impl TraceCache for Tallies {
            fn get(&self, _hash: &str) -> Option<Outcome> {
                None
            }
            fn put(&self, _hash: &str, _outcome: &Outcome) {}
            fn search_tally(&self, key: &str) -> Option<SearchTally> {
                assert!(key.contains("\x1fk(n)\x1fa\x1f"), "{key}");
                self.0.lock().unwrap().get(key).copied()
            }
            fn tally_search(&self, key: &str, futile: Option<bool>) {
                self.0
                    .lock()
                    .unwrap()
                    .entry(key.to_string())
                    .or_default()
                    .count(futile);
            }
        }
        let src = "params n; array a { for j in 0..2 { wr[tid + j * n] } }";
        let instance = |name: &str| {
            let mut k = kernel(src);
            k.name = name.to_string();
            k
        };
        // Searched, and found: counted as ended.
        let cache = Tallies(Mutex::new(HashMap::new()));
        let first = check_kernel_cached(&instance("k<1>"), &patient(), &cache);
        let races = &first.arrays[0].races;
        assert!(races.iter().all(|r| r.precondition.is_some()), "{first:?}");
        // Instantiations race alike; a kernel that is none has no key.
        let a = &instance("k<1>").arrays[0];
        let traces_of = |src: &str| {
            let k = prepare(&kernel(src));
            analysis::traces(&k, &k.arrays[0], false).expect("traces")
        };
        let traces = traces_of(src);
        let racy: Vec<&Trace> = traces.iter().collect();
        let key = |name: &str| template_search_key(&instance(name), a, races, &racy);
        // Another tile size is alike; another term in the index is not.
        let at = |offset: &str| {
            traces_of(&format!(
                "params n; array a {{ for j in 0..2 {{ wr[tid + j * n + {offset}] }} }}"
            ))
        };
        let with = |t: &[Trace]| {
            let racy: Vec<&Trace> = t.iter().collect();
            template_search_key(&instance("k<2>"), a, races, &racy)
        };
        assert_eq!(with(&at("32")), with(&at("64")));
        assert_ne!(with(&at("32")), with(&at("n")));
        let shape = key("k<1>").expect("a key");
        assert_eq!(key("k<1>"), key("k<2, float>"));
        assert_eq!(key("k"), None);
        let tally = cache.search_tally(&shape).expect("counted");
        assert!(tally.settled && !tally.futile());
        // One search that ran out of time is no reason to stop searching;
        // several, with none that ended, are.
        let fresh = || {
            let cache = Tallies(Mutex::new(HashMap::new()));
            cache.tally_search(&shape, Some(false));
            cache
        };
        let once = fresh();
        let second = check_kernel_cached(&instance("k<2>"), &patient(), &once);
        assert!(second.arrays[0]
            .races
            .iter()
            .all(|r| r.precondition.is_some()));
        let often = fresh();
        for _ in 1..FUTILE_SEARCHES {
            often.tally_search(&shape, Some(false));
        }
        let third = check_kernel_cached(&instance("k<3>"), &patient(), &often);
        let a = &third.arrays[0];
        assert_eq!(a.verdict, Verdict::Racy);
        assert!(a.races.iter().all(|r| r.confidence == Confidence::Possible));
        assert!(a.races.iter().all(|r| r.precondition.is_none()));
        let reason = a.reason.as_deref().unwrap_or_default();
        assert!(reason.contains(PRECONDITION_CUT_SHORT), "{reason}");
        assert!(reason.contains(PRECONDITION_SHARED), "{reason}");
        // One that ended keeps the searches going.
        often.tally_search(&shape, None);
        let fourth = check_kernel_cached(&instance("k<4>"), &patient(), &often);
        assert!(fourth.arrays[0]
            .races
            .iter()
            .all(|r| r.precondition.is_some()));
    }

    #[test]
    fn a_block_narrower_than_any_witnessed_race_is_asked_for() {
        // A tile for 32 threads and a halo of 4: threads past the 32nd
        // write where the first four write the halo. The solver's witness
        // may need any block wider than 32; the suggestion is the width
        // the tile was written for all the same.
        suggests_from_witnesses(
            "array s { wr[tid.x + 4] if (tid.x < 4) { wr[tid.x + 36] } }",
            &[33, 40, 64, 200],
            "blockDim.x <= 32",
        );
    }

    /// Runs the precondition search on the races of `src` witnessed in
    /// blocks of each width, and expects `expected` from each.
    fn suggests_from_witnesses(src: &str, widths: &[i64], expected: &str) {
        let k = prepare(&kernel(src));
        let traces = analysis::traces(&k, &k.arrays[0], false).expect("traces");
        let racy: Vec<&Trace> = traces.iter().collect();
        for &wide in widths {
            let witnessed = [BTreeMap::from([("blockDim.x".to_string(), wide)])];
            let racy = Racy {
                traces: &racy,
                pairs: &[],
                undecided: &[],
                witnessed: &witnessed,
            };
            match patient_search(&k, &racy) {
                Search::Found(c) => assert_eq!(c.to_string(), expected, "{wide}"),
                _ => panic!("no precondition from a witness of {wide} threads"),
            }
        }
    }

    #[test]
    fn a_block_bound_from_a_constant_is_widened_to_the_narrowest_race() {
        // Lane 0 of each warp writes after 512 cells: `blockDim.x <= 32`
        // (the warp, from `tid.x % 32`) removes the race, and so does every
        // bound up to 512.
        suggests_from_witnesses(
            "array s { wr[tid.x] if (tid.x % 32 == 0) { wr[512 + tid.x / 32] } }",
            &[513, 545, 1000],
            "blockDim.x <= 512",
        );
    }

    #[test]
    fn several_launches_are_checked_one_at_a_time() {
        // A tile of 32 cells: safe at 16 or 32 threads, racy at 64.
        let safe =
            "params n; assume (blockDim.x == 16 && n == 4) || (blockDim.x == 32 && n == 8); \
                    array s { wr[tid % 32] } array t { rd[n] }";
        let k = kernel(safe);
        assert_eq!(launch_alternatives(&k).len(), 2);
        assert_eq!(
            check_kernel(&k, &Options::default()).verdict(),
            Verdict::Drf
        );
        let wide = safe.replace("blockDim.x == 32", "blockDim.x == 64");
        let report = check_kernel(&kernel(&wide), &Options::default());
        assert_eq!(report.verdict(), Verdict::Racy);
        let race = &report.arrays[0].races[0];
        assert_eq!(race.witness.globals.get("blockDim.x"), Some(&64));
        assert_eq!(race.witness.globals.get("n"), Some(&8));
        // A parameter's values are no launches.
        let k = kernel("params n; assume n == 1 || n == 2; array s { wr[tid % 32] }");
        assert!(launch_alternatives(&k).is_empty());
    }

    #[test]
    fn a_bound_within_the_row_length_is_suggested_not_one_that_stops_the_work() {
        // a[y * 2048 + x] for x < m: rows overlap only when m exceeds 2048.
        let k = parse(
            "params m; assume blockDim.x == 32 && blockDim.z == 1 && gridDim.y == 1 && gridDim.z == 1; \
             global array a { if (bid.x * 32 + tid.x < m) { wr[tid.y * 2048 + (bid.x * 32 + tid.x)] } }",
        )
        .unwrap();
        let report = check_kernel(&k, &Options::default());
        let race = &report.arrays[0].races[0];
        assert_eq!(race.confidence, Confidence::Possible);
        assert_eq!(race.precondition.as_deref(), Some("m <= 2048"));
        // `k >= blockDim.x * gridDim.x` would remove this race only by
        // making every thread skip the write: not a precondition.
        let k = kernel(
            "params k n; assume blockDim.x == 64; \
             array a { if (bid.x * 64 + tid.x > k) { wr[n] } }",
        );
        let report = check_kernel(&k, &Options::default());
        let race = &report.arrays[0].races[0];
        assert_eq!(race.precondition, None);
    }

    #[test]
    fn a_witness_through_an_undefined_shift_is_a_possible_race_not_an_error() {
        // The solver leaves `x >> u` for u < 0 unconstrained; the evaluator
        // cannot run it.
        let k = kernel("locals u; array a { if (u < 0) { wr[tid >> u] } }");
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.verdict(), Verdict::Racy);
        let race = &report.arrays[0].races[0];
        assert_eq!(race.confidence, Confidence::Possible);
    }

    #[test]
    fn equal_values_computed_with_bitwise_operators_are_not_called_benign() {
        // Both threads store n ^ m, but values that take bit vectors are
        // not compared (hash rounds make Z3 slow): a race, never benign.
        let k = kernel("params n m; array a { wr[0] = n ^ m }");
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.verdict(), Verdict::Racy);
        assert!(report.arrays[0].benign.is_empty());
        // With arithmetic the equality is still seen.
        let k = kernel("params n m; array a { wr[0] = n + m }");
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.verdict(), Verdict::Drf);
    }

    #[test]
    fn structures_with_equal_fields_are_benign() {
        // Every row of a block stores one structure: equal field by field.
        let kernel =
            |src: &str| parse(&format!("params k; {src} array rows {{ rd[tid.y] }}")).unwrap();
        let k = kernel("array s { wr[tid.x] = {k, 2 * k} }");
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.verdict(), Verdict::Drf);
        assert_eq!(report.arrays[0].benign.len(), 1);
        // Fields swapped between rows, or one field of the thread's own:
        // different structures, whatever their fields add up to.
        for v in ["{tid.y, 1 - tid.y}", "{k, tid.y}"] {
            let k = kernel(&format!("array s {{ wr[tid.x] = {v} }}"));
            let report = check_kernel(&k, &Options::default());
            assert_eq!(report.verdict(), Verdict::Racy, "{v}");
        }
    }

    #[test]
    fn stores_of_one_shared_value_are_equal_without_the_solver() {
        let equal = |src: &str, pair: [u32; 2]| {
            let k = parse(&format!("params n; array s {{ {src} }}")).unwrap();
            let traces = analysis::traces(&k, &k.arrays[0], true).unwrap();
            let race = RawRace {
                accesses: pair,
                index: vec![0],
                values: BTreeMap::new(),
            };
            stores_surely_equal(&traces[0], &race)
        };
        assert!(equal("wr[0] = 128", [0, 0]));
        assert!(equal("wr[0] = n + 1", [0, 0]));
        assert!(equal("wr[0] = in[n]", [0, 0]));
        assert!(equal("wr[tid.x & 31] = 0; wr[0] = 0", [0, 1]));
        // Values of the thread's own, or two different values, or a read.
        assert!(!equal("wr[0] = tid.x", [0, 0]));
        assert!(!equal("wr[0] = in[tid.x]", [0, 0]));
        assert!(!equal("wr[0] = 1; wr[0] = 2", [0, 1]));
        assert!(!equal("wr[0] = 1; rd[0]", [0, 1]));
    }

    #[test]
    fn copies_of_one_cell_of_a_read_only_array_are_benign() {
        // Every row of a two-dimensional block copies the same cell.
        let kernel = |src: &str| parse(&format!("{src} array rows {{ rd[tid.y] }}")).unwrap();
        let k = kernel("params k; array s { wr[tid.x] = in[k + tid.x] }");
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.verdict(), Verdict::Drf);
        assert_eq!(report.arrays[0].benign.len(), 1);
        // Rows copy different cells: the contents are any input, so the
        // race is real for inputs whose cells differ.
        let k = kernel("params k; array s { wr[tid.x] = in[k + tid.x + tid.y] }");
        let report = check_kernel(&k, &Options::default());
        assert_eq!(report.verdict(), Verdict::Racy);
        assert_eq!(report.arrays[0].races[0].confidence, Confidence::Confirmed);
        // Two arrays at one cell hold different inputs.
        let k = kernel("array s { if (tid.x == 0) { wr[0] = a[0] } else { wr[0] = b[0] } }");
        assert_eq!(
            check_kernel(&k, &Options::default()).verdict(),
            Verdict::Racy
        );
        // A cell against a number: different unless the input says so.
        let k = kernel("array s { if (tid.x == 0) { wr[0] = a[0] } else { wr[0] = 7 } }");
        assert_eq!(
            check_kernel(&k, &Options::default()).verdict(),
            Verdict::Racy
        );
        let strict = Options {
            strict: true,
            ..Options::default()
        };
        let k = kernel("params k; array s { wr[tid.x] = in[k + tid.x] }");
        assert_eq!(check_kernel(&k, &strict).verdict(), Verdict::Racy);
    }

    #[test]
    fn writes_whose_witness_stores_differ_need_no_lenient_query() {
        // Each thread stores its own id: the strict model already shows
        // two different values, so the race is real without asking again.
        let k = kernel("array a { wr[0] = tid }");
        let (report, stats) = check_array(
            &k,
            &k.arrays[0],
            &Options::default(),
            &NoCache,
            Deadline::never(),
        );
        assert_eq!(report.verdict, Verdict::Racy);
        assert!(report.benign.is_empty());
        let strict_only = stats.solver_calls;
        // Equal values still get the lenient query, and are benign.
        let k = kernel("params n; array a { wr[0] = n }");
        let (report, stats) = check_array(
            &k,
            &k.arrays[0],
            &Options::default(),
            &NoCache,
            Deadline::never(),
        );
        assert_eq!(report.verdict, Verdict::Drf);
        assert_eq!(report.benign.len(), 1);
        assert!(
            stats.solver_calls > strict_only,
            "{} vs {strict_only}",
            stats.solver_calls
        );
    }

    #[test]
    fn source_names() {
        let k = kernel("params N; locals x x#2; array a { wr[tid + x + x#2 + N] }");
        assert_eq!(source_name(&k, "tid.x@1"), ("tid.x", Some(0)));
        assert_eq!(source_name(&k, "j#3@2"), ("j", Some(1)));
        assert_eq!(source_name(&k, "r#2"), ("r", None));
        assert_eq!(source_name(&k, "N"), ("N", None));
        assert_eq!(source_name(&k, "x#2@1"), ("x#2", Some(0)));
        assert_eq!(witness_name(&k, "i#k@1", "i"), "iteration of i");
        assert_eq!(witness_name(&k, "i#k#2@2", "i"), "iteration of i");
        assert_eq!(witness_name(&k, "i#3@2", "i"), "i");
    }

    #[test]
    fn assumptions_no_launch_satisfies_leave_the_kernel_unknown() {
        let opts = Options::default();
        // Parameters are never negative: `n < 0` admits no launch, and a
        // race free answer would mean nothing.
        let vacuous = kernel("params n; assume n < 0; array a { wr[0] }");
        let report = check_kernel(&vacuous, &opts);
        assert_eq!(report.verdict(), Verdict::Unknown);
        assert_eq!(report.arrays[0].reason.as_deref(), Some(VACUOUS));
        let fine = kernel("params n; assume n > 0; array a { wr[0] }");
        assert_eq!(check_kernel(&fine, &opts).verdict(), Verdict::Racy);
    }

    #[test]
    fn cached_outcomes_are_renamed_to_the_asking_trace() {
        let cache = MapCache::default();
        // A precondition query the search's budget ends is not cached.
        let opts = patient();
        let first = kernel("params N; array a { for j in 0..N { rd[tid + j] } wr[tid] }");
        let (report, stats) = check_kernel_stats(&first, &opts, &cache);
        assert_eq!(report.verdict(), Verdict::Racy);
        assert_eq!(stats.cache_hits, 0);
        assert!(stats.solver_calls >= 1);

        // The same protocol under other names: answered by the cache, with
        // the witness in this kernel's names.
        let second = kernel("params M; array b { for k in 0..M { rd[tid + k] } wr[tid] }");
        let (again, stats) = check_kernel_stats(&second, &opts, &cache);
        // The intervals, and the preconditions tried on the racy ones.
        assert!(stats.cache_hits >= stats.traces);
        assert_eq!(stats.solver_calls, 0);
        let (r1, r2) = (&report.arrays[0].races[0], &again.arrays[0].races[0]);
        assert_eq!(r1.index, r2.index);
        assert_eq!(r1.witness.globals.get("N"), r2.witness.globals.get("M"));
        assert_eq!(
            r1.witness.threads[0].get("j"),
            r2.witness.threads[0].get("k")
        );
    }

    #[test]
    fn a_race_through_a_quotient_by_zero_is_only_possible() {
        let opts = Options::default();
        let confidences = |src: &str| {
            let report = check_kernel(&kernel(src), &opts);
            assert_eq!(report.verdict(), Verdict::Racy, "{src}");
            let races = &report.arrays[0].races;
            races.iter().map(|r| r.confidence).collect::<Vec<_>>()
        };
        // Only `N == 3` makes two threads meet (`tid / 0`); with `N == 4`
        // every thread has its own cell.
        let c = confidences("params N; array a { if N < 5 { if N > 2 { wr[tid / (N - 3)] } } }");
        assert!(c.iter().all(|c| *c == Confidence::Possible), "{c:?}");
        // A quotient in the branch not taken is not evaluated.
        let c = confidences(
            "params N; array a { if N < 2 { if N > -1 { wr[N == 3 ? 5 : tid / (N - 3)] } } }",
        );
        assert!(c.contains(&Confidence::Confirmed), "{c:?}");
    }

    #[test]
    fn confidence_follows_unknowns() {
        let opts = Options::default();
        // The race needs the unknown in the path: possible.
        let k = kernel("locals x; array a { if x > 0 { wr[0] } }");
        let report = check_kernel(&k, &opts);
        let races = &report.arrays[0].races;
        assert!(
            !races.is_empty() && races.iter().all(|r| r.confidence == Confidence::Possible),
            "{report:?}"
        );
        assert!(races[0].witness.threads.iter().all(|t| t["x"] > 0));

        // The kernel has an unknown, but the racing accesses do not use it.
        let k = kernel("locals x; array a { wr[0]; rd[x + tid * 8 + 100] }");
        let report = check_kernel(&k, &opts);
        for r in &report.arrays[0].races {
            let ids = [r.accesses[0].id, r.accesses[1].id];
            let expected = if ids == [0, 0] {
                Confidence::Confirmed
            } else {
                Confidence::Possible
            };
            assert_eq!(r.confidence, expected, "{r:?}");
        }
        assert!(report.arrays[0]
            .races
            .iter()
            .any(|r| r.confidence == Confidence::Confirmed));
    }

    #[test]
    fn witnesses_keep_only_the_racing_accesses_loops() {
        let k = kernel(
            "params N; array a { for i in 0..N { rd[tid * 4 + i] } for j in 0..N { wr[tid] } }",
        );
        let report = check_kernel(&k, &Options::default());
        let r = &report.arrays[0].races[0];
        let reader = if r.accesses[0].mode == Mode::Read {
            0
        } else {
            1
        };
        let t = &r.witness.threads;
        assert!(
            t[reader].contains_key("i") && !t[reader].contains_key("j"),
            "{r:?}"
        );
        assert!(
            t[1 - reader].contains_key("j") && !t[1 - reader].contains_key("i"),
            "{r:?}"
        );
        assert_eq!(
            t[reader]["tid.x"] * 4 + t[reader]["i"],
            t[1 - reader]["tid.x"]
        );
        assert_eq!(report.arrays[0].intervals, 1);
    }

    #[test]
    fn drf_and_divergent_reports() {
        let opts = Options::default();
        let report = check_kernel(
            &kernel("params N; array a { for i in 0..N { wr[tid]; sync; rd[tid + 1]; sync } }"),
            &opts,
        );
        let a = &report.arrays[0];
        assert_eq!(
            (a.verdict, a.races.len(), a.reason.as_deref()),
            (Verdict::Drf, 0, None)
        );
        // The interval of reads alone needs no query.
        assert!(
            a.intervals >= 2 && a.solver_calls >= 1 && a.solver_calls < a.intervals,
            "one query per DRF interval that writes: {a:?}"
        );

        let report = check_kernel(&kernel("array a { if tid == 0 { sync } }"), &opts);
        let a = &report.arrays[0];
        assert_eq!(a.verdict, Verdict::Divergent);
        assert_eq!(a.loc.map(|l| l.line), Some(2));
    }

    #[test]
    fn a_guard_the_solver_ran_out_of_time_on_leaves_the_kernel_unknown() {
        // `n` a multiple of the block would make the threads agree; whether
        // it is, the solver did not say in time.
        let mut k = kernel("params n; array a { if tid < n { sync } }");
        let guard = match wf::well_formed(&k, &k.arrays[0]) {
            Err(d) => d.guard.expect("a guard"),
            Ok(_) => panic!("divergent as written"),
        };
        k.undecided_guards.push(guard);
        let report = check_kernel(&k, &Options::default());
        let a = &report.arrays[0];
        assert_eq!(a.verdict, Verdict::Unknown, "{a:?}");
        assert!(
            a.reason.as_deref().is_some_and(|r| r.contains("timeout")),
            "{a:?}"
        );
    }

    /// A cache that claims a race no execution has.
    struct LyingCache;

    impl TraceCache for LyingCache {
        fn get(&self, _hash: &str) -> Option<Outcome> {
            let values = (0..20).map(|i| (format!("v{i}"), 1)).collect();
            Some(Outcome::Racy(vec![RawRace {
                accesses: [0, 0],
                index: vec![7],
                values,
            }]))
        }
        fn put(&self, _hash: &str, _outcome: &Outcome) {}
    }

    #[test]
    fn witnesses_that_do_not_replay_are_internal_errors() {
        let report = check_kernel_cached(
            &kernel("array a { wr[tid] }"),
            &Options::default(),
            &LyingCache,
        );
        let a = &report.arrays[0];
        assert_eq!(a.verdict, Verdict::Error, "{a:?}");
        assert!(a.races.is_empty());
        let reason = a.reason.as_deref().unwrap_or_default();
        assert!(
            reason.contains("access #0 at 2:11") && reason.contains("does not replay"),
            "{reason}"
        );
    }

    #[test]
    fn races_only_a_block_larger_than_a_gpu_runs_are_none() {
        // Warp slots after a buffer of one cell per thread: a block of more
        // than 1024 threads reaches them, and no GPU runs one.
        let slots = |at: i64| {
            format!("array s {{ wr[tid.x] if (tid.x % 32 == 0) {{ wr[{at} + tid.x / 32] }} }}")
        };
        let report = check_kernel(&kernel(&slots(1024)), &Options::default());
        assert_eq!(report.verdict(), Verdict::Drf, "{report:?}");
        // After 512 cells, blocks a GPU runs reach them: the race is shown
        // in one of those.
        let report = check_kernel(&kernel(&slots(512)), &Options::default());
        let a = &report.arrays[0];
        assert_eq!(a.verdict, Verdict::Racy);
        let width = a.races[0].witness.globals["blockDim.x"];
        assert!((513..=1024).contains(&width), "{width}");
        // A block the kernel's assumptions ask for stays, whatever its size.
        let wide = format!("assume blockDim.x == 2048;\n{}", slots(1024));
        let report = check_kernel(&kernel(&wide), &Options::default());
        assert_eq!(report.verdict(), Verdict::Racy, "{report:?}");
    }

    #[test]
    fn a_block_of_more_threads_than_a_gpu_runs_exceeds_its_limits() {
        let src = "array s { wr[tid.y * blockDim.x + tid.x] }";
        let open = parse(src).unwrap();
        let k = prepare(&open);
        let traces = analysis::traces(&k, &k.arrays[0], false).expect("traces");
        let values = |x: i64, y: i64| {
            BTreeMap::from([
                ("blockDim.x".to_string(), x),
                ("blockDim.y".to_string(), y),
                ("blockDim.z".to_string(), 1),
            ])
        };
        let exceeded = |k: &Kernel, x, y| -> Vec<String> {
            limits_exceeded(k, &traces[0], &values(x, y))
                .iter()
                .map(|c| c.to_string())
                .collect()
        };
        assert!(exceeded(&k, 32, 32).is_empty());
        let wide = exceeded(&k, 2000, 1);
        assert_eq!(wide[0], "blockDim.x <= 1024", "{wide:?}");
        let threads = exceeded(&k, 64, 17);
        assert_eq!(threads.len(), 1, "{threads:?}");
        assert!(threads[0].ends_with("<= 1024"), "{threads:?}");
        assert!(
            threads[0].contains("blockDim.x * blockDim.y"),
            "{threads:?}"
        );
        // Sizes the kernel assumes to be more than a GPU runs are its own.
        let asked = prepare(&parse(&format!("assume blockDim.y == 2048;\n{src}")).unwrap());
        assert!(exceeded(&asked, 64, 2048).is_empty());
    }

    #[test]
    fn global_arrays_pair_threads_of_other_blocks() {
        let src = "global array g { wr[tid]; sync; rd[tid] }";
        let report = check_kernel(&kernel(src), &Options::default());
        let a = &report.arrays[0];
        assert_eq!(a.verdict, Verdict::Racy);
        let r = &a.races[0];
        assert_ne!(r.witness.threads[0]["bid.x"], r.witness.threads[1]["bid.x"]);
        assert_eq!(r.witness.threads[0]["tid.x"], r.witness.threads[1]["tid.x"]);
        let block_level = check_kernel(
            &kernel(src),
            &Options {
                block_level: true,
                ..Options::default()
            },
        );
        assert_eq!(block_level.verdict(), Verdict::Drf);
    }
}
