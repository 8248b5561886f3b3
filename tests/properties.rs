//! The symbolic pipeline against the concrete evaluator on random
//! well-formed protocols with small bounds: the verdict must equal the
//! evaluator's over every instantiation (Theorem 1), and every reported race
//! must replay (the check replays them; a bad witness makes the verdict
//! `error`).

use drfscan::check::{check_kernel, Options, Verdict};
use drfscan::protocol::eval::{is_drf, Instance};
use drfscan::protocol::{
    builtin, Access, ArrayProtocol, Cond, Expr, Kernel, Loc, Mode, Op, Rel, Scope, Stmt,
};
use proptest::prelude::*;
use std::collections::BTreeMap;

const N_MAX: i64 = 3;
const X_VALUES: std::ops::Range<i64> = 0..3;

/// A deterministic generator of protocols from a seed (SplitMix64).
struct Gen {
    state: u64,
    next_id: u32,
    next_var: u32,
    has_n: bool,
    has_x: bool,
    arity: usize,
    /// Global memory over two blocks: indexes may use the block id and
    /// barriers may be grid barriers.
    grid: bool,
}

/// Variables in scope: name and whether it is thread-global (a
/// synchronized-loop variable).
type InScope = Vec<(String, bool)>;

impl Gen {
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn coin(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// An atom usable in thread-global positions (`global`) or anywhere.
    fn atom(&mut self, scope: &InScope, global: bool) -> Expr {
        let mut atoms: Vec<Expr> = vec![Expr::Int(self.below(4) as i64)];
        if self.has_n {
            atoms.push(Expr::var("N"));
        }
        for (v, g) in scope {
            if *g || !global {
                atoms.push(Expr::var(v));
            }
        }
        if !global {
            atoms.push(Expr::var("tid.x"));
            atoms.push(Expr::var("tid.x"));
            if self.has_x {
                atoms.push(Expr::var("x"));
            }
            if self.grid {
                atoms.push(Expr::var("bid.x"));
            }
        }
        let i = self.below(atoms.len() as u64) as usize;
        atoms.swap_remove(i)
    }

    fn expr(&mut self, scope: &InScope, global: bool, depth: u32) -> Expr {
        if depth == 0 || self.coin(40) {
            return self.atom(scope, global);
        }
        let ops = [
            Op::Add,
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Div,
            Op::Mod,
            Op::Min,
            Op::Max,
            Op::BitAnd,
            Op::BitXor,
            Op::Shr,
            Op::Shl,
        ];
        let op = ops[self.below(ops.len() as u64) as usize];
        let a = self.expr(scope, global, depth - 1);
        let b = match op {
            // Shift by small constants only: larger shifts have no agreed
            // meaning.
            Op::Shr | Op::Shl => Expr::Int(self.below(3) as i64),
            // Bitwise operations of two non-constants go through bit-vectors,
            // exact but too slow for a property test.
            Op::BitAnd | Op::BitXor => Expr::Int(self.below(8) as i64),
            _ => self.expr(scope, global, depth - 1),
        };
        Expr::bin(op, a, b)
    }

    fn cond(&mut self, scope: &InScope, global: bool) -> Cond {
        let rels = [Rel::Eq, Rel::Ne, Rel::Lt, Rel::Le, Rel::Gt, Rel::Ge];
        let rel = rels[self.below(6) as usize];
        let c = Cond::cmp(
            rel,
            self.expr(scope, global, 1),
            self.expr(scope, global, 1),
        );
        match self.below(6) {
            0 => Cond::not(c),
            1 => Cond::and(
                c,
                Cond::cmp(rel, self.atom(scope, global), self.atom(scope, global)),
            ),
            _ => c,
        }
    }

    fn access(&mut self, scope: &InScope) -> Stmt {
        let mode = match self.below(8) {
            0..=2 => Mode::Write,
            3..=6 => Mode::Read,
            _ => Mode::Atomic,
        };
        let mut index: Vec<Expr> = (0..self.arity)
            .map(|_| self.expr(scope, false, 2))
            .collect();
        if self.coin(40) {
            // Thread-strided cells, mostly race-free: `tid * c + e`.
            let stride = Expr::bin(
                Op::Mul,
                Expr::var("tid.x"),
                Expr::Int(1 + self.below(4) as i64),
            );
            index[0] = Expr::add(stride, self.atom(scope, false));
        }
        let id = self.next_id;
        self.next_id += 1;
        Stmt::Access(Access {
            id,
            mode,
            index,
            loc: Loc::new(id + 1, 1),
            value: None,
            lock: None,
        })
    }

    /// A statement; barriers only where `sync_ok` (not under unsynchronized
    /// constructs).
    fn stmt(&mut self, scope: &mut InScope, sync_ok: bool, depth: u32) -> Stmt {
        let pick = if depth == 0 {
            self.below(3)
        } else {
            self.below(8)
        };
        match pick {
            0 | 1 => self.access(scope),
            2 if sync_ok && self.grid && self.coin(50) => Stmt::GridSync(Loc::new(904, 1)),
            2 if sync_ok => Stmt::Sync(Loc::new(900, 1)),
            2 => self.access(scope),
            3 | 4 => {
                let n = 2 + self.below(2);
                Stmt::Seq(
                    (0..n)
                        .map(|_| self.stmt(scope, sync_ok, depth - 1))
                        .collect(),
                )
            }
            5 => {
                let synced = sync_ok && self.coin(50);
                let cond = self.cond(scope, synced);
                let then = self.body(scope, synced, depth);
                let els = if self.coin(40) {
                    self.body(scope, synced, depth)
                } else {
                    Stmt::Skip
                };
                Stmt::If {
                    cond,
                    then: Box::new(then),
                    els: Box::new(els),
                    loc: Loc::new(901, 1),
                }
            }
            _ => {
                let synced = sync_ok && self.coin(60);
                let lo = Expr::Int(self.below(2) as i64);
                let hi = match self.below(4) {
                    0 if self.has_n => Expr::var("N"),
                    1 if self.has_n => Expr::add(Expr::var("N"), Expr::Int(1)),
                    2 if !scope.is_empty() => {
                        // Triangular: bounded by an enclosing loop variable
                        // of the same kind, when there is one.
                        let usable: Vec<&(String, bool)> =
                            scope.iter().filter(|(_, g)| *g || !synced).collect();
                        match usable.last() {
                            Some((v, _)) => Expr::add(Expr::var(v), Expr::Int(1)),
                            None => Expr::Int(2),
                        }
                    }
                    _ => Expr::Int(1 + self.below(3) as i64),
                };
                let var = format!("i{}", self.next_var);
                self.next_var += 1;
                scope.push((var.clone(), synced));
                let body = self.body(scope, synced, depth);
                scope.pop();
                Stmt::For {
                    var,
                    lo,
                    hi,
                    body: Box::new(body),
                    loc: Loc::new(902, 1),
                }
            }
        }
    }

    /// The body of a conditional or loop: with a barrier iff `synced`.
    fn body(&mut self, scope: &mut InScope, synced: bool, depth: u32) -> Stmt {
        let s = self.stmt(scope, synced, depth - 1);
        if synced && !s.has_sync() {
            Stmt::Seq(vec![s, Stmt::Sync(Loc::new(903, 1))])
        } else {
            s
        }
    }
}

struct Case {
    kernel: Kernel,
    threads: i64,
    blocks: i64,
}

fn generate(seed: u64) -> Case {
    let mut g = Gen {
        state: seed,
        next_id: 0,
        next_var: 0,
        has_n: false,
        has_x: false,
        arity: 1,
        grid: false,
    };
    g.has_n = g.coin(60);
    g.has_x = g.coin(30);
    g.arity = if g.coin(15) { 2 } else { 1 };
    let global = g.coin(25);
    let blocks = if global && g.coin(50) { 2 } else { 1 };
    g.grid = blocks == 2;
    // Every local valuation of every thread is tried: keep that small.
    let max_threads = if g.has_x { 4 / blocks } else { 4 };
    let threads = 2 + g.below(max_threads as u64 - 1) as i64;

    let body = Stmt::Seq(
        (0..2 + g.below(3))
            .map(|_| g.stmt(&mut Vec::new(), true, 3))
            .collect(),
    );
    let dim = |name: &str, v: i64| Cond::cmp(Rel::Eq, Expr::var(name), Expr::Int(v));
    let mut assumes = vec![
        dim("blockDim.x", threads),
        dim("blockDim.y", 1),
        dim("blockDim.z", 1),
        dim("gridDim.x", blocks),
        dim("gridDim.y", 1),
        dim("gridDim.z", 1),
    ];
    let mut params = Vec::new();
    if g.has_n {
        params.push("N".to_string());
        assumes.push(Cond::cmp(Rel::Le, Expr::var("N"), Expr::Int(N_MAX)));
    }
    let mut locals = Vec::new();
    if g.has_x {
        locals.push("x".to_string());
        assumes.push(Cond::and(
            Cond::cmp(Rel::Ge, Expr::var("x"), Expr::Int(X_VALUES.start)),
            Cond::cmp(Rel::Lt, Expr::var("x"), Expr::Int(X_VALUES.end)),
        ));
    }
    let array = ArrayProtocol {
        name: "a".into(),
        scope: if global { Scope::Global } else { Scope::Shared },
        body,
        loc: Loc::new(1, 1),
    };
    let kernel = Kernel {
        name: format!("k{seed:x}"),
        params,
        locals,
        assumes,
        arrays: vec![array],
        approximations: vec![],
        unknown_params: vec![],
        open_template_params: vec![],
        word_ranges: vec![],
        block_uniform: vec![],
        control_uniform: vec![],
        warp_sync: None,
        tickets: vec![],
        uniform_reads: vec![],
        carried: vec![],
        uniform_guards: vec![],
        undecided_guards: vec![],
        variants: Vec::new(),
        unnamed_axes: Vec::new(),
        ticket_reads: Vec::new(),
    };
    Case {
        kernel,
        threads,
        blocks,
    }
}

/// Whether any instantiation within the bounds races, by running all of them.
fn concretely_racy(case: &Case) -> bool {
    match concretely(case) {
        Ok(racy) => racy,
        Err(e) => panic!("{e}"),
    }
}

/// Whether any instantiation within the bounds races, by running all of
/// them; the evaluator's error (barrier divergence, say) if one fails.
fn concretely(case: &Case) -> Result<bool, drfscan::protocol::eval::EvalError> {
    let mut racy = false;
    let mut failed = None;
    let kernel = &case.kernel;
    let array = &kernel.arrays[0];
    let ns: Vec<i64> = if kernel.params.is_empty() {
        vec![0]
    } else {
        (0..=N_MAX).collect()
    };
    let total = (case.threads * case.blocks) as usize;
    let local_sets: Vec<Vec<i64>> = if kernel.locals.is_empty() {
        vec![vec![0; total]]
    } else {
        let k = X_VALUES.end as usize;
        (0..k.pow(total as u32))
            .map(|mut code| {
                (0..total)
                    .map(|_| {
                        let v = (code % k) as i64;
                        code /= k;
                        v
                    })
                    .collect()
            })
            .collect()
    };
    for &n in &ns {
        for xs in &local_sets {
            let mut globals = BTreeMap::new();
            globals.insert("blockDim.x".to_string(), case.threads);
            globals.insert("gridDim.x".to_string(), case.blocks);
            if !kernel.params.is_empty() {
                globals.insert("N".to_string(), n);
            }
            let mut threads = Vec::new();
            for b in 0..case.blocks {
                for t in 0..case.threads {
                    let mut m = BTreeMap::new();
                    for (name, v) in builtin::BID
                        .iter()
                        .zip([b, 0, 0])
                        .chain(builtin::TID.iter().zip([t, 0, 0]))
                    {
                        m.insert(name.to_string(), v);
                    }
                    if !kernel.locals.is_empty() {
                        m.insert("x".to_string(), xs[threads.len()]);
                    }
                    threads.push(m);
                }
            }
            let inst = Instance { globals, threads };
            match is_drf(kernel, array, &inst, 1_000_000) {
                Ok(drf) => racy |= !drf,
                // Divergence in any instance is the verdict.
                Err(e @ drfscan::protocol::eval::EvalError::Divergence { .. }) => return Err(e),
                Err(e) => failed = failed.or(Some(e)),
            }
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(racy),
    }
}

/// A condition over the thread id, from a short list: some every thread
/// of a block agrees on for any sizes (`tid.x < blockDim.x`), some only for
/// some values of `N`, some never.
fn thread_condition(g: &mut Gen) -> Cond {
    let tid = || Expr::var("tid.x");
    let bdim = || Expr::var("blockDim.x");
    let n = || Expr::var("N");
    let gid = || Expr::add(Expr::bin(Op::Mul, Expr::var("bid.x"), bdim()), tid());
    let c = |rel, a, b| Cond::cmp(rel, a, b);
    let choices = [
        c(Rel::Lt, tid(), bdim()),
        c(Rel::Ge, tid(), bdim()),
        c(Rel::Eq, Expr::bin(Op::Div, tid(), bdim()), Expr::Int(0)),
        c(Rel::Lt, tid(), n()),
        c(
            Rel::Eq,
            Expr::bin(Op::Mod, tid(), Expr::Int(2)),
            Expr::Int(0),
        ),
        c(Rel::Lt, gid(), Expr::bin(Op::Mul, n(), bdim())),
        c(Rel::Lt, gid(), n()),
        c(
            Rel::Lt,
            Expr::bin(Op::Mul, tid(), n()),
            Expr::bin(Op::Mul, bdim(), n()),
        ),
        c(
            Rel::Eq,
            Expr::bin(Op::Div, gid(), bdim()),
            Expr::var("bid.x"),
        ),
        c(Rel::Lt, Expr::add(tid(), n()), Expr::Int(2)),
    ];
    let i = g.below(choices.len() as u64) as usize;
    choices[i].clone()
}

/// A loop bound over the thread id, as [`thread_condition`]: block-stride
/// loops to `N` (some blocks disagree) and to `N` rounded up to whole
/// blocks (none do), among others.
fn thread_bound(g: &mut Gen) -> Expr {
    let tid = || Expr::var("tid.x");
    let bdim = || Expr::var("blockDim.x");
    let n = || Expr::var("N");
    let div = |a, b| Expr::bin(Op::Div, a, b);
    let trips = |end: Expr| {
        div(
            Expr::add(Expr::sub(end, tid()), Expr::sub(bdim(), Expr::Int(1))),
            bdim(),
        )
    };
    let rounded = Expr::bin(
        Op::Mul,
        div(Expr::add(n(), Expr::sub(bdim(), Expr::Int(1))), bdim()),
        bdim(),
    );
    let choices = [
        trips(n()),
        trips(rounded),
        trips(Expr::bin(Op::Mul, n(), bdim())),
        Expr::add(div(tid(), bdim()), n()),
        Expr::bin(Op::Mod, tid(), Expr::Int(2)),
        Expr::bin(Op::Min, Expr::add(tid(), Expr::Int(2)), n()),
    ];
    let i = g.below(choices.len() as u64) as usize;
    choices[i].clone()
}

proptest! {
    // A fixed seed: the same protocols on every run, so that a failure is
    // reproducible from the test name alone.
    #![proptest_config(ProptestConfig {
        cases: 96,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_d1f5),
        ..ProptestConfig::default()
    })]

    #[test]
    fn symbolic_verdict_equals_the_evaluators(seed in any::<u64>()) {
        let case = generate(seed);
        let report = check_kernel(&case.kernel, &Options::default());
        let verdict = report.verdict();
        prop_assert!(matches!(verdict, Verdict::Drf | Verdict::Racy), "{report:#?}\n{:#?}", case.kernel);
        let expected = if concretely_racy(&case) { Verdict::Racy } else { Verdict::Drf };
        prop_assert_eq!(verdict, expected, "{:#?}\n{:#?}", report, case.kernel);
    }

    /// Wrapping code and a barrier in a condition over the thread id: the
    /// verdict is divergence exactly when some instance diverges, and
    /// otherwise still the evaluator's.
    #[test]
    fn thread_conditions_around_barriers_diverge_as_the_evaluator_says(seed in any::<u64>()) {
        let mut case = generate(seed);
        if !case.kernel.params.iter().any(|p| p == "N") {
            case.kernel.params.push("N".into());
            case.kernel.assumes.push(Cond::cmp(Rel::Le, Expr::var("N"), Expr::Int(N_MAX)));
        }
        let mut g = Gen {
            state: seed ^ 0x7a11,
            next_id: 0,
            next_var: 0,
            has_n: true,
            has_x: false,
            arity: 1,
            grid: false,
        };
        let array = &mut case.kernel.arrays[0];
        let body = std::mem::replace(&mut array.body, Stmt::Skip);
        let synced = Box::new(Stmt::Seq(vec![body, Stmt::Sync(Loc::new(77, 3))]));
        let (guard, wrapped) = if g.coin(50) {
            let cond = thread_condition(&mut g);
            (cond.to_string(), Stmt::If {
                cond,
                then: synced,
                els: Box::new(Stmt::Skip),
                loc: Loc::new(76, 1),
            })
        } else {
            let hi = thread_bound(&mut g);
            (format!("d < {hi}"), Stmt::For {
                var: "d".into(),
                lo: Expr::Int(0),
                hi,
                body: synced,
                loc: Loc::new(76, 1),
            })
        };
        array.body = wrapped;
        let report = check_kernel(&case.kernel, &Options::default());
        let expected = match concretely(&case) {
            Ok(true) => Verdict::Racy,
            Ok(false) => Verdict::Drf,
            Err(drfscan::protocol::eval::EvalError::Divergence { .. }) => Verdict::Divergent,
            Err(e) => panic!("the evaluator failed: {e}"),
        };
        prop_assert_eq!(report.verdict(), expected, "{}\n{:#?}\n{:#?}", guard, report, case.kernel);
    }

    /// Wrapping code with a barrier in a loop bounded by the thread id is
    /// barrier divergence, whatever the code.
    #[test]
    fn thread_dependent_synchronized_loop_is_divergent(seed in any::<u64>()) {
        let mut case = generate(seed);
        let array = &mut case.kernel.arrays[0];
        let body = std::mem::replace(&mut array.body, Stmt::Skip);
        array.body = Stmt::For {
            var: "d".into(),
            lo: Expr::Int(0),
            hi: Expr::add(Expr::var("tid.x"), Expr::Int(1)),
            body: Box::new(Stmt::Seq(vec![body, Stmt::Sync(Loc::new(77, 3))])),
            loc: Loc::new(76, 1),
        };
        let report = check_kernel(&case.kernel, &Options::default());
        prop_assert_eq!(report.verdict(), Verdict::Divergent, "{:#?}", report);
        prop_assert!(report.arrays[0].loc.is_some());
    }
}

