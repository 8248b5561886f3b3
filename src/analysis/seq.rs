//! Sequentialization (Fig. 8, `seq`): one barrier interval becomes a symbolic
//! trace of two distinct threads. Every thread-local name `x` gets a copy per
//! thread (`x@1`, `x@2`); shared names stay as they are. The trace is
//! self-contained and has a content hash that ignores variable names and
//! source positions.

use super::split::unsync_free_vars;
use super::{Binder, Interval, Pairing, Trace, TraceAccess};
use crate::protocol::builtin::{BID, BLOCK_DIM, GRID_DIM, TID};
use crate::protocol::print::{op_str, rel_str};
use crate::protocol::wf::Unsync;
use crate::protocol::{builtin, ArrayProtocol, Cond, Expr, Kernel, Loc, Mode, Op, Rel, Scope};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;

/// The symbolic trace of `interval` for two threads paired as `pairing`.
pub fn seq(kernel: &Kernel, array: &ArrayProtocol, interval: &Interval, pairing: Pairing) -> Trace {
    // Threads of distinct blocks share no shared memory.
    debug_assert!(pairing == Pairing::SameBlock || array.scope == Scope::Global);
    let binders: HashSet<&str> = interval.binders.iter().map(|b| b.var.as_str()).collect();
    let thread_local = |name: &str| {
        !binders.contains(name)
            && (TID.contains(&name)
                || kernel.is_local(name)
                || (pairing == Pairing::OtherBlock && BID.contains(&name)))
    };
    let rename_free = |name: &str, k: usize| -> String {
        if thread_local(name) {
            format!("{name}@{k}")
        } else {
            name.to_string()
        }
    };

    let mut accesses: [Vec<TraceAccess>; 2] = [Vec::new(), Vec::new()];
    for (i, out) in accesses.iter_mut().enumerate() {
        let k = i + 1;
        let mut free = BTreeSet::new();
        unsync_free_vars(&interval.code, &mut free);
        let mut flat = Flatten {
            k,
            free: &rename_free,
            taken: free.iter().map(|v| rename_free(v, k)).collect(),
            scope: Vec::new(),
            out,
        };
        flat.walk(&interval.code, &mut Vec::new(), &Cond::Bool(true));
    }
    // Quotients and remainders of one number put back together, by the
    // names every trace bounds from below by 0 or 1 (`range_fact`).
    let natural = |name: &str| range_fact(kernel, name, &mut |_| {}).is_some();
    for a in accesses.iter_mut().flatten() {
        for e in &mut a.index {
            *e = super::recompose::index(e, &natural);
        }
    }

    // A condition over a thread's own values (a synchronized loop's bound
    // over what its block shares) holds in each thread.
    let mut assumptions = Vec::new();
    let mut assume = |a: &Cond| {
        let mut fv = BTreeSet::new();
        a.free_vars(&mut fv);
        if fv.iter().any(|v| thread_local(v)) {
            for k in 1..=2 {
                assumptions.push(map_cond(a, &|v| rename_free(v, k)));
            }
        } else {
            assumptions.push(a.clone());
        }
    };
    for a in &kernel.assumes {
        assume(a);
    }
    for b in &interval.binders {
        assume(&b.range());
    }
    if interval.cond != Cond::Bool(true) {
        assume(&interval.cond);
    }

    let ids: &[&str; 3] = if pairing == Pairing::SameBlock {
        &TID
    } else {
        &BID
    };
    let distinct: Vec<(String, String)> = ids
        .iter()
        .map(|d| (format!("{d}@1"), format!("{d}@2")))
        .collect();

    // Range facts for every variable, in order of first appearance so that
    // the trace (and its hash) does not depend on how variables are named.
    let mut order = Names::default();
    for acc in accesses.iter().flatten() {
        order.access(acc);
    }
    // Two threads of one block agree on what the block shares.
    let mut pair = |v: &str, rel: Rel| {
        let (a, b) = (format!("{v}@1"), format!("{v}@2"));
        if order.list.contains(&a) || order.list.contains(&b) {
            assumptions.push(Cond::cmp(rel, Expr::var(&a), Expr::var(&b)));
        }
    };
    if pairing == Pairing::SameBlock {
        for v in &kernel.block_uniform {
            pair(v, Rel::Eq);
        }
    }
    // Two threads' tickets of one counter differ; a block's ticket is its
    // threads' own.
    let mut ticket_facts = Vec::new();
    // The two threads' counter cells differ (never, for one cell).
    let cells_apart = |cell: Option<&Vec<Expr>>| {
        let at = |e: &Expr, k: usize| map_expr(e, &|v| rename_free(v, k));
        cell.into_iter()
            .flatten()
            .map(|e| Cond::cmp(Rel::Ne, at(e, 1), at(e, 2)))
            .reduce(Cond::or)
            .unwrap_or(Cond::Bool(false))
    };
    for t in &kernel.tickets {
        if let Some(g) = &t.group {
            let (b1, b2) = (format!("{}@1", t.local), format!("{}@2", t.local));
            let used = order.list.contains(&b1) || order.list.contains(&b2);
            if used && (t.grid || pairing == Pairing::SameBlock) {
                ticket_facts.extend(group_range_facts(g, &b1, &b2, &rename_free));
            }
            continue;
        }
        if t.counts_up && !t.block {
            for k in [1, 2] {
                let tk = format!("{}@{k}", t.local);
                if order.list.contains(&tk) {
                    ticket_facts.push(Cond::cmp(Rel::Ge, Expr::var(&tk), Expr::Int(0)));
                }
            }
        }
        if let Some(cell) = &t.cell {
            let (t1, t2) = (format!("{}@1", t.local), format!("{}@2", t.local));
            let used = order.list.contains(&t1) || order.list.contains(&t2);
            if used && (t.grid || pairing == Pairing::SameBlock) {
                let apart = Cond::cmp(Rel::Ne, Expr::var(&t1), Expr::var(&t2));
                ticket_facts.push(Cond::or(cells_apart(Some(cell)), apart));
            }
            continue;
        }
        if !t.block {
            if t.grid || pairing == Pairing::SameBlock {
                pair(&t.local, Rel::Ne);
            }
            continue;
        }
        let (t1, t2) = (format!("{}@1", t.local), format!("{}@2", t.local));
        let phases = t
            .phase
            .as_ref()
            .map(|ph| (format!("{ph}@1"), format!("{ph}@2")))
            .filter(|(p1, p2)| order.list.contains(p1) || order.list.contains(p2));
        let ordered = pairing == Pairing::OtherBlock && phases.is_some();
        if !ordered && !order.list.contains(&t1) && !order.list.contains(&t2) {
            continue;
        }
        let rel = if pairing == Pairing::SameBlock {
            Rel::Eq
        } else {
            Rel::Ne
        };
        ticket_facts.push(Cond::cmp(rel, Expr::var(&t1), Expr::var(&t2)));
        let blocks = builtin::product(GRID_DIM);
        for tk in [&t1, &t2] {
            ticket_facts.push(Cond::cmp(Rel::Ge, Expr::var(tk), Expr::Int(0)));
            ticket_facts.push(Cond::cmp(Rel::Lt, Expr::var(tk), blocks.clone()));
        }
        if let (true, Some((p1, p2))) = (ordered, phases) {
            // Thread 1's access before its ticket and thread 2's after its
            // own, greater one, are ordered; so is the converse.
            let before_after = |pa: &str, pb: &str, ta: &str, tb: &str| {
                Cond::not(Cond::and(
                    Cond::and(
                        Cond::cmp(Rel::Eq, Expr::var(pa), Expr::Int(0)),
                        Cond::cmp(Rel::Eq, Expr::var(pb), Expr::Int(1)),
                    ),
                    Cond::cmp(Rel::Lt, Expr::var(ta), Expr::var(tb)),
                ))
            };
            ticket_facts.push(before_after(&p1, &p2, &t1, &t2));
            ticket_facts.push(before_after(&p2, &p1, &t2, &t1));
        }
    }
    // Tickets of one counter cell taken at different sites (the copies of
    // an unrolled loop) differ as one site's do, and a thread's own differ
    // from each other: every atomic on the cell moves it the same way.
    let plain: Vec<&crate::protocol::Ticket> = kernel
        .tickets
        .iter()
        .filter(|t| !t.block && t.group.is_none() && t.counter.is_some())
        .collect();
    let named = |t: &crate::protocol::Ticket, k: usize| format!("{}@{k}", t.local);
    for (i, a) in plain.iter().enumerate() {
        for b in &plain[i + 1..] {
            if a.counter != b.counter || a.cell != b.cell || a.grid != b.grid {
                continue;
            }
            let present =
                |k: usize| order.list.contains(&named(a, k)) && order.list.contains(&named(b, k));
            for k in [1, 2] {
                if present(k) {
                    ticket_facts.push(Cond::cmp(
                        Rel::Ne,
                        Expr::var(&named(a, k)),
                        Expr::var(&named(b, k)),
                    ));
                }
            }
            if !(a.grid || pairing == Pairing::SameBlock) {
                continue;
            }
            let other_cell = cells_apart(a.cell.as_ref());
            for (x, y) in [(a, b), (b, a)] {
                let (x1, y2) = (named(x, 1), named(y, 2));
                if order.list.contains(&x1) && order.list.contains(&y2) {
                    let apart = Cond::cmp(Rel::Ne, Expr::var(&x1), Expr::var(&y2));
                    ticket_facts.push(Cond::or(other_cell.clone(), apart));
                }
            }
        }
    }
    // A read of what a block published over a ticket it took is that
    // value over the block's ticket, and blocks never publish one ticket.
    let mut published = BTreeSet::new();
    for r in &kernel.ticket_reads {
        for k in [1, 2] {
            let read = format!("{}@{k}", r.local);
            if !order.list.contains(&read) {
                continue;
            }
            let value = map_expr(&r.value, &|v| rename_free(v, k));
            ticket_facts.push(Cond::cmp(Rel::Eq, Expr::var(&read), value));
            if r.counts_up {
                let ticket = Expr::var(&format!("{}@{k}", r.ticket));
                ticket_facts.push(Cond::cmp(Rel::Ge, ticket, Expr::Int(0)));
            }
            published.insert(r.ticket.clone());
        }
    }
    if pairing == Pairing::OtherBlock {
        for t in published {
            let (t1, t2) = (format!("{t}@1"), format!("{t}@2"));
            ticket_facts.push(Cond::cmp(Rel::Ne, Expr::var(&t1), Expr::var(&t2)));
        }
    }
    assumptions.extend(ticket_facts);
    for c in &assumptions {
        order.cond(c);
    }
    for (a, b) in &distinct {
        order.add(a);
        order.add(b);
    }
    for k in 1..=2 {
        for t in TID {
            order.add(&format!("{t}@{k}"));
        }
    }
    let mut i = 0;
    while i < order.list.len() {
        let name = order.list[i].clone();
        i += 1;
        if binders.contains(name.as_str()) {
            continue;
        }
        let fact = range_fact(kernel, &name, &mut |d| {
            order.add(d);
        });
        assumptions.extend(fact);
    }

    let mut globals = Vec::new();
    let mut locals: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for name in order.list {
        if name.ends_with("@1") {
            locals[0].push(name);
        } else if name.ends_with("@2") {
            locals[1].push(name);
        } else {
            globals.push(name);
        }
    }
    globals.sort();
    locals.iter_mut().for_each(|l| l.sort());

    Trace {
        pairing,
        globals,
        locals,
        assumptions,
        distinct,
        accesses,
        lockstep: false,
        start: interval.start,
        end: interval.end,
    }
}

