//! Barrier divergence beyond the syntax: a synchronized construct whose
//! condition or range mentions the thread id still has every thread of a
//! block agree when the solver shows they do (`if (idx < n)` with `n` a
//! multiple of the block), and a divergence that remains is shown with two
//! threads that disagree and, when one exists, the `__requires` under
//! which they never do.

use crate::analysis;
use crate::options::Deadline;
use crate::protocol::wf::{self, Guard};
use crate::protocol::{builtin, Cond, Expr, Kernel, Op, Rel};
use crate::smt;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Work limit of the proof that a block agrees on one guard, in Z3's
/// resource units: the proofs it finds take about 100 000, and the
/// verdict must not depend on the machine's load. The time limit is a
/// backstop.
const UNIFORM_RLIMIT: u32 = 2_000_000;
const UNIFORM_MS: u64 = 2_000;

/// At most this many guards of one kernel are asked about.
const MAX_GUARDS: usize = 16;

/// Work limit of each question of a divergence's report (its witness, and
/// each candidate precondition), so that what the report says does not
/// depend on the machine's load; the time limits are backstops.
const QUESTION_RLIMIT: u32 = 500_000;
const QUESTION_MS: u64 = 1_000;

/// Time limit of all the questions of one divergence's report.
const EXPLAIN_MS: u64 = 3_000;

/// At most this many candidate preconditions are asked.
const MAX_CANDIDATES: usize = 24;

/// At most this many answers are remembered per thread.
const MEMO_SIZE: usize = 256;

thread_local! {
    /// Answers by question: every array of a kernel, and every variant
    /// and launch of it that assumes the same, asks the same ones.
    static PROVED: RefCell<HashMap<Vec<Cond>, Option<bool>>> = RefCell::new(HashMap::new());
    static EXPLAINED: RefCell<HashMap<(Vec<Cond>, Vec<String>), String>> =
        RefCell::new(HashMap::new());
}

/// `key`'s answer in `memo`, or `answer()`'s, remembered.
fn remembered<K: std::hash::Hash + Eq, V: Clone>(
    memo: &'static std::thread::LocalKey<RefCell<HashMap<K, V>>>,
    key: K,
    answer: impl FnOnce() -> V,
) -> V {
    if let Some(v) = memo.with(|m| m.borrow().get(&key).cloned()) {
        return v;
    }
    let v = answer();
    memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_SIZE {
            m.clear();
        }
        m.insert(key, v.clone());
    });
    v
}

/// `kernel` with the guards of its arrays' synchronized constructs that
/// the solver shows every thread of a block agrees on (`uniform_guards`),
/// as `view` sees it: `view` adds the reads its blocks agree on, which
/// guards may mention, and is asked again after each guard shown, since
/// the reads' intervals follow from the barriers that do not diverge.
pub(super) fn uniform_guards(kernel: &Kernel, view: &dyn Fn(&Kernel) -> Kernel) -> Kernel {
    let mut kernel = kernel.clone();
    let mut seen = view(&kernel);
    let mut asked: Vec<Guard> = Vec::new();
    while asked.len() < MAX_GUARDS {
        let next = seen
            .arrays
            .iter()
            .find_map(|a| match wf::well_formed(&seen, a) {
                Err(d) => d.guard.filter(|g| !asked.contains(g)),
                Ok(_) => None,
            });
        let Some(guard) = next else {
            break;
        };
        asked.push(guard.clone());
        if mentions_own_unknowns(&seen, &guard) {
            continue;
        }
        let question = analysis::disagreement(&seen, &guard);
        let agreed = remembered(&PROVED, question.clone(), || {
            match never(&question, UNIFORM_MS) {
                Some(true) => Some(true),
                first => match never(&within_limits(&seen, &question), UNIFORM_MS) {
                    Some(true) => Some(true),
                    None if first.is_none() => None,
                    _ => Some(false),
                },
            }
        });
        match agreed {
            Some(true) => {
                kernel.uniform_guards.push(guard);
                seen = view(&kernel);
            }
            None => {
                kernel.undecided_guards.push(guard.clone());
                seen.undecided_guards.push(guard);
            }
            Some(false) => {}
        }
    }
    seen
}

/// Whether the solver shows that no values satisfy `conds`: `None` when
/// its time ran out before its work limit did, which only a loaded
/// machine makes happen.
fn never(conds: &[Cond], ms: u64) -> Option<bool> {
    let started = std::time::Instant::now();
    match never_within(conds, UNIFORM_RLIMIT, ms) {
        true => Some(true),
        false if started.elapsed().as_millis() as u64 >= ms => None,
        false => Some(false),
    }
}