/// Random index arithmetic over a flat index `x`, a signed `t` and sizes
/// `M`, `N` (never negative, as parameters in a trace): sums, products,
/// quotients and remainders, and the decompositions real kernels write.
fn index_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        Just(Expr::var("x")),
        Just(Expr::var("t")),
        Just(Expr::var("M")),
        Just(Expr::var("N")),
        (-3i64..5).prop_map(Expr::Int),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        let op = prop_oneof![
            Just(Op::Add),
            Just(Op::Sub),
            Just(Op::Mul),
            Just(Op::Div),
            Just(Op::Mod)
        ];
        prop_oneof![
            (op, inner.clone(), inner.clone()).prop_map(|(op, a, b)| Expr::bin(op, a, b)),
            // `d * (e / d) + e % d` and `e - e % d`, by a size or a product.
            (inner.clone(), prop_oneof![Just("M"), Just("N")]).prop_map(|(e, d)| {
                let d = Expr::var(d);
                Expr::add(
                    Expr::bin(Op::Mul, d.clone(), Expr::bin(Op::Div, e.clone(), d.clone())),
                    Expr::bin(Op::Mod, e, d),
                )
            }),
            inner.clone().prop_map(|e| {
                let d = Expr::bin(Op::Mul, Expr::var("N"), Expr::var("M"));
                Expr::sub(e.clone(), Expr::bin(Op::Mod, e, d))
            }),
            // A digit, `(e % (M * N)) / M`.
            inner.clone().prop_map(|e| {
                let whole = Expr::bin(Op::Mul, Expr::var("M"), Expr::var("N"));
                Expr::bin(Op::Div, Expr::bin(Op::Mod, e, whole), Expr::var("M"))
            }),
            // `(d * e) / d`, which is `e` only where `e` is 0 when `d` is.
            (inner.clone(), any::<bool>()).prop_map(|(e, both)| {
                let d = if both {
                    Expr::bin(Op::Mul, Expr::var("M"), Expr::var("N"))
                } else {
                    Expr::var("M")
                };
                Expr::bin(Op::Div, Expr::bin(Op::Mul, d.clone(), e), d)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x9ec0_3b05),
        ..ProptestConfig::default()
    })]

    /// Putting quotients and remainders back together never changes an
    /// index's value.
    #[test]
    fn recomposed_indexes_keep_their_values(e in index_expr()) {
        use drfscan::analysis::recompose;
        use drfscan::protocol::eval::eval_expr;
        let sizes = |v: &str| v == "M" || v == "N";
        let r = recompose::index(&e, &sizes);
        for x in -4i64..9 {
            for t in [-3i64, 0, 2] {
                for m in 0i64..4 {
                    for n in 0i64..4 {
                        let env = |v: &str| match v {
                            "x" => Some(x),
                            "t" => Some(t),
                            "M" => Some(m),
                            "N" => Some(n),
                            _ => None,
                        };
                        prop_assert_eq!(
                            eval_expr(&e, &env).ok(),
                            eval_expr(&r, &env).ok(),
                            "{} became {} at x={} t={} M={} N={}", e, r, x, t, m, n
                        );
                    }
                }
            }
        }
    }
}