/// Which two threads of a block a trace restricted by [`in_warps`] pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warps {
    /// Threads of different warps.
    Different,
    /// Two lanes of one warp.
    Same,
    /// Two lanes of one warp running in lockstep (`Kernel::warp_sync`).
    Lockstep,
}

/// A same-block trace restricted to two threads of warps of `size`
/// threads, as `warps` says.
pub fn in_warps(mut trace: Trace, size: u32, warps: Warps) -> Trace {
    debug_assert_eq!(trace.pairing, Pairing::SameBlock);
    // A dimension the launch fixes keeps the linear id linear.
    let dim = |d: usize| {
        let name = BLOCK_DIM[d];
        crate::protocol::fixed_value(&trace.assumptions, name)
            .map_or_else(|| Expr::var(name), Expr::Int)
    };
    let warp = |k: usize| {
        let id = |d: usize| Expr::var(&format!("{}@{k}", TID[d]));
        Expr::bin(Op::Div, builtin::linear_id(id, dim), Expr::Int(size.into()))
    };
    let rel = if warps == Warps::Different {
        Rel::Ne
    } else {
        Rel::Eq
    };
    trace.assumptions.push(Cond::cmp(rel, warp(1), warp(2)));
    trace.lockstep = warps == Warps::Lockstep;
    trace
}