fn never_within(conds: &[Cond], rlimit: u32, ms: u64) -> bool {
    let conds = smt::monotone::linearized(&with_fixed_sizes(conds));
    smt::satisfiable_within(&conds, rlimit, ms) == Some(false)
}

/// `conds` with each launch size one of them fixes (`blockDim.x == 64`)
/// written as its value: a precondition names the size (`n % blockDim.x
/// == 0`), and its remainder by a constant is linear where the one by an
/// unknown leaves Z3 without an answer.
fn with_fixed_sizes(conds: &[Cond]) -> Vec<Cond> {
    let fixed: Vec<(&String, i64)> = conds
        .iter()
        .filter_map(|c| match c {
            Cond::Cmp(Rel::Eq, Expr::Var(d), Expr::Int(v)) if builtin::is_dim(d) => Some((d, *v)),
            _ => None,
        })
        .collect();
    if fixed.is_empty() {
        return conds.to_vec();
    }
    let mut out: Vec<Cond> = conds
        .iter()
        .map(|c| {
            fixed
                .iter()
                .fold(c.clone(), |c, (d, v)| c.subst(d, &Expr::Int(*v)))
        })
        .collect();
    // The sizes stay fixed for the rest of the question's variables.
    out.extend(
        fixed
            .iter()
            .map(|(d, v)| Cond::cmp(Rel::Eq, Expr::var(d.as_str()), Expr::Int(*v))),
    );
    out
}

/// `question` in launches the hardware admits. Asked second: the limits
/// make the solver's proofs over symbolic sizes slow, but a bound check
/// against a size the launch fixes needs them.
fn within_limits(kernel: &Kernel, question: &[Cond]) -> Vec<Cond> {
    let mut limited = question.to_vec();
    let limits = analysis::launch_limits(kernel, question);
    // Limits that contradict sizes the assumptions relate would make any
    // question vacuous.
    if super::admits_a_launch(kernel, &limits) {
        limited.extend(limits);
    }
    limited
}

/// Whether `guard` names a thread's own unknown (a value it read, say):
/// the threads of a block may disagree on it whatever the solver says of
/// the rest.
fn mentions_own_unknowns(kernel: &Kernel, guard: &Guard) -> bool {
    let mut vars = BTreeSet::new();
    guard.free_vars(&mut vars);
    vars.iter().any(|v| {
        kernel.is_local(v)
            && !kernel.block_uniform.contains(v)
            && !kernel.control_uniform.contains(v)
    })
}

/// What a divergence's report adds to its reason: two threads of one block
/// that disagree on `guard`, and the simplest precondition over the
/// kernel's parameters under which no two do.
pub(super) fn explain(kernel: &Kernel, guard: &Guard, deadline: Deadline) -> String {
    let question = analysis::disagreement(kernel, guard);
    let key = (question.clone(), kernel.params.clone());
    remembered(&EXPLAINED, key, || {
        explained(kernel, guard, &question, deadline)
    })
}

fn explained(kernel: &Kernel, guard: &Guard, question: &[Cond], deadline: Deadline) -> String {
    let deadline = Deadline::after_ms(EXPLAIN_MS).sooner(deadline);
    let mut out = String::new();
    let limited = within_limits(kernel, question);
    // Two threads that disagree may need large sizes (a block size that
    // does not divide 2^24): the witness gets the proof's work bound.
    if let Some(Some(values)) = smt::model(&limited, UNIFORM_RLIMIT, deadline.cap(QUESTION_MS).0) {
        out.push_str(&format!(" ({})", threads_apart(kernel, guard, &values)));
    }
    if let Some(pre) = precondition(kernel, guard, question, deadline) {
        out.push_str(&format!(
            "; no divergence if callers ensure `__requires({pre})`"
        ));
    }
    out
}