/// Splitting a trace at each size it divides by (`by_shared_divisors`)
/// keeps its verdict: the parts together race exactly when the trace does.
/// The generator's `N` divides often enough that many traces split.
#[test]
fn traces_split_at_zero_divisors_keep_their_verdicts() {
    use drfscan::analysis::{by_shared_divisors, traces};
    use drfscan::smt::{solve, Outcome};
    let opts = Options::default();
    let racy = |t: &drfscan::analysis::Trace| match solve(t, &opts).outcome {
        Outcome::Drf => Some(false),
        Outcome::Racy(_) => Some(true),
        Outcome::Unknown(_) => None,
    };
    let mut split = 0;
    for seed in 0..250u64 {
        let case = generate(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        for array in &case.kernel.arrays {
            let Ok(ts) = traces(&case.kernel, array, false) else {
                continue;
            };
            for t in ts {
                let parts = by_shared_divisors(t.clone());
                if parts.len() < 2 {
                    continue;
                }
                split += 1;
                let whole = racy(&t);
                let each: Option<Vec<bool>> = parts.iter().map(racy).collect();
                let together = each.map(|e| e.into_iter().any(|r| r));
                if let (Some(whole), Some(together)) = (whole, together) {
                    assert_eq!(whole, together, "seed {seed}: {t:#?}\nparts: {parts:#?}");
                }
            }
        }
    }
    assert!(split >= 40, "only {split} traces divide by a size");
}

/// Folding a thread's accesses that differ only in constants into loops
/// (`folded_from`) adds accesses and removes none: a folded trace the
/// solver proves race free belongs to a trace that is race free.
#[test]
fn folded_traces_prove_only_race_free_traces() {
    use drfscan::analysis::{folded_from, traces};
    use drfscan::smt::{solve, Outcome};
    let opts = Options::default();
    let (mut folded, mut proved) = (0, 0);
    for seed in 0..1200u64 {
        let case = generate(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        for array in &case.kernel.arrays {
            let Ok(ts) = traces(&case.kernel, array, false) else {
                continue;
            };
            for t in ts {
                let Some(f) = folded_from(&t, 2) else {
                    continue;
                };
                folded += 1;
                if !matches!(solve(&f, &opts).outcome, Outcome::Drf) {
                    continue;
                }
                proved += 1;
                let whole = solve(&t, &opts).outcome;
                assert!(
                    !matches!(whole, Outcome::Racy(_)),
                    "seed {seed}: the folded trace is race free, the trace races\n{t:#?}\nfolded: {f:#?}"
                );
            }
        }
    }
    assert!(
        folded >= 40 && proved >= 10,
        "only {folded} traces fold, {proved} proved"
    );
}