/// One trace per interval, in order.
pub fn seq_all(
    kernel: &Kernel,
    array: &ArrayProtocol,
    intervals: &[Interval],
    pairing: Pairing,
) -> Vec<Trace> {
    intervals
        .iter()
        .map(|iv| seq(kernel, array, iv, pairing))
        .collect()
}

/// What every variable of a trace or query named `name` ranges over: an
/// id (`tid.x@1`) lies within its dimension, which `size` is told of; a
/// dimension is at least 1; a parameter is a size, never negative, unless
/// a launch passes a negative constant (`qmin = -127`): the fact would
/// then contradict the launch and leave nothing to check.
pub(super) fn range_fact(kernel: &Kernel, name: &str, size: &mut dyn FnMut(&str)) -> Option<Cond> {
    if let Some((fact, dim)) = launch_range(name) {
        dim.into_iter().for_each(size);
        Some(fact)
    } else if name.contains('@') {
        None
    } else if kernel.params.iter().any(|p| p == name)
        && crate::protocol::fixed_value(&kernel.assumes, name).is_none_or(|n| n >= 0)
    {
        Some(Cond::cmp(Rel::Ge, Expr::var(name), Expr::Int(0)))
    } else {
        None
    }
}

/// The range of an id (`tid.x@1` within `blockDim.x`, with that size)
/// or of a launch size (at least 1), which every launch has.
fn launch_range(name: &str) -> Option<(Cond, Option<&'static str>)> {
    let base = name.split('@').next().unwrap_or(name);
    if let Some(count) = builtin::count_of(base) {
        Some((id_range(name, count), Some(count)))
    } else if builtin::is_dim(name) {
        Some((Cond::cmp(Rel::Ge, Expr::var(name), Expr::Int(1)), None))
    } else {
        None
    }
}

/// Whether `c` is one of the facts [`range_fact`] gives ids and launch
/// sizes: true of every launch, so no condition on a particular one.
pub fn is_launch_range(c: &Cond) -> bool {
    let mut vars = BTreeSet::new();
    c.free_vars(&mut vars);
    vars.iter()
        .any(|v| launch_range(v).is_some_and(|(fact, _)| fact == *c))
}

fn id_range(name: &str, dim: &str) -> Cond {
    let v = Expr::var(name);
    Cond::and(
        Cond::cmp(Rel::Le, Expr::Int(0), v.clone()),
        Cond::cmp(Rel::Lt, v, Expr::var(dim)),
    )
}

/// Flattens one thread's code into accesses with their loops and paths.
struct Flatten<'a, F: Fn(&str, usize) -> String> {
    k: usize,
    free: &'a F,
    /// Names already used in this thread: loop variables get unique names so
    /// that each names one thing throughout the trace.
    taken: HashSet<String>,
    /// Enclosing loops, innermost last: (source name, trace name).
    scope: Vec<(String, String)>,
    out: &'a mut Vec<TraceAccess>,
}

impl<F: Fn(&str, usize) -> String> Flatten<'_, F> {
    fn name(&self, v: &str) -> String {
        match self.scope.iter().rev().find(|(s, _)| s == v) {
            Some((_, n)) => n.clone(),
            None => (self.free)(v, self.k),
        }
    }
    fn expr(&self, e: &Expr) -> Expr {
        map_expr(e, &|v| self.name(v))
    }
    fn cond(&self, c: &Cond) -> Cond {
        map_cond(c, &|v| self.name(v))
    }

    fn walk(&mut self, u: &Unsync, loops: &mut Vec<Binder>, path: &Cond) {
        match u {
            Unsync::Skip => {}
            Unsync::Access(a) => {
                let index = a.index.iter().map(|e| self.expr(e)).collect();
                let value = a.value.as_ref().map(|v| v.map(|e| self.expr(e)));
                let lock = a.lock.as_ref().map(|l| l.map(|e| self.expr(e)));
                self.out.push(TraceAccess {
                    id: a.id,
                    mode: a.mode,
                    loc: a.loc,
                    index,
                    loops: loops.clone(),
                    path: path.clone(),
                    value,
                    lock,
                });
            }
            Unsync::Seq(items) => items.iter().for_each(|i| self.walk(i, loops, path)),
            Unsync::If(c, a, b) => {
                let c = self.cond(c);
                self.walk(a, loops, &Cond::and(path.clone(), c.clone()));
                self.walk(b, loops, &Cond::and(path.clone(), Cond::not(c)));
            }
            Unsync::For { var, lo, hi, body } => {
                let lo = self.expr(lo);
                let hi = self.expr(hi);
                let base = var.split('#').next().unwrap_or(var);
                let mut name = format!("{var}@{}", self.k);
                let mut n = 1;
                while self.taken.contains(&name) {
                    n += 1;
                    name = format!("{base}#{n}@{}", self.k);
                }
                self.taken.insert(name.clone());
                loops.push(Binder {
                    var: name.clone(),
                    lo,
                    hi,
                });
                self.scope.push((var.clone(), name));
                self.walk(body, loops, path);
                self.scope.pop();
                loops.pop();
            }
        }
    }
}