/// `threads 0 and 1 of block 0 disagree when n = 1, blockDim.x = 2`, from
/// the values of a disagreement.
fn threads_apart(kernel: &Kernel, guard: &Guard, values: &BTreeMap<String, i64>) -> String {
    let mut vars = BTreeSet::new();
    guard.free_vars(&mut vars);
    let axes = |ids: &[&str; 3]| -> Vec<usize> {
        let used: Vec<usize> = (0..3).filter(|d| vars.contains(ids[*d])).collect();
        if used.is_empty() {
            vec![0]
        } else {
            used
        }
    };
    let id = |ids: &[&str; 3], axes: &[usize], suffix: &str| -> String {
        let each: Vec<String> = axes
            .iter()
            .map(|d| {
                let v = values.get(&format!("{}{suffix}", ids[*d])).copied();
                v.unwrap_or(0).to_string()
            })
            .collect();
        if each.len() == 1 {
            each[0].clone()
        } else {
            format!("({})", each.join(", "))
        }
    };
    let t = axes(&builtin::TID);
    let b = axes(&builtin::BID);
    let shared: Vec<String> = vars
        .iter()
        .filter(|v| builtin::is_dim(v) || kernel.params.contains(v))
        .filter_map(|v| {
            Some(format!(
                "{} = {}",
                super::source_name(kernel, v).0,
                values.get(v)?
            ))
        })
        .collect();
    let mut text = format!(
        "threads {} and {} of block {} disagree",
        id(&builtin::TID, &t, "@1"),
        id(&builtin::TID, &t, "@2"),
        id(&builtin::BID, &b, ""),
    );
    if !shared.is_empty() {
        text.push_str(&format!(" when {}", shared.join(", ")));
    }
    text
}

/// The first of a few shapes of precondition (sizes that are whole blocks,
/// sizes that cover the grid) under which the threads of a block never
/// disagree on `guard`, over its parameters the caller chooses; none if no
/// candidate is shown to in its time.
fn precondition(
    kernel: &Kernel,
    guard: &Guard,
    question: &[Cond],
    deadline: Deadline,
) -> Option<String> {
    // A parameter the launches fix (`n == 16777216`) is in the guard as
    // its value; a condition on it still names what callers keep (`n %
    // blockDim.x == 0`, with `n` fixed a condition on the block). The
    // guard gets the name back and the question leaves the value out: Z3
    // proves the whole blocks of any `n` where it gives up on those of
    // 2^24, and a proof for every `n` is one for 2^24.
    let mut values = Vec::new();
    let mut ints = |e: &Expr| collect_ints(e, &mut values);
    match guard {
        Guard::If(c) => c.each_expr(&mut ints),
        Guard::Range { lo, hi } => {
            ints(lo);
            ints(hi);
        }
    }
    let fixed: Vec<(&String, i64)> = kernel
        .assumes
        .iter()
        .filter_map(|a| match a {
            Cond::Cmp(Rel::Eq, Expr::Var(p), Expr::Int(c))
                if kernel.params.contains(p) && c.abs() >= 2 && values.contains(c) =>
            {
                Some((p, *c))
            }
            _ => None,
        })
        .collect();
    let named;
    let asked;
    let (guard, question) = if fixed.is_empty() {
        (guard, question)
    } else {
        let name = |e: &Expr| named_values(e, &fixed);
        named = match guard {
            Guard::If(c) => Guard::If(c.map_exprs(&name)),
            Guard::Range { lo, hi } => Guard::Range {
                lo: name(lo),
                hi: name(hi),
            },
        };
        let mut open = kernel.clone();
        open.assumes.retain(|a| {
            !fixed
                .iter()
                .any(|(p, c)| *a == Cond::cmp(Rel::Eq, Expr::var(p.as_str()), Expr::Int(*c)))
        });
        asked = analysis::disagreement(&open, &named);
        (&named, &asked[..])
    };
    let mut vars = BTreeSet::new();
    guard.free_vars(&mut vars);
    let params: Vec<&String> = vars
        .iter()
        .filter(|v| kernel.params.contains(v) && !kernel.unknown_params.contains(v))
        .take(3)
        .collect();
    let axes: Vec<usize> = (0..3).filter(|d| vars.contains(builtin::TID[*d])).collect();
    if params.is_empty() || axes.is_empty() {
        return None;
    }
    // What a size may be a whole number of: the block along an axis the
    // guard reads, or a tile its index steps by (`by * 128 + ty * 8`).
    let mut tiles: Vec<i64> = Vec::new();
    match guard {
        Guard::If(c) => c.each_expr(&mut |e| super::collect_strides(e, &mut tiles)),
        Guard::Range { lo, hi } => {
            super::collect_strides(lo, &mut tiles);
            super::collect_strides(hi, &mut tiles);
        }
    }
    tiles.sort_unstable_by(|a, b| b.cmp(a));
    tiles.dedup();
    let mut moduli: Vec<Expr> = axes
        .iter()
        .map(|d| Expr::var(builtin::BLOCK_DIM[*d]))
        .collect();
    moduli.extend(tiles.into_iter().take(2).map(Expr::Int));
    let whole = |p: &str, m: &Expr| {
        Cond::cmp(
            Rel::Eq,
            Expr::bin(Op::Mod, Expr::var(p), m.clone()),
            Expr::Int(0),
        )
    };
    let covers = |p: &str, d: usize| {
        Cond::cmp(
            Rel::Ge,
            Expr::var(p),
            Expr::bin(
                Op::Mul,
                Expr::var(builtin::GRID_DIM[d]),
                Expr::var(builtin::BLOCK_DIM[d]),
            ),
        )
    };
    // Every way of giving each parameter one of `n` choices: distinct ones
    // in order first (`nx` along x, `ny` along y), then one for all (`M`
    // and `N` whole tiles of 128).
    let ways = |n: usize| -> Vec<Vec<usize>> {
        let mut ways: Vec<Vec<usize>> = vec![Vec::new()];
        for _ in &params {
            ways = ways
                .into_iter()
                .flat_map(|w| {
                    (0..n).map(move |i| {
                        let mut w = w.clone();
                        w.push(i);
                        w
                    })
                })
                .collect();
        }
        ways.sort_by_key(|w| {
            let in_order = w.windows(2).all(|p| p[0] < p[1]);
            let same = w.windows(2).all(|p| p[0] == p[1]);
            (!in_order, !same)
        });
        ways
    };
    let mut candidates: Vec<Cond> = Vec::new();
    for p in &params {
        for m in &moduli {
            candidates.push(whole(p, m));
        }
    }
    if params.len() > 1 {
        for way in ways(moduli.len()) {
            let all = params.iter().zip(&way).map(|(p, i)| whole(p, &moduli[*i]));
            candidates.extend(all.reduce(Cond::and));
        }
    }
    for p in &params {
        for d in &axes {
            candidates.push(covers(p, *d));
        }
    }
    if params.len() > 1 {
        for way in ways(axes.len()) {
            let all = params.iter().zip(&way).map(|(p, i)| covers(p, axes[*i]));
            candidates.extend(all.reduce(Cond::and));
        }
    }
    // The launch's facts without the disagreement: a candidate must leave
    // some launch to run.
    let facts = &question[1..];
    for c in candidates.into_iter().take(MAX_CANDIDATES) {
        if deadline.passed() {
            return None;
        }
        let mut asked = question.to_vec();
        asked.push(c.clone());
        let ms = deadline.cap(QUESTION_MS).0;
        if !never_within(&asked, QUESTION_RLIMIT, ms)
            && !never_within(&within_limits(kernel, &asked), QUESTION_RLIMIT, ms)
        {
            continue;
        }
        let mut admits = facts.to_vec();
        admits.push(c.clone());
        let admitted = smt::satisfiable_within(
            &smt::monotone::linearized(&admits),
            QUESTION_RLIMIT,
            deadline.cap(QUESTION_MS).0,
        );
        if admitted == Some(true) {
            return Some(c.to_string());
        }
    }
    None
}