/// What two threads' starts `b1`, `b2` of a group's range say: each rank
/// is below its group's size, and either the threads share a group (one
/// start and size, different ranks) or their groups' ranges are apart.
fn group_range_facts(
    g: &crate::protocol::GroupRange,
    b1: &str,
    b2: &str,
    rename: &dyn Fn(&str, usize) -> String,
) -> Vec<Cond> {
    let at = |e: &Expr, k: usize| map_expr(e, &|v| rename(v, k));
    let (r1, r2) = (at(&g.rank, 1), at(&g.rank, 2));
    let (s1, s2) = (at(&g.size, 1), at(&g.size, 2));
    let (b1, b2) = (Expr::var(b1), Expr::var(b2));
    let end = |b: &Expr, s: &Expr| Expr::bin(Op::Add, b.clone(), s.clone());
    let one_group = Cond::and(
        Cond::and(
            Cond::cmp(Rel::Eq, b1.clone(), b2.clone()),
            Cond::cmp(Rel::Eq, s1.clone(), s2.clone()),
        ),
        Cond::cmp(Rel::Ne, r1.clone(), r2.clone()),
    );
    let apart = Cond::or(
        Cond::cmp(Rel::Le, end(&b1, &s1), b2.clone()),
        Cond::cmp(Rel::Le, end(&b2, &s2), b1.clone()),
    );
    let mut facts = vec![Cond::or(one_group, apart)];
    for (r, s) in [(r1, s1), (r2, s2)] {
        facts.push(Cond::cmp(Rel::Ge, r.clone(), Expr::Int(0)));
        facts.push(Cond::cmp(Rel::Lt, r, s));
    }
    facts
}

pub(super) fn map_expr(e: &Expr, f: &dyn Fn(&str) -> String) -> Expr {
    match e {
        Expr::Int(_) => e.clone(),
        Expr::Var(v) => Expr::Var(f(v)),
        Expr::Bin(op, a, b) => Expr::bin(*op, map_expr(a, f), map_expr(b, f)),
        Expr::Ite(c, a, b) => Expr::Ite(
            Box::new(map_cond(c, f)),
            Box::new(map_expr(a, f)),
            Box::new(map_expr(b, f)),
        ),
    }
}

pub(super) fn map_cond(c: &Cond, f: &dyn Fn(&str) -> String) -> Cond {
    match c {
        Cond::Bool(_) => c.clone(),
        Cond::Cmp(r, a, b) => Cond::Cmp(*r, map_expr(a, f), map_expr(b, f)),
        Cond::And(a, b) => Cond::And(Box::new(map_cond(a, f)), Box::new(map_cond(b, f))),
        Cond::Or(a, b) => Cond::Or(Box::new(map_cond(a, f)), Box::new(map_cond(b, f))),
        Cond::Not(a) => Cond::Not(Box::new(map_cond(a, f))),
        Cond::Forall { var, lo, hi, body } => Cond::Forall {
            var: f(var),
            lo: map_expr(lo, f),
            hi: map_expr(hi, f),
            body: Box::new(map_cond(body, f)),
        },
    }
}

/// Variable names in order of first appearance.
#[derive(Default)]
struct Names {
    list: Vec<String>,
    seen: HashMap<String, usize>,
}

impl Names {
    fn add(&mut self, v: &str) -> usize {
        if let Some(&i) = self.seen.get(v) {
            return i;
        }
        let i = self.list.len();
        self.seen.insert(v.to_string(), i);
        self.list.push(v.to_string());
        i
    }
    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Int(_) => {}
            Expr::Var(v) => {
                self.add(v);
            }
            Expr::Bin(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            Expr::Ite(c, a, b) => {
                self.cond(c);
                self.expr(a);
                self.expr(b);
            }
        }
    }
    fn cond(&mut self, c: &Cond) {
        match c {
            Cond::Bool(_) => {}
            Cond::Cmp(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.cond(a);
                self.cond(b);
            }
            Cond::Not(a) => self.cond(a),
            Cond::Forall { var, lo, hi, body } => {
                self.expr(lo);
                self.expr(hi);
                self.add(var);
                self.cond(body);
            }
        }
    }
    fn access(&mut self, a: &TraceAccess) {
        for l in &a.loops {
            self.expr(&l.lo);
            self.expr(&l.hi);
            self.add(&l.var);
        }
        self.cond(&a.path);
        a.index
            .iter()
            .chain(a.value.iter().flat_map(crate::protocol::Value::exprs))
            .chain(a.lock.iter().flat_map(|l| &l.index))
            .for_each(|e| self.expr(e));
    }
}

impl Trace {
    /// The trace with every variable renamed in order of first appearance
    /// (`v0`, `v1`, …) and without source positions: traces that differ only
    /// in names and positions have the same canonical text.
    pub fn canonical_text(&self) -> String {
        self.canonical().0
    }

    /// The variables of the trace in canonical order: `v{i}` of the
    /// canonical text is `canonical_names()[i]`. Maps a model found for one
    /// trace back to the names of any trace with the same hash.
    pub fn canonical_names(&self) -> Vec<String> {
        self.canonical().1.list
    }