/// `e` with each value of `fixed` written as its parameter.
fn named_values(e: &Expr, fixed: &[(&String, i64)]) -> Expr {
    match e {
        Expr::Int(c) => match fixed.iter().find(|(_, v)| v == c) {
            Some((p, _)) => Expr::var(p),
            None => e.clone(),
        },
        Expr::Var(_) => e.clone(),
        Expr::Bin(op, a, b) => Expr::bin(*op, named_values(a, fixed), named_values(b, fixed)),
        Expr::Ite(c, a, b) => Expr::Ite(
            Box::new(c.map_exprs(&|e| named_values(e, fixed))),
            Box::new(named_values(a, fixed)),
            Box::new(named_values(b, fixed)),
        ),
    }
}

/// Every integer constant of `e`.
fn collect_ints(e: &Expr, out: &mut Vec<i64>) {
    match e {
        Expr::Int(c) => out.push(*c),
        Expr::Var(_) => {}
        Expr::Bin(_, a, b) => {
            collect_ints(a, out);
            collect_ints(b, out);
        }
        Expr::Ite(c, a, b) => {
            c.each_expr(&mut |e| collect_ints(e, out));
            collect_ints(a, out);
            collect_ints(b, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse;

    fn kernel(src: &str) -> Kernel {
        parse(src).expect("protocol parses")
    }

    fn range(lo: &str, hi: &str) -> Guard {
        let k = kernel(&format!(
            "params n; array a {{ for i in {lo}..{hi} {{ sync }} }}"
        ));
        let crate::protocol::Stmt::For { lo, hi, .. } = &k.arrays[0].body else {
            panic!("a loop");
        };
        Guard::Range {
            lo: lo.clone(),
            hi: hi.clone(),
        }
    }

    #[test]
    fn a_bound_check_against_a_launched_size_is_uniform_in_blocks_a_gpu_runs() {
        let guard = |k: &Kernel| match &k.arrays[0].body {
            crate::protocol::Stmt::If { cond, .. } => Guard::If(cond.clone()),
            other => panic!("a conditional, not {other:?}"),
        };
        let k = kernel("params n; assume n == 16777216; array a { if (tid.x >= n) { sync } }");
        let g = guard(&k);
        let q = analysis::disagreement(&k, &g);
        assert_ne!(never(&q, 1_000), Some(true));
        assert_eq!(never(&within_limits(&k, &q), 1_000), Some(true));
        // Blocks the kernel asks for beyond the hardware's stay.
        let wide = kernel(
            "params n; assume n == 1024 && blockDim.x == 2048; array a { if (tid.x >= n) { sync } }",
        );
        let q = analysis::disagreement(&wide, &guard(&wide));
        let limits = analysis::launch_limits(&wide, &q);
        assert!(
            limits.iter().all(|c| !c.to_string().contains("blockDim.x")),
            "{limits:?}"
        );
        assert_ne!(never(&within_limits(&wide, &q), 1_000), Some(true));
        // A size the assumptions tie to one beyond the hardware's takes no
        // limit either: it would contradict them and prove anything.
        let tied = kernel(
            "params n; assume n == 1024 && blockDim.y == 2048 && blockDim.x == blockDim.y; array a { if (tid.x >= n) { sync } }",
        );
        let q = analysis::disagreement(&tied, &guard(&tied));
        assert!(!analysis::launch_limits(&tied, &q).is_empty());
        assert_ne!(never(&within_limits(&tied, &q), 1_000), Some(true));
    }

    #[test]
    fn a_block_stride_loop_to_a_multiple_of_the_block_is_uniform() {
        let k = kernel("params n; array a { wr[0] }");
        let g = range("0", "(n - tid.x + blockDim.x - 1) / blockDim.x");
        let q = analysis::disagreement(&k, &g);
        assert_ne!(never(&q, 5_000), Some(true));
        let mut whole = q.clone();
        whole.push(Cond::cmp(
            Rel::Eq,
            Expr::bin(Op::Mod, Expr::var("n"), Expr::var("blockDim.x")),
            Expr::Int(0),
        ));
        assert_eq!(never(&whole, 5_000), Some(true));
    }

    #[test]
    fn a_grid_stride_loop_over_whole_blocks_is_uniform_in_any_grid() {
        // The trip count divides by the grid's threads, a constant block
        // times a grid the launch leaves open.
        let k = kernel("params n; assume blockDim.x == 128; array a { wr[0] }");
        let g = range(
            "0",
            "(n - (tid.x + 128 * bid.x) + (128 * gridDim.x - 1)) / (128 * gridDim.x)",
        );
        assert_diverges_unless_whole_blocks(&k, &g);
    }

    #[test]
    fn a_whole_number_of_a_launched_block_is_asked_as_one_of_its_size() {
        // The launch fixes the block at 64; the precondition still names
        // it, and the solver is asked for remainders by 64.
        let k = kernel("params n; assume blockDim.x == 64; array a { wr[0] }");
        let g = range("0", "(n - tid.x + 63) / 64");
        assert_diverges_unless_whole_blocks(&k, &g);
    }

    /// Two threads of a block may disagree on `g`, and none do when `n` is
    /// a whole number of blocks, which the report suggests.
    fn assert_diverges_unless_whole_blocks(k: &Kernel, g: &Guard) {
        let q = analysis::disagreement(k, g);
        assert_ne!(never(&q, 5_000), Some(true));
        let pre = precondition(k, g, &q, Deadline::after_ms(20_000));
        assert_eq!(pre.as_deref(), Some("n % blockDim.x == 0"));
    }

    #[test]
    fn a_size_the_launch_fixes_is_still_named_in_the_precondition() {
        // The launch passes 2^24 for `n`, which the guard holds as its
        // value; the block comes from the command line.
        let k = kernel(
            "params n; assume n == 16777216; \
             array a { if (bid.x * blockDim.x + tid.x >= 16777216) { sync } }",
        );
        let crate::protocol::Stmt::If { cond, .. } = &k.arrays[0].body else {
            panic!("a conditional");
        };
        let g = Guard::If(cond.clone());
        let q = analysis::disagreement(&k, &g);
        let pre = precondition(&k, &g, &q, Deadline::after_ms(20_000));
        assert_eq!(pre.as_deref(), Some("n % blockDim.x == 0"));
    }
}