    fn canonical(&self) -> (String, Names) {
        let mut names = Names::default();
        let mut out = String::new();
        let pairing = match self.pairing {
            Pairing::SameBlock => "same-block",
            Pairing::OtherBlock => "other-block",
        };
        let lockstep = if self.lockstep { " lockstep" } else { "" };
        let _ = writeln!(out, "pairing {pairing}{lockstep}");
        // Which accesses share a source site matters to the solver (it
        // blocks a race for every copy of its two sites), positions do not.
        let mut sites: Vec<Loc> = Vec::new();
        for (k, accs) in self.accesses.iter().enumerate() {
            for a in accs {
                let site = if a.loc.line == 0 {
                    format!("#{}", a.id)
                } else {
                    let i = sites.iter().position(|l| *l == a.loc).unwrap_or_else(|| {
                        sites.push(a.loc);
                        sites.len() - 1
                    });
                    format!("s{i}")
                };
                let _ = write!(out, "t{} #{} {} {site}", k + 1, a.id, a.mode.as_str());
                for l in &a.loops {
                    let lo = sexpr(&l.lo, &mut names);
                    let hi = sexpr(&l.hi, &mut names);
                    let _ = write!(out, " (for v{} {lo} {hi})", names.add(&l.var));
                }
                let _ = write!(out, " (when {})", scond(&a.path, &mut names));
                for e in &a.index {
                    let _ = write!(out, " [{}]", sexpr(e, &mut names));
                }
                match &a.value {
                    Some(crate::protocol::Value::Expr(v)) => {
                        let _ = write!(out, " (stores {})", sexpr(v, &mut names));
                    }
                    // Which array matters, not its name: read-only arrays
                    // are numbered in order of appearance.
                    Some(crate::protocol::Value::Fields(fields)) => {
                        let _ = write!(out, " (stores-fields");
                        for e in fields {
                            let _ = write!(out, " {}", sexpr(e, &mut names));
                        }
                        out.push(')');
                    }
                    Some(crate::protocol::Value::Read { array, index }) => {
                        let _ = write!(out, " (stores-cell a{}", names.add(&format!("{array}[]")));
                        for e in index {
                            let _ = write!(out, " [{}]", sexpr(e, &mut names));
                        }
                        out.push(')');
                    }
                    None => {}
                }
                // Which lock array matters, as for stored cells.
                if let Some(l) = &a.lock {
                    let _ = write!(out, " (lock a{}", names.add(&format!("{}[]", l.array)));
                    for e in &l.index {
                        let _ = write!(out, " [{}]", sexpr(e, &mut names));
                    }
                    out.push(')');
                }
                out.push('\n');
            }
        }
        for (a, b) in &self.distinct {
            let _ = writeln!(out, "distinct v{} v{}", names.add(a), names.add(b));
        }
        for c in &self.assumptions {
            let _ = writeln!(out, "assume {}", scond(c, &mut names));
        }
        let mut list = |vs: &[String]| -> String {
            let mut ids: Vec<usize> = vs.iter().map(|v| names.add(v)).collect();
            ids.sort_unstable();
            ids.iter()
                .map(|i| format!("v{i}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let g = list(&self.globals);
        let l1 = list(&self.locals[0]);
        let l2 = list(&self.locals[1]);
        let _ = write!(out, "globals {g}\nlocals1 {l1}\nlocals2 {l2}\n");
        (out, names)
    }

    /// The content hash keying the solver cache: blake3 of the canonical
    /// text, the solver options and the analysis version, in hex.
    pub fn hash(&self, solver_key: &str) -> String {
        let text = format!(
            "{}\n{}\n{}",
            self.canonical_text(),
            solver_key,
            crate::options::ANALYSIS_VERSION
        );
        blake3::hash(text.as_bytes()).to_hex().to_string()
    }
}

fn sexpr(e: &Expr, names: &mut Names) -> String {
    match e {
        Expr::Int(i) => i.to_string(),
        Expr::Var(v) => format!("v{}", names.add(v)),
        Expr::Bin(op, a, b) => {
            let a = sexpr(a, names);
            let b = sexpr(b, names);
            format!("({} {a} {b})", op_str(*op))
        }
        Expr::Ite(c, a, b) => {
            let c = scond(c, names);
            let a = sexpr(a, names);
            let b = sexpr(b, names);
            format!("(ite {c} {a} {b})")
        }
    }
}

fn scond(c: &Cond, names: &mut Names) -> String {
    match c {
        Cond::Bool(b) => b.to_string(),
        Cond::Cmp(r, a, b) => {
            let a = sexpr(a, names);
            let b = sexpr(b, names);
            format!("({} {a} {b})", rel_str(*r))
        }
        Cond::And(a, b) | Cond::Or(a, b) => {
            let tag = if matches!(c, Cond::And(..)) {
                "and"
            } else {
                "or"
            };
            let a = scond(a, names);
            let b = scond(b, names);
            format!("({tag} {a} {b})")
        }
        Cond::Not(a) => format!("(not {})", scond(a, names)),
        Cond::Forall { var, lo, hi, body } => {
            let lo = sexpr(lo, names);
            let hi = sexpr(hi, names);
            let v = sexpr(&Expr::Var(var.clone()), names);
            let body = scond(body, names);
            format!("(forall {v} {lo} {hi} {body})")
        }
    }
}

// Readable notation: the protocol printer's.

pub(super) fn fmt_expr(e: &Expr) -> String {
    e.to_string()
}

pub(super) fn fmt_cond(c: &Cond) -> String {
    c.to_string()
}

fn mode_str(m: Mode) -> &'static str {
    match m {
        Mode::Read => "rd",
        Mode::Write => "wr",
        Mode::Atomic => "atomic",
    }
}

fn fmt_index(index: &[Expr]) -> String {
    index.iter().map(|e| format!("[{}]", fmt_expr(e))).collect()
}

/// Unsynchronized code, one statement per line at `indent` levels.
pub(super) fn fmt_unsync(u: &Unsync, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    match u {
        Unsync::Skip => {
            let _ = writeln!(out, "{pad}skip;");
        }
        Unsync::Access(a) => {
            let _ = writeln!(out, "{pad}{}{};", mode_str(a.mode), fmt_index(&a.index));
        }
        Unsync::Seq(items) => items.iter().for_each(|i| fmt_unsync(i, indent, out)),
        Unsync::If(c, a, b) => {
            let _ = writeln!(out, "{pad}if {} {{", fmt_cond(c));
            fmt_unsync(a, indent + 1, out);
            if **b != Unsync::Skip {
                let _ = writeln!(out, "{pad}}} else {{");
                fmt_unsync(b, indent + 1, out);
            }
            let _ = writeln!(out, "{pad}}}");
        }
        Unsync::For { var, lo, hi, body } => {
            let _ = writeln!(
                out,
                "{pad}for {var} in {}..{} {{",
                fmt_expr(lo),
                fmt_expr(hi)
            );
            fmt_unsync(body, indent + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
    }
}

fn fmt_bound(b: &Option<crate::protocol::Loc>, none: &str) -> String {
    match b {
        Some(loc) => format!("sync at {loc}"),
        None => none.to_string(),
    }
}

/// The intervals of `split`, for `--show split`.
pub fn print_intervals(intervals: &[Interval]) -> String {
    let mut out = String::new();
    for (i, iv) in intervals.iter().enumerate() {
        let _ = writeln!(
            out,
            "interval {i}: from {} to {}",
            fmt_bound(&iv.start, "kernel start"),
            fmt_bound(&iv.end, "kernel end")
        );
        for b in &iv.binders {
            let _ = writeln!(
                out,
                "  var {} in {}..{};",
                b.var,
                fmt_expr(&b.lo),
                fmt_expr(&b.hi)
            );
        }
        if iv.cond != Cond::Bool(true) {
            let _ = writeln!(out, "  assume {};", fmt_cond(&iv.cond));
        }
        fmt_unsync(&iv.code, 1, &mut out);
    }
    out
}

/// A trace in the notation of Fig. 7, for `--show traces`.
pub fn print_trace(trace: &Trace) -> String {
    let mut out = String::new();
    let pairing = match trace.pairing {
        Pairing::SameBlock => "same block",
        Pairing::OtherBlock => "other blocks",
    };
    let _ = writeln!(
        out,
        "trace ({pairing}) from {} to {}",
        fmt_bound(&trace.start, "kernel start"),
        fmt_bound(&trace.end, "kernel end")
    );
    if !trace.globals.is_empty() {
        let _ = writeln!(out, "  var {};", trace.globals.join(", "));
    }
    for (k, l) in trace.locals.iter().enumerate() {
        let _ = writeln!(out, "  var t{} {};", k + 1, l.join(", "));
    }
    for c in &trace.assumptions {
        let _ = writeln!(out, "  assume {};", fmt_cond(c));
    }
    let (l, r): (Vec<&str>, Vec<&str>) = trace
        .distinct
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .unzip();
    let _ = writeln!(out, "  distinct ({}) != ({});", l.join(", "), r.join(", "));
    for (k, accs) in trace.accesses.iter().enumerate() {
        for a in accs {
            let _ = write!(out, "  t{}: ", k + 1);
            for lp in &a.loops {
                let _ = write!(
                    out,
                    "var {} in {}..{}; ",
                    lp.var,
                    fmt_expr(&lp.lo),
                    fmt_expr(&lp.hi)
                );
            }
            if a.path != Cond::Bool(true) {
                let _ = write!(out, "if {} ", fmt_cond(&a.path));
            }
            let _ = writeln!(
                out,
                "{}{}  // #{} at {}",
                mode_str(a.mode),
                fmt_index(&a.index),
                a.id,
                a.loc
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::split::split;
    use super::super::split::testkit::*;
    use super::*;
    use crate::protocol::wf::{Synced, WellFormed};
    use crate::protocol::Op;
    use crate::protocol::{Loc, Stmt};

    fn kernel(params: &[&str], locals: &[&str], assumes: Vec<Cond>) -> Kernel {
        Kernel {
            name: "k".into(),
            params: params.iter().map(|s| s.to_string()).collect(),
            locals: locals.iter().map(|s| s.to_string()).collect(),
            assumes,
            arrays: vec![],
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
        }
    }

    fn array(scope: Scope) -> ArrayProtocol {
        ArrayProtocol {
            name: "a".into(),
            scope,
            body: Stmt::Skip,
            loc: Loc::NONE,
        }
    }

    fn only(wf: &WellFormed) -> Interval {
        let ivs = split(wf);
        assert_eq!(ivs.len(), 1, "{ivs:#?}");
        ivs.into_iter().next().unwrap()
    }

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    /// Example 4: `wr[tid + 1]; rd[tid + 2]; sync`.
    #[test]
    fn example_4() {
        let mut ids = Ids::default();
        let u = Unsync::Seq(vec![
            ids.wr(add(v("tid.x"), n(1))),
            ids.rd(add(v("tid.x"), n(2))),
        ]);
        let iv = only(&wf(vec![code(u), sync(3)]));
        let t = seq(
            &kernel(&[], &[], vec![]),
            &array(Scope::Shared),
            &iv,
            Pairing::SameBlock,
        );
        for k in 0..2 {
            let tid = v(&format!("tid.x@{}", k + 1));
            let got: Vec<(u32, Mode, Vec<Expr>)> = t.accesses[k]
                .iter()
                .map(|a| (a.id, a.mode, a.index.clone()))
                .collect();
            assert_eq!(
                got,
                vec![
                    (0, Mode::Write, vec![add(tid.clone(), n(1))]),
                    (1, Mode::Read, vec![add(tid, n(2))])
                ]
            );
            assert!(t.accesses[k]
                .iter()
                .all(|a| a.loops.is_empty() && a.path == Cond::Bool(true)));
        }
        assert_eq!(
            t.distinct,
            vec![
                ("tid.x@1".to_string(), "tid.x@2".to_string()),
                ("tid.y@1".to_string(), "tid.y@2".to_string()),
                ("tid.z@1".to_string(), "tid.z@2".to_string()),
            ]
        );
        assert_eq!(
            t.globals,
            strings(&["blockDim.x", "blockDim.y", "blockDim.z"])
        );
        assert_eq!(t.locals[0], strings(&["tid.x@1", "tid.y@1", "tid.z@1"]));
        assert!(t.assumptions.contains(&id_range("tid.z@2", "blockDim.z")));
        assert!(t
            .assumptions
            .contains(&Cond::cmp(Rel::Ge, v("blockDim.y"), n(1))));
        assert_eq!(t.end, Some(Loc::new(3, 0)));
        let text = print_trace(&t);
        assert!(text.contains("t2: wr[tid.x@2 + 1]  // #0 at 1:1"), "{text}");
    }

    fn listing_2_3(names: [&str; 5], line: u32) -> WellFormed {
        let [nn, m, r, i, j] = names;
        let mut ids = Ids(line);
        let w = ufor(i, n(0), v(m), ids.wr(v("tid.x")));
        let rd = ufor(j, n(0), v(m), ids.rd(add(v("tid.x"), v(j))));
        let mut p = wf(vec![sfor(
            r,
            n(0),
            v(nn),
            vec![code(w), sync(line), code(rd)],
        )]);
        // Ids(line) numbered from `line`; renumber from 0 as the front-end does.
        if let Synced::Loop { body, .. } = &mut p.body[0] {
            for item in body.iter_mut() {
                if let Synced::Code(Unsync::For { body, .. }) = item {
                    if let Unsync::Access(a) = &mut **body {
                        a.id -= line;
                    }
                }
            }
        }
        p
    }

    fn inner_trace(names: [&str; 5], line: u32) -> Trace {
        let p = listing_2_3(names, line);
        let ivs = split(&p);
        let iv = ivs.iter().find(|iv| !iv.binders.is_empty()).unwrap();
        let k = kernel(&[names[0], names[1]], &[], vec![]);
        seq(&k, &array(Scope::Shared), iv, Pairing::SameBlock)
    }

    #[test]
    fn listing_2_3_middle_fragment() {
        let t = inner_trace(["N", "M", "r", "i", "j"], 3);
        assert_eq!(
            t.globals,
            strings(&["M", "N", "blockDim.x", "blockDim.y", "blockDim.z", "r"])
        );
        assert_eq!(
            t.locals[0],
            strings(&["i@1", "j@1", "tid.x@1", "tid.y@1", "tid.z@1"])
        );
        let r_range = Cond::and(
            Cond::cmp(Rel::Le, n(0), v("r")),
            Cond::cmp(Rel::Lt, v("r"), Expr::sub(v("N"), n(1))),
        );
        assert!(t.assumptions.contains(&r_range));
        assert!(t.assumptions.contains(&Cond::cmp(Rel::Ge, v("M"), n(0))));
        assert!(t.assumptions.contains(&Cond::cmp(Rel::Ge, v("N"), n(0))));
        let read = &t.accesses[1][0];
        assert_eq!(
            read.loops,
            vec![Binder {
                var: "j@2".into(),
                lo: n(0),
                hi: v("M")
            }]
        );
        assert_eq!(read.index, vec![add(v("tid.x@2"), v("j@2"))]);
        let text = print_trace(&t);
        assert!(
            text.contains("t1: var j@1 in 0..M; rd[tid.x@1 + j@1]"),
            "{text}"
        );
        assert!(text.contains("assume 0 <= r && r < N - 1;"), "{text}");
    }

    #[test]
    fn hash_ignores_names_and_positions() {
        let a = inner_trace(["N", "M", "r", "i", "j"], 3);
        let b = inner_trace(["size", "count", "a", "z", "b"], 40);
        assert_ne!(a, b);
        assert_eq!(a.canonical_text(), b.canonical_text());
        assert_eq!(a.hash("key"), b.hash("key"));
        assert_ne!(a.hash("key"), a.hash("other key"));
        let mut c = a.clone();
        c.accesses[0][0].mode = Mode::Atomic;
        assert_ne!(a.hash("key"), c.hash("key"));
        let mut d = a.clone();
        d.accesses[1][0].id = 7;
        assert_ne!(a.hash("key"), d.hash("key"));
        assert_eq!(a.hash("key").len(), 64);
        // Which accesses share a source site is part of the hash (the solver
        // blocks races per pair of sites); where the sites are is not.
        assert!(a.accesses[0].len() >= 2 && a.accesses[0][0].loc != a.accesses[0][1].loc);
        let mut e = a.clone();
        e.accesses[0][0].loc = e.accesses[0][1].loc;
        assert_ne!(a.hash("key"), e.hash("key"));
        let (na, nb) = (a.canonical_names(), b.canonical_names());
        let pos = |names: &[String], x: &str| names.iter().position(|n| n == x).unwrap();
        assert_eq!(pos(&na, "N"), pos(&nb, "size"));
        assert_eq!(pos(&na, "j@2"), pos(&nb, "b@2"));
        assert_eq!(
            na.len(),
            a.globals.len() + a.locals[0].len() + a.locals[1].len()
        );
    }

    #[test]
    fn other_block_pairs_copy_block_ids() {
        let mut ids = Ids::default();
        let index = add(Expr::bin(Op::Mul, v("bid.x"), v("blockDim.x")), v("tid.x"));
        let p = wf(vec![code(ids.wr(index)), sync(2)]);
        let iv = only(&p);
        let k = kernel(&[], &[], vec![]);
        let t = seq(&k, &array(Scope::Global), &iv, Pairing::OtherBlock);
        assert_eq!(
            t.distinct[0],
            ("bid.x@1".to_string(), "bid.x@2".to_string())
        );
        assert!(t.locals[1].contains(&"bid.x@2".to_string()));
        assert!(t.assumptions.contains(&id_range("bid.x@1", "gridDim.x")));
        assert!(t
            .assumptions
            .contains(&Cond::cmp(Rel::Ge, v("gridDim.x"), n(1))));
        let same = seq(&k, &array(Scope::Global), &iv, Pairing::SameBlock);
        assert!(same.globals.contains(&"bid.x".to_string()));
        assert!(same.assumptions.contains(&id_range("bid.x", "gridDim.x")));
        assert_eq!(
            same.distinct[0],
            ("tid.x@1".to_string(), "tid.x@2".to_string())
        );
    }

    #[test]
    fn assumptions_on_thread_local_names_hold_per_thread() {
        let mut ids = Ids::default();
        let p = wf(vec![code(ids.rd(add(v("tid.x"), v("k")))), sync(2)]);
        let iv = only(&p);
        let local = Cond::cmp(Rel::Lt, v("k"), v("tid.x"));
        let global = Cond::cmp(Rel::Gt, v("N"), n(4));
        let kern = kernel(&["N"], &["k"], vec![local, global.clone()]);
        let t = seq(&kern, &array(Scope::Shared), &iv, Pairing::SameBlock);
        assert!(t
            .assumptions
            .contains(&Cond::cmp(Rel::Lt, v("k@1"), v("tid.x@1"))));
        assert!(t
            .assumptions
            .contains(&Cond::cmp(Rel::Lt, v("k@2"), v("tid.x@2"))));
        assert_eq!(t.assumptions.iter().filter(|c| **c == global).count(), 1);
        assert!(t.locals[0].contains(&"k@1".to_string()));
        assert!(t.globals.contains(&"N".to_string()));
        // No range for an unknown local.
        assert!(!t
            .assumptions
            .iter()
            .any(|c| matches!(c, Cond::Cmp(Rel::Ge, Expr::Var(x), _) if x == "k@1")));
    }

    #[test]
    fn loop_variables_are_unique_per_thread() {
        let mut ids = Ids::default();
        let c = Cond::cmp(Rel::Eq, v("tid.x"), n(0));
        let inner = ufor("i", n(0), add(v("i"), n(1)), ids.wr(v("i")));
        let u = Unsync::Seq(vec![
            ids.rd(v("i")),
            ufor(
                "i",
                n(0),
                n(2),
                Unsync::If(c, Box::new(inner), Box::new(Unsync::Skip)),
            ),
        ]);
        let p = wf(vec![code(u)]);
        let iv = only(&p);
        let t = seq(
            &kernel(&[], &["i"], vec![]),
            &array(Scope::Shared),
            &iv,
            Pairing::SameBlock,
        );
        let [read, write] = &t.accesses[0][..] else {
            panic!()
        };
        assert_eq!(read.index, vec![v("i@1")]);
        assert_eq!(
            write.loops,
            vec![
                Binder {
                    var: "i#2@1".into(),
                    lo: n(0),
                    hi: n(2)
                },
                Binder {
                    var: "i#3@1".into(),
                    lo: n(0),
                    hi: add(v("i#2@1"), n(1))
                },
            ]
        );
        assert_eq!(write.index, vec![v("i#3@1")]);
        assert_eq!(write.path, Cond::cmp(Rel::Eq, v("tid.x@1"), n(0)));
        assert_eq!(
            t.locals[0],
            strings(&["i#2@1", "i#3@1", "i@1", "tid.x@1", "tid.y@1", "tid.z@1"])
        );
    }

    #[test]
    fn intervals_print_with_binders_and_conditions() {
        let p = listing_2_3(["N", "M", "r", "i", "j"], 3);
        let text = print_intervals(&split(&p));
        assert!(text.starts_with("interval 0: from kernel start to sync at 3:0\n  assume 0 < N;\n  for i in 0..M {\n    wr[tid.x];"), "{text}");
        assert!(
            text.contains("interval 1: from sync at 3:0 to sync at 3:0\n  var r in 0..N - 1;\n"),
            "{text}"
        );
        assert!(
            text.contains("interval 2: from sync at 3:0 to kernel end"),
            "{text}"
        );
    }

    #[test]
    fn expressions_print_with_needed_parentheses() {
        let e = Expr::bin(
            Op::Mul,
            add(v("a"), n(1)),
            Expr::sub(v("b"), Expr::sub(v("c"), n(2))),
        );
        assert_eq!(fmt_expr(&e), "(a + 1) * (b - (c - 2))");
        let m = Expr::bin(Op::Min, v("a"), Expr::bin(Op::Shl, n(1), v("k")));
        assert_eq!(fmt_expr(&m), "min(a, 1 << k)");
        let or = Cond::Or(
            Box::new(Cond::cmp(Rel::Eq, v("w"), n(1))),
            Box::new(Cond::cmp(Rel::Ne, v("x"), n(0))),
        );
        let c = Cond::and(or, Cond::not(Cond::cmp(Rel::Lt, v("y"), n(3))));
        assert_eq!(fmt_cond(&c), "(w == 1 || x != 0) && !(y < 3)");
    }
}
