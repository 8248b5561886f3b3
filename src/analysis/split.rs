//! Barrier intervals of a well-formed protocol, computed compositionally.
//!
//! The paper's `align` (Fig. 6) duplicates loop bodies and grows exponentially
//! with the nesting of synchronized loops. Instead, every sequence of items gets
//! a summary of four lists of pieces (each an [`Interval`] under construction):
//!
//! - `pass`: ways from its start to its end crossing no barrier;
//! - `heads`: ways from its start to the first barrier reached;
//! - `tails`: ways from the last barrier executed to its end;
//! - `inner`: complete intervals between two of its barriers.
//!
//! Summaries compose over sequences, synchronized loops and synchronized
//! conditionals, so each construct is visited once. Unlike the paper, empty
//! synchronized loops are analysed (the code around them meets in one
//! interval) rather than assumed away.

use super::{Binder, Interval};
use crate::protocol::wf::{Synced, Unsync, WellFormed};
use crate::protocol::{Cond, Expr, Rel};
use std::collections::BTreeSet;

/// The barrier intervals of a protocol: every phase any execution can have is
/// an instance of one of them (same binder values for both threads).
pub fn split(wf: &WellFormed) -> Vec<Interval> {
    let mut splitter = Splitter::default();
    let s = splitter.items(&wf.body);
    s.heads
        .into_iter()
        .chain(s.inner)
        .chain(s.tails)
        .chain(s.pass)
        .filter(|iv| iv.cond != Cond::Bool(false) && has_access(&iv.code))
        .collect()
}

#[derive(Default)]
struct Summary {
    pass: Vec<Interval>,
    heads: Vec<Interval>,
    tails: Vec<Interval>,
    inner: Vec<Interval>,
}

#[derive(Default)]
struct Splitter {
    fresh: usize,
}

/// Whether `cond` holds only at the loop's last trip, `x == last` one of
/// its conjuncts: a tail under it meets no later trip's head. (A thread
/// that breaks out of a loop of unknown trip count crosses no barrier at
/// the trip it breaks at, which is the last: `lower`'s exit barriers.)
fn at_last_trip(cond: &Cond, x: &str, last: &Expr) -> bool {
    let is_x = |e: &Expr| matches!(e, Expr::Var(v) if v == x);
    let same = |e: &Expr| crate::imp::simplify(e) == crate::imp::simplify(last);
    match cond {
        Cond::And(a, b) => at_last_trip(a, x, last) || at_last_trip(b, x, last),
        Cond::Not(inner) => match &**inner {
            Cond::Not(c) => at_last_trip(c, x, last),
            Cond::Or(a, b) => [a, b]
                .iter()
                .any(|c| at_last_trip(&Cond::not((***c).clone()), x, last)),
            Cond::Cmp(Rel::Ne, a, b) => {
                at_last_trip(&Cond::Cmp(Rel::Eq, a.clone(), b.clone()), x, last)
            }
            _ => false,
        },
        Cond::Cmp(Rel::Eq, a, b) => (is_x(a) && same(b)) || (is_x(b) && same(a)),
        _ => false,
    }
}

fn piece(code: Unsync) -> Interval {
    Interval {
        binders: vec![],
        cond: Cond::Bool(true),
        code,
        start: None,
        end: None,
    }
}

impl Splitter {
    /// A name no source variable has: `x#1`, `x#2`, … (`#` is not an
    /// identifier character in CUDA or the protocol text format).
    fn fresh(&mut self, var: &str) -> String {
        self.fresh += 1;
        let base = var.split('#').next().unwrap_or(var);
        format!("{base}#{}", self.fresh)
    }

    fn items(&mut self, items: &[Synced]) -> Summary {
        let mut acc = Summary {
            pass: vec![piece(Unsync::Skip)],
            ..Summary::default()
        };
        for item in items {
            let s = self.item(item);
            acc = self.then(acc, s);
        }
        acc
    }

    fn item(&mut self, item: &Synced) -> Summary {
        match item {
            Synced::Code(u) => Summary {
                pass: vec![piece(u.clone())],
                ..Summary::default()
            },
            Synced::Barrier(loc) => Summary {
                heads: vec![Interval {
                    end: Some(*loc),
                    ..piece(Unsync::Skip)
                }],
                tails: vec![Interval {
                    start: Some(*loc),
                    ..piece(Unsync::Skip)
                }],
                ..Summary::default()
            },
            Synced::If {
                cond, then, els, ..
            } => {
                let a = self.items(then);
                let b = self.items(els);
                let not = Cond::not(cond.clone());
                let mut branch = |xs: Vec<Interval>, ys: Vec<Interval>| -> Vec<Interval> {
                    let mut out = Vec::with_capacity(xs.len() + ys.len());
                    for x in xs {
                        out.extend(self.conjoin(x, cond));
                    }
                    for y in ys {
                        out.extend(self.conjoin(y, &not));
                    }
                    out
                };
                let pass = branch(a.pass, b.pass);
                let heads = branch(a.heads, b.heads);
                let tails = branch(a.tails, b.tails);
                let inner = branch(a.inner, b.inner);
                Summary {
                    pass: self.merge_pass(pass),
                    heads,
                    tails,
                    inner,
                }
            }
            Synced::Loop {
                var, lo, hi, body, ..
            } => self.sync_loop(var, lo, hi, body),
        }
    }

    fn sync_loop(&mut self, x: &str, lo: &Expr, hi: &Expr, body: &[Synced]) -> Summary {
        let mut b = self.items(body);
        let mut bounds_fv = BTreeSet::new();
        lo.free_vars(&mut bounds_fv);
        hi.free_vars(&mut bounds_fv);
        // `for x in 0..x+1`: the bounds see an outer `x`, which binders of this
        // loop would capture; rename the loop's own variable.
        let renamed;
        let x = if bounds_fv.contains(x) {
            renamed = self.fresh(x);
            let by = Expr::var(&renamed);
            for list in [&mut b.pass, &mut b.heads, &mut b.tails, &mut b.inner] {
                *list = list.iter().map(|iv| self.subst(iv, x, &by)).collect();
            }
            renamed.as_str()
        } else {
            x
        };
        let x_var = Expr::var(x);
        let plus1 = |e: Expr| Expr::add(e, Expr::Int(1));
        let whole = Binder {
            var: x.to_string(),
            lo: lo.clone(),
            hi: hi.clone(),
        };
        let mut inner: Vec<Interval> = b
            .inner
            .into_iter()
            .map(|iv| self.prepend(iv, vec![whole.clone()]))
            .collect();

        if b.pass.is_empty() {
            // Every iteration crosses a barrier: the loop opens with the head of
            // its first iteration, closes with the tail of its last, and each
            // iteration's tail meets the next one's head.
            let nonempty = Cond::cmp(Rel::Lt, lo.clone(), hi.clone());
            let last = Expr::sub(hi.clone(), Expr::Int(1));
            let heads = b
                .heads
                .iter()
                .filter_map(|h| {
                    let h = self.subst(h, x, lo);
                    self.conjoin(h, &nonempty)
                })
                .collect();
            let tails = b
                .tails
                .iter()
                .filter_map(|t| {
                    let t = self.subst(t, x, &last);
                    self.conjoin(t, &nonempty)
                })
                .collect();
            let but_last = Binder {
                var: x.to_string(),
                lo: lo.clone(),
                hi: last.clone(),
            };
            for t in b.tails.iter().filter(|t| !at_last_trip(&t.cond, x, &last)) {
                for h in &b.heads {
                    let next = self.subst(h, x, &plus1(x_var.clone()));
                    if let Some(iv) = self.product(t, &next) {
                        inner.push(self.prepend(iv, vec![but_last.clone()]));
                    }
                }
            }
            let empty = Cond::cmp(Rel::Ge, lo.clone(), hi.clone());
            return Summary {
                pass: vec![Interval {
                    cond: empty,
                    ..piece(Unsync::Skip)
                }],
                heads,
                tails,
                inner,
            };
        }

        // Some iterations may cross no barrier (say, all barriers sit in an
        // inner loop that may be empty). Such iterations join the tail of an
        // earlier iteration `a` and the head of a later one `b` in one
        // interval, which exists only if every iteration in between crosses
        // no barrier: a bounded universal over their passing condition.
        let pass_pieces = b.pass;
        let passing = |s: &mut Splitter, from: Expr, to: Expr| -> Interval {
            let v = s.fresh(x);
            let mut steps = Vec::new();
            let mut passes = Cond::Bool(false);
            for p in &pass_pieces {
                debug_assert!(p.binders.is_empty(), "passing pieces bind nothing");
                let cond = p.cond.subst(x, &Expr::var(&v));
                passes = Cond::or(passes, cond.clone());
                let code = subst_unsync(&p.code, x, &Expr::var(&v));
                if !has_access(&code) {
                    continue;
                }
                steps.push(match cond {
                    Cond::Bool(true) => code,
                    c => Unsync::If(c, Box::new(code), Box::new(Unsync::Skip)),
                });
            }
            let all_pass = match passes {
                Cond::Bool(true) => Cond::Bool(true),
                body => {
                    let w = s.fresh(x);
                    let body = body.subst(&v, &Expr::var(&w));
                    Cond::Forall {
                        var: w,
                        lo: from.clone(),
                        hi: to.clone(),
                        body: Box::new(body),
                    }
                }
            };
            let code = if steps.is_empty() {
                Unsync::Skip
            } else {
                let body = if steps.len() == 1 {
                    steps.pop().unwrap()
                } else {
                    Unsync::Seq(steps)
                };
                Unsync::For {
                    var: v,
                    lo: from,
                    hi: to,
                    body: Box::new(body),
                }
            };
            Interval {
                cond: all_pass,
                ..piece(code)
            }
        };

        let mut heads = Vec::new();
        for h in &b.heads {
            let bv = self.fresh(x);
            let before = passing(self, lo.clone(), Expr::var(&bv));
            let h = self.subst(h, x, &Expr::var(&bv));
            if let Some(iv) = self.product(&before, &h) {
                let binder = Binder {
                    var: bv,
                    lo: lo.clone(),
                    hi: hi.clone(),
                };
                heads.push(self.prepend(iv, vec![binder]));
            }
        }
        let mut tails = Vec::new();
        for t in &b.tails {
            let av = self.fresh(x);
            let t = self.subst(t, x, &Expr::var(&av));
            let after = passing(self, plus1(Expr::var(&av)), hi.clone());
            if let Some(iv) = self.product(&t, &after) {
                let binder = Binder {
                    var: av,
                    lo: lo.clone(),
                    hi: hi.clone(),
                };
                tails.push(self.prepend(iv, vec![binder]));
            }
        }
        let last = Expr::sub(hi.clone(), Expr::Int(1));
        for t in b.tails.iter().filter(|t| !at_last_trip(&t.cond, x, &last)) {
            for h in &b.heads {
                let bv = self.fresh(x);
                let between = passing(self, plus1(x_var.clone()), Expr::var(&bv));
                let h = self.subst(h, x, &Expr::var(&bv));
                let Some(iv) = self.product(t, &between) else {
                    continue;
                };
                let Some(iv) = self.product(&iv, &h) else {
                    continue;
                };
                let binders = vec![
                    whole.clone(),
                    Binder {
                        var: bv,
                        lo: plus1(x_var.clone()),
                        hi: hi.clone(),
                    },
                ];
                inner.push(self.prepend(iv, binders));
            }
        }
        let pass = vec![passing(self, lo.clone(), hi.clone())];
        Summary {
            pass,
            heads,
            tails,
            inner,
        }
    }

    fn then(&mut self, a: Summary, b: Summary) -> Summary {
        let pass = self.products(&a.pass, &b.pass);
        let mut heads = a.heads;
        heads.extend(self.products(&a.pass, &b.heads));
        let mut tails = b.tails;
        tails.extend(self.products(&a.tails, &b.pass));
        let mut inner = a.inner;
        inner.extend(b.inner);
        inner.extend(self.products(&a.tails, &b.heads));
        Summary {
            pass: self.merge_pass(pass),
            heads,
            tails,
            inner,
        }
    }

    fn products(&mut self, xs: &[Interval], ys: &[Interval]) -> Vec<Interval> {
        let mut out = Vec::with_capacity(xs.len() * ys.len());
        for x in xs {
            for y in ys {
                out.extend(self.product(x, y));
            }
        }
        out
    }

    /// `p` then `q` in one interval; `None` when the joint condition is false.
    fn product(&mut self, p: &Interval, q: &Interval) -> Option<Interval> {
        let mut q = q.clone();
        let mut taken = interval_free_vars(p);
        taken.extend(p.binders.iter().map(|b| b.var.clone()));
        self.avoid(&mut q, &taken);
        let mut p = p.clone();
        let mut taken = interval_free_vars(&q);
        taken.extend(q.binders.iter().map(|b| b.var.clone()));
        self.avoid(&mut p, &taken);
        let cond = Cond::and(p.cond, q.cond);
        if cond == Cond::Bool(false) {
            return None;
        }
        let mut binders = p.binders;
        binders.extend(q.binders);
        Some(Interval {
            binders,
            cond,
            code: seq_code(p.code, q.code),
            start: p.start,
            end: q.end,
        })
    }

    /// Passing pieces come from distinct paths through synchronized
    /// conditionals, so their conditions exclude each other and they merge
    /// exactly into one; this keeps sequences of conditionals linear.
    fn merge_pass(&mut self, pass: Vec<Interval>) -> Vec<Interval> {
        if pass.len() <= 1 || pass.iter().any(|p| !p.binders.is_empty()) {
            return pass;
        }
        let cond = pass
            .iter()
            .fold(Cond::Bool(false), |c, p| Cond::or(c, p.cond.clone()));
        let steps: Vec<Unsync> = pass
            .into_iter()
            .filter(|p| has_access(&p.code))
            .map(|p| Unsync::If(p.cond, Box::new(p.code), Box::new(Unsync::Skip)))
            .collect();
        let code = match steps.len() {
            0 => Unsync::Skip,
            1 => steps.into_iter().next().unwrap(),
            _ => Unsync::Seq(steps),
        };
        vec![Interval {
            cond,
            ..piece(code)
        }]
    }

    fn conjoin(&mut self, mut iv: Interval, c: &Cond) -> Option<Interval> {
        let mut fv = BTreeSet::new();
        c.free_vars(&mut fv);
        self.avoid(&mut iv, &fv);
        iv.cond = Cond::and(c.clone(), iv.cond);
        (iv.cond != Cond::Bool(false)).then_some(iv)
    }

    /// Closes `iv` over `binders` (outermost first), renaming binders of `iv`
    /// that the new ones would clash with.
    fn prepend(&mut self, mut iv: Interval, binders: Vec<Binder>) -> Interval {
        let mut taken = BTreeSet::new();
        for b in &binders {
            taken.insert(b.var.clone());
            b.lo.free_vars(&mut taken);
            b.hi.free_vars(&mut taken);
        }
        self.avoid(&mut iv, &taken);
        let mut all = binders;
        all.append(&mut iv.binders);
        iv.binders = all;
        iv
    }

    /// Renames the binders of `iv` whose names are in `taken`.
    fn avoid(&mut self, iv: &mut Interval, taken: &BTreeSet<String>) {
        for i in 0..iv.binders.len() {
            if taken.contains(&iv.binders[i].var) {
                let old = iv.binders[i].var.clone();
                let new = self.fresh(&old);
                rename_binder(iv, i, &new);
            }
        }
    }

    /// `iv[var := by]`, renaming binders that would capture `by`.
    fn subst(&mut self, iv: &Interval, var: &str, by: &Expr) -> Interval {
        let mut iv = iv.clone();
        let mut fv = BTreeSet::new();
        by.free_vars(&mut fv);
        self.avoid(&mut iv, &fv);
        let mut out = Interval {
            binders: Vec::new(),
            ..iv.clone()
        };
        let mut shadowed = false;
        for b in &iv.binders {
            if shadowed {
                out.binders.push(b.clone());
                continue;
            }
            out.binders.push(Binder {
                var: b.var.clone(),
                lo: b.lo.subst(var, by),
                hi: b.hi.subst(var, by),
            });
            shadowed = b.var == var;
        }
        if !shadowed {
            out.cond = iv.cond.subst(var, by);
            out.code = subst_unsync(&iv.code, var, by);
        }
        out
    }
}

/// Renames binder `i` of `iv` (and its occurrences after it) to `new`.
fn rename_binder(iv: &mut Interval, i: usize, new: &str) {
    let old = std::mem::replace(&mut iv.binders[i].var, new.to_string());
    let by = Expr::var(new);
    for b in &mut iv.binders[i + 1..] {
        b.lo = b.lo.subst(&old, &by);
        b.hi = b.hi.subst(&old, &by);
    }
    iv.cond = iv.cond.subst(&old, &by);
    iv.code = subst_unsync(&iv.code, &old, &by);
}

/// Free variables of an interval: those of its binder bounds, condition and
/// code, minus its binders.
pub(super) fn interval_free_vars(iv: &Interval) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    iv.cond.free_vars(&mut out);
    unsync_free_vars(&iv.code, &mut out);
    for b in iv.binders.iter().rev() {
        out.remove(&b.var);
        b.lo.free_vars(&mut out);
        b.hi.free_vars(&mut out);
    }
    out
}

/// Free variables of unsynchronized code (loop variables are bound in their
/// body only, not in their bounds).
pub(super) fn unsync_free_vars(u: &Unsync, out: &mut BTreeSet<String>) {
    match u {
        Unsync::Skip => {}
        Unsync::Access(a) => a
            .index
            .iter()
            .chain(a.value.iter().flat_map(crate::protocol::Value::exprs))
            .chain(a.lock.iter().flat_map(|l| &l.index))
            .for_each(|e| e.free_vars(out)),
        Unsync::Seq(items) => items.iter().for_each(|i| unsync_free_vars(i, out)),
        Unsync::If(c, a, b) => {
            c.free_vars(out);
            unsync_free_vars(a, out);
            unsync_free_vars(b, out);
        }
        Unsync::For { var, lo, hi, body } => {
            lo.free_vars(out);
            hi.free_vars(out);
            let mut inner = BTreeSet::new();
            unsync_free_vars(body, &mut inner);
            inner.remove(var);
            out.extend(inner);
        }
    }
}

/// Capture-avoiding `u[var := by]`: a loop binding a variable free in `by`
/// is renamed first.
pub(super) fn subst_unsync(u: &Unsync, var: &str, by: &Expr) -> Unsync {
    match u {
        Unsync::Skip => Unsync::Skip,
        Unsync::Access(a) => {
            let mut a = a.clone();
            a.index = a.index.iter().map(|e| e.subst(var, by)).collect();
            a.value = a.value.as_ref().map(|v| v.subst(var, by));
            a.lock = a.lock.as_ref().map(|l| l.subst(var, by));
            Unsync::Access(a)
        }
        Unsync::Seq(items) => Unsync::Seq(items.iter().map(|i| subst_unsync(i, var, by)).collect()),
        Unsync::If(c, a, b) => Unsync::If(
            c.subst(var, by),
            Box::new(subst_unsync(a, var, by)),
            Box::new(subst_unsync(b, var, by)),
        ),
        Unsync::For {
            var: v,
            lo,
            hi,
            body,
        } => {
            let lo = lo.subst(var, by);
            let hi = hi.subst(var, by);
            if v == var {
                return Unsync::For {
                    var: v.clone(),
                    lo,
                    hi,
                    body: body.clone(),
                };
            }
            let mut by_fv = BTreeSet::new();
            by.free_vars(&mut by_fv);
            if !by_fv.contains(v) {
                let body = Box::new(subst_unsync(body, var, by));
                return Unsync::For {
                    var: v.clone(),
                    lo,
                    hi,
                    body,
                };
            }
            let mut taken = by_fv;
            unsync_free_vars(body, &mut taken);
            taken.insert(var.to_string());
            let base = v.split('#').next().unwrap_or(v);
            let fresh = (1..)
                .map(|i| format!("{base}#{i}'"))
                .find(|n| !taken.contains(n))
                .unwrap();
            let body = subst_unsync(body, v, &Expr::var(&fresh));
            Unsync::For {
                var: fresh,
                lo,
                hi,
                body: Box::new(subst_unsync(&body, var, by)),
            }
        }
    }
}

/// `a; b`, flattening sequences and dropping `skip`.
pub(super) fn seq_code(a: Unsync, b: Unsync) -> Unsync {
    let mut items = Vec::new();
    for u in [a, b] {
        match u {
            Unsync::Skip => {}
            Unsync::Seq(xs) => items.extend(xs.into_iter().filter(|x| *x != Unsync::Skip)),
            u => items.push(u),
        }
    }
    match items.len() {
        0 => Unsync::Skip,
        1 => items.pop().unwrap(),
        _ => Unsync::Seq(items),
    }
}

pub(super) fn has_access(u: &Unsync) -> bool {
    match u {
        Unsync::Skip => false,
        Unsync::Access(_) => true,
        Unsync::Seq(items) => items.iter().any(has_access),
        Unsync::If(_, a, b) => has_access(a) || has_access(b),
        Unsync::For { body, .. } => has_access(body),
    }
}

/// Builders and a concrete evaluator shared by the analysis tests.
#[cfg(test)]
pub(super) mod testkit {
    use super::super::Interval;
    use crate::protocol::wf::{Synced, Unsync, WellFormed};
    use crate::protocol::{Access, Cond, Expr, Loc, Mode};
    use std::collections::HashMap;

    pub fn v(name: &str) -> Expr {
        Expr::var(name)
    }
    pub fn n(i: i64) -> Expr {
        Expr::Int(i)
    }
    pub fn add(a: Expr, b: Expr) -> Expr {
        Expr::add(a, b)
    }

    /// Numbers accesses in order of creation, as the front-end does.
    #[derive(Default)]
    pub struct Ids(pub u32);

    impl Ids {
        pub fn acc(&mut self, mode: Mode, index: Expr) -> Unsync {
            self.0 += 1;
            let loc = Loc::new(self.0, 1);
            Unsync::Access(Access {
                lock: None,
                id: self.0 - 1,
                mode,
                index: vec![index],
                loc,
                value: None,
            })
        }
        pub fn rd(&mut self, index: Expr) -> Unsync {
            self.acc(Mode::Read, index)
        }
        pub fn wr(&mut self, index: Expr) -> Unsync {
            self.acc(Mode::Write, index)
        }
    }

    pub fn ufor(var: &str, lo: Expr, hi: Expr, body: Unsync) -> Unsync {
        Unsync::For {
            var: var.into(),
            lo,
            hi,
            body: Box::new(body),
        }
    }
    pub fn sfor(var: &str, lo: Expr, hi: Expr, body: Vec<Synced>) -> Synced {
        Synced::Loop {
            var: var.into(),
            lo,
            hi,
            body,
            loc: Loc::NONE,
        }
    }
    pub fn sync(line: u32) -> Synced {
        Synced::Barrier(Loc::new(line, 0))
    }
    pub fn code(u: Unsync) -> Synced {
        Synced::Code(u)
    }
    pub fn wf(body: Vec<Synced>) -> WellFormed {
        WellFormed { body }
    }

    pub type Env = HashMap<String, i64>;

    /// The concrete evaluator's semantics, on a map.
    pub fn eval(e: &Expr, env: &Env) -> i64 {
        crate::protocol::eval::eval_expr(e, &|x: &str| env.get(x).copied())
            .unwrap_or_else(|err| panic!("{err}"))
    }

    pub fn holds(c: &Cond, env: &Env) -> bool {
        crate::protocol::eval::eval_cond(c, &|x: &str| env.get(x).copied())
            .unwrap_or_else(|err| panic!("{err}"))
    }

    /// (access id, index) of one access instance.
    pub type Hit = (u32, Vec<i64>);

    pub fn run_unsync(u: &Unsync, env: &mut Env, out: &mut Vec<Hit>) {
        match u {
            Unsync::Skip => {}
            Unsync::Access(a) => out.push((a.id, a.index.iter().map(|e| eval(e, env)).collect())),
            Unsync::Seq(items) => items.iter().for_each(|i| run_unsync(i, env, out)),
            Unsync::If(c, a, b) => {
                if holds(c, env) {
                    run_unsync(a, env, out)
                } else {
                    run_unsync(b, env, out)
                }
            }
            Unsync::For { var, lo, hi, body } => {
                let (lo, hi) = (eval(lo, env), eval(hi, env));
                let saved = env.get(var).copied();
                for i in lo..hi {
                    env.insert(var.clone(), i);
                    run_unsync(body, env, out);
                }
                restore(env, var, saved);
            }
        }
    }

    fn restore(env: &mut Env, var: &str, saved: Option<i64>) {
        match saved {
            Some(s) => env.insert(var.to_string(), s),
            None => env.remove(var),
        };
    }

    /// Runs a protocol for one thread: its phases, and whether some
    /// synchronized loop ran zero times.
    pub fn phases(items: &[Synced], env: &mut Env, out: &mut Vec<Vec<Hit>>, empty_loop: &mut bool) {
        for item in items {
            match item {
                Synced::Code(u) => run_unsync(u, env, out.last_mut().unwrap()),
                Synced::Barrier(_) => out.push(Vec::new()),
                Synced::Loop {
                    var, lo, hi, body, ..
                } => {
                    let (lo, hi) = (eval(lo, env), eval(hi, env));
                    *empty_loop |= lo >= hi;
                    let saved = env.get(var).copied();
                    for i in lo..hi {
                        env.insert(var.clone(), i);
                        phases(body, env, out, empty_loop);
                    }
                    restore(env, var, saved);
                }
                Synced::If {
                    cond, then, els, ..
                } => {
                    let branch = if holds(cond, env) { then } else { els };
                    phases(branch, env, out, empty_loop);
                }
            }
        }
    }

    /// What two threads (tid 0 and 1) do in one phase, sorted.
    pub type PairPhase = (Vec<Hit>, Vec<Hit>);

    pub fn pair(mut a: Vec<Hit>, mut b: Vec<Hit>) -> PairPhase {
        a.sort();
        b.sort();
        (a, b)
    }

    fn thread_env(params: &Env, tid: i64) -> Env {
        let mut env = params.clone();
        env.insert("tid.x".into(), tid);
        env
    }

    /// The phases of a run of threads 0 and 1, sorted, non-empty ones only.
    pub fn ground_truth(wf: &WellFormed, params: &Env) -> (Vec<PairPhase>, bool) {
        let mut empty = false;
        let mut per_thread = Vec::new();
        for tid in 0..2 {
            let mut out = vec![Vec::new()];
            phases(&wf.body, &mut thread_env(params, tid), &mut out, &mut empty);
            per_thread.push(out);
        }
        let t1 = per_thread.pop().unwrap();
        let t0 = per_thread.pop().unwrap();
        assert_eq!(t0.len(), t1.len());
        let mut all: Vec<PairPhase> = t0
            .into_iter()
            .zip(t1)
            .map(|(a, b)| pair(a, b))
            .filter(|(a, b)| !a.is_empty() || !b.is_empty())
            .collect();
        all.sort();
        (all, empty)
    }

    /// Every instance (binder values making the condition true) of every
    /// interval, as run by threads 0 and 1, sorted, non-empty ones only.
    pub fn instances(intervals: &[Interval], params: &Env) -> Vec<PairPhase> {
        let mut all = Vec::new();
        for iv in intervals {
            enumerate(iv, 0, &mut params.clone(), &mut all);
        }
        all.retain(|(a, b)| !a.is_empty() || !b.is_empty());
        all.sort();
        all
    }

    fn enumerate(iv: &Interval, i: usize, env: &mut Env, out: &mut Vec<PairPhase>) {
        if let Some(b) = iv.binders.get(i) {
            let (lo, hi) = (eval(&b.lo, env), eval(&b.hi, env));
            let saved = env.get(&b.var).copied();
            for x in lo..hi {
                env.insert(b.var.clone(), x);
                enumerate(iv, i + 1, env, out);
            }
            restore(env, &b.var, saved);
            return;
        }
        if !holds(&iv.cond, env) {
            return;
        }
        let mut hits = Vec::new();
        for tid in 0..2 {
            let mut h = Vec::new();
            run_unsync(&iv.code, &mut thread_env(env, tid), &mut h);
            hits.push(h);
        }
        let b = hits.pop().unwrap();
        let a = hits.pop().unwrap();
        out.push(pair(a, b));
    }

    /// A small deterministic generator (xorshift) for random protocols.
    pub struct Rng(pub u64);

    impl Rng {
        pub fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
        fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
            xs[self.below(xs.len() as u64) as usize].clone()
        }
    }

    /// Random well-formed protocols over param `N` and `tid.x`, with
    /// synchronized loops (sometimes shadowing), synchronized conditionals
    /// (when `conds`), unsynchronized loops and conditionals.
    pub struct Gen {
        pub rng: Rng,
        pub ids: Ids,
        pub conds: bool,
        line: u32,
    }

    impl Gen {
        pub fn new(seed: u64, conds: bool) -> Gen {
            Gen {
                rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
                ids: Ids::default(),
                conds,
                line: 100,
            }
        }

        fn index(&mut self, scope: &[String]) -> Expr {
            let mut choices = vec![
                v("tid.x"),
                add(v("tid.x"), n(1)),
                n(0),
                Expr::sub(v("N"), v("tid.x")),
            ];
            for x in scope {
                choices.push(v(x));
                choices.push(add(v("tid.x"), v(x)));
            }
            self.rng.pick(&choices)
        }

        fn unsync(&mut self, scope: &[String]) -> Unsync {
            let mode = if self.rng.below(2) == 0 {
                Mode::Read
            } else {
                Mode::Write
            };
            match self.rng.below(4) {
                0 => {
                    let mut inner = scope.to_vec();
                    inner.push("i".into());
                    let idx = self.index(&inner);
                    ufor("i", n(0), n(2), self.ids.acc(mode, idx))
                }
                1 => {
                    let idx = self.index(scope);
                    let a = self.ids.acc(mode, idx);
                    Unsync::If(
                        Cond::cmp(crate::protocol::Rel::Eq, v("tid.x"), n(0)),
                        Box::new(a),
                        Box::new(Unsync::Skip),
                    )
                }
                _ => {
                    let idx = self.index(scope);
                    self.ids.acc(mode, idx)
                }
            }
        }

        fn barrier(&mut self) -> Synced {
            self.line += 1;
            sync(self.line)
        }

        pub fn items(&mut self, depth: u32, scope: &[String], need_sync: bool) -> Vec<Synced> {
            let len = 1 + self.rng.below(3);
            let mut items = Vec::new();
            for _ in 0..len {
                let k = if depth == 0 {
                    self.rng.below(2)
                } else {
                    self.rng.below(if self.conds { 5 } else { 4 })
                };
                items.push(match k {
                    0 => code(self.unsync(scope)),
                    1 => self.barrier(),
                    2 | 3 => {
                        let var = self.rng.pick(&["x", "y"]).to_string();
                        let mut lows = vec![n(0), n(1)];
                        let mut highs = vec![v("N"), n(2), Expr::sub(v("N"), n(1))];
                        for x in scope {
                            lows.push(v(x));
                            highs.push(add(v(x), n(1)));
                        }
                        let lo = self.rng.pick(&lows);
                        let hi = self.rng.pick(&highs);
                        let mut inner = scope.to_vec();
                        inner.push(var.clone());
                        let body = self.items(depth - 1, &inner, true);
                        sfor(&var, lo, hi, body)
                    }
                    _ => {
                        let mut conds = vec![
                            Cond::cmp(crate::protocol::Rel::Gt, v("N"), n(1)),
                            Cond::cmp(crate::protocol::Rel::Eq, v("N"), n(2)),
                        ];
                        for x in scope {
                            conds.push(Cond::cmp(crate::protocol::Rel::Eq, v(x), n(1)));
                        }
                        let cond = self.rng.pick(&conds);
                        let then = self.items(depth - 1, scope, true);
                        let els = self.items(depth - 1, scope, false);
                        Synced::If {
                            cond,
                            then,
                            els,
                            loc: Loc::NONE,
                        }
                    }
                });
            }
            if need_sync && !items.iter().any(has_barrier) {
                let at = self.rng.below(items.len() as u64 + 1) as usize;
                let b = self.barrier();
                items.insert(at, b);
            }
            items
        }
    }

    pub fn has_barrier(s: &Synced) -> bool {
        match s {
            Synced::Code(_) => false,
            Synced::Barrier(_) | Synced::Loop { .. } => true,
            Synced::If { then, els, .. } => then.iter().chain(els).any(has_barrier),
        }
    }

    /// Whether running `items` may cross no barrier.
    pub fn can_pass(items: &[Synced]) -> bool {
        items.iter().all(|s| match s {
            Synced::Code(_) | Synced::Loop { .. } => true,
            Synced::Barrier(_) => false,
            Synced::If { then, els, .. } => can_pass(then) || can_pass(els),
        })
    }

    /// Whether some synchronized loop has a body that may cross no barrier.
    pub fn has_passable_loop(items: &[Synced]) -> bool {
        items.iter().any(|s| match s {
            Synced::Code(_) | Synced::Barrier(_) => false,
            Synced::Loop { body, .. } => can_pass(body) || has_passable_loop(body),
            Synced::If { then, els, .. } => has_passable_loop(then) || has_passable_loop(els),
        })
    }

    pub fn has_sync_if(items: &[Synced]) -> bool {
        items.iter().any(|s| match s {
            Synced::Code(_) | Synced::Barrier(_) => false,
            Synced::Loop { body, .. } => has_sync_if(body),
            Synced::If { .. } => true,
        })
    }

    pub fn params(n_value: i64) -> Env {
        let mut env = Env::new();
        env.insert("N".into(), n_value);
        env.insert("M".into(), 2);
        env
    }
}

#[cfg(test)]
mod tests {
    use super::testkit::*;
    use super::*;
    use crate::protocol::Loc;

    /// Listing 2.3, optionally with code before and after the loop.
    fn listing_2_3(around: bool) -> WellFormed {
        let mut ids = Ids::default();
        let mut body = Vec::new();
        if around {
            body.push(code(ids.wr(add(v("tid.x"), n(1)))));
        }
        let w = ufor("i", n(0), v("M"), ids.wr(v("tid.x")));
        let r = ufor("j", n(0), v("M"), ids.rd(add(v("tid.x"), v("j"))));
        body.push(sfor("r", n(0), v("N"), vec![code(w), sync(3), code(r)]));
        if around {
            body.push(code(ids.rd(add(v("tid.x"), n(2)))));
        }
        wf(body)
    }

    fn lt(a: Expr, b: Expr) -> Cond {
        Cond::cmp(Rel::Lt, a, b)
    }

    #[test]
    fn listing_2_3_gives_the_papers_three_fragments() {
        let p = listing_2_3(false);
        let ivs = split(&p);
        let (w, r) = match &p.body[0] {
            Synced::Loop { body, .. } => match (&body[0], &body[2]) {
                (Synced::Code(w), Synced::Code(r)) => (w.clone(), r.clone()),
                _ => unreachable!(),
            },
            _ => unreachable!(),
        };
        let nonempty = lt(n(0), v("N"));
        let last = Expr::sub(v("N"), n(1));
        let expected = vec![
            // (1) the first iteration's writes
            Interval {
                binders: vec![],
                cond: nonempty.clone(),
                code: w.clone(),
                start: None,
                end: Some(Loc::new(3, 0)),
            },
            // (2) iteration r's reads with iteration r+1's writes
            Interval {
                binders: vec![Binder {
                    var: "r".into(),
                    lo: n(0),
                    hi: last.clone(),
                }],
                cond: Cond::Bool(true),
                code: Unsync::Seq(vec![r.clone(), w.clone()]),
                start: Some(Loc::new(3, 0)),
                end: Some(Loc::new(3, 0)),
            },
            // (3) the last iteration's reads
            Interval {
                binders: vec![],
                cond: nonempty,
                code: subst_unsync(&r, "r", &last),
                start: Some(Loc::new(3, 0)),
                end: None,
            },
        ];
        assert_eq!(ivs, expected);
    }

    #[test]
    fn empty_synchronized_loop_joins_the_code_around_it() {
        let ivs = split(&listing_2_3(true));
        assert_eq!(ivs.len(), 4);
        let empty = ivs
            .iter()
            .find(|iv| iv.start.is_none() && iv.end.is_none())
            .unwrap();
        assert_eq!(empty.cond, Cond::cmp(Rel::Ge, n(0), v("N")));
        let mut hits = Vec::new();
        let mut env = params(0);
        env.insert("tid.x".into(), 0);
        run_unsync(&empty.code, &mut env, &mut hits);
        assert_eq!(hits, vec![(0, vec![1]), (3, vec![2])]);
        // The first fragment now starts with the write before the loop.
        assert!(matches!(&ivs[0].code, Unsync::Seq(xs) if xs.len() == 2));
    }

    #[test]
    fn split_matches_concrete_runs_on_listing_2_3() {
        for around in [false, true] {
            let p = listing_2_3(around);
            let ivs = split(&p);
            for nv in 0..4 {
                let env = params(nv);
                assert_eq!(
                    instances(&ivs, &env),
                    ground_truth(&p, &env).0,
                    "N={nv} around={around}"
                );
            }
        }
    }

    /// Random protocols, small parameter values: split yields exactly the
    /// phases of a concrete run when every synchronized-loop iteration
    /// crosses a barrier, and covers every phase otherwise.
    #[test]
    fn split_agrees_with_concrete_runs_on_random_protocols() {
        let mut exact = 0;
        for seed in 0..1000 {
            let mut g = Gen::new(seed, seed % 2 == 0);
            let body = g.items(3, &[], false);
            let p = wf(body);
            let ivs = split(&p);
            let precise = !has_passable_loop(&p.body);
            for nv in 0..4 {
                let env = params(nv);
                let got = instances(&ivs, &env);
                let (want, _) = ground_truth(&p, &env);
                if precise {
                    exact += 1;
                    assert_eq!(got, want, "seed {seed} N={nv}\n{p:#?}\n{ivs:#?}");
                } else {
                    for (a, b) in &want {
                        let covered = got.iter().any(|(x, y)| {
                            a.iter().all(|h| x.contains(h)) && b.iter().all(|h| y.contains(h))
                        });
                        assert!(
                            covered,
                            "seed {seed} N={nv}: phase {a:?} {b:?} missed\n{p:#?}\n{ivs:#?}"
                        );
                    }
                }
            }
        }
        assert!(exact > 1000, "only {exact} exact comparisons");
    }

    /// Fig. 15 last-iter-first-iter: the barriers of the first inner loop
    /// may not run, so the outer loop's iterations can pass without one.
    #[test]
    fn last_iter_first_iter_covers_every_phase() {
        let mut ids = Ids::default();
        let y_loop = sfor(
            "y",
            n(1),
            add(v("x"), n(1)),
            vec![sync(2), code(ids.wr(add(add(v("tid.x"), v("x")), v("y"))))],
        );
        let z_loop = sfor(
            "z",
            Expr::bin(crate::protocol::Op::Mul, v("N"), n(2)),
            Expr::bin(crate::protocol::Op::Mul, v("N"), n(3)),
            vec![code(ids.wr(add(add(v("tid.x"), v("z")), n(1)))), sync(4)],
        );
        let p = wf(vec![sfor(
            "x",
            n(1),
            add(v("N"), n(1)),
            vec![y_loop, z_loop],
        )]);
        let ivs = split(&p);
        for nv in 0..4 {
            let env = params(nv);
            let got = instances(&ivs, &env);
            for (a, b) in ground_truth(&p, &env).0 {
                assert!(got.iter().any(
                    |(x, y)| a.iter().all(|h| x.contains(h)) && b.iter().all(|h| y.contains(h))
                ));
            }
        }
        // The race of the racy version: the last y-iteration's write
        // (tid+x+x) meets the first z-iteration's write (tid+2N+1) when the
        // z loop is not empty; both sit in one interval.
        let joint = ivs.iter().any(|iv| {
            let mut ids = Vec::new();
            let mut stack = vec![&iv.code];
            while let Some(u) = stack.pop() {
                match u {
                    Unsync::Access(a) => ids.push(a.id),
                    Unsync::Seq(xs) => stack.extend(xs),
                    Unsync::If(_, a, b) => stack.extend([&**a, &**b]),
                    Unsync::For { body, .. } => stack.push(body),
                    Unsync::Skip => {}
                }
            }
            ids.contains(&0) && ids.contains(&1)
        });
        assert!(joint);
    }

    fn size_expr(e: &Expr) -> usize {
        match e {
            Expr::Int(_) | Expr::Var(_) => 1,
            Expr::Bin(_, a, b) => 1 + size_expr(a) + size_expr(b),
            Expr::Ite(c, a, b) => 1 + size_cond(c) + size_expr(a) + size_expr(b),
        }
    }
    fn size_cond(c: &Cond) -> usize {
        match c {
            Cond::Bool(_) => 1,
            Cond::Cmp(_, a, b) => 1 + size_expr(a) + size_expr(b),
            Cond::And(a, b) | Cond::Or(a, b) => 1 + size_cond(a) + size_cond(b),
            Cond::Not(a) => 1 + size_cond(a),
            Cond::Forall { lo, hi, body, .. } => {
                1 + size_expr(lo) + size_expr(hi) + size_cond(body)
            }
        }
    }
    fn size_unsync(u: &Unsync) -> usize {
        match u {
            Unsync::Skip => 1,
            Unsync::Access(a) => 1 + a.index.iter().map(size_expr).sum::<usize>(),
            Unsync::Seq(xs) => 1 + xs.iter().map(size_unsync).sum::<usize>(),
            Unsync::If(c, a, b) => 1 + size_cond(c) + size_unsync(a) + size_unsync(b),
            Unsync::For { lo, hi, body, .. } => {
                1 + size_expr(lo) + size_expr(hi) + size_unsync(body)
            }
        }
    }
    fn size(ivs: &[Interval]) -> usize {
        ivs.iter()
            .map(|iv| {
                size_cond(&iv.cond)
                    + size_unsync(&iv.code)
                    + iv.binders
                        .iter()
                        .map(|b| 1 + size_expr(&b.lo) + size_expr(&b.hi))
                        .sum::<usize>()
            })
            .sum()
    }

    /// `for i1 in 0..N { wr[tid]; sync; for i2 in 0..N { wr[tid]; sync; … } }`
    fn nested(depth: usize, pass_through: bool) -> WellFormed {
        let mut ids = Ids::default();
        let mut body: Vec<Synced> = vec![code(ids.wr(v("tid.x"))), sync(depth as u32 + 1)];
        for d in (1..=depth).rev() {
            let l = sfor(&format!("i{d}"), n(0), v("N"), body);
            body = if pass_through || d == 1 {
                vec![l]
            } else {
                vec![code(ids.wr(v("tid.x"))), sync(d as u32), l]
            };
        }
        wf(body)
    }

    #[test]
    fn nested_synchronized_loops_stay_polynomial() {
        for pass_through in [false, true] {
            let small = split(&nested(25, pass_through));
            let big = split(&nested(50, pass_through));
            assert!(big.len() <= 2 * 50 * 50, "{} intervals", big.len());
            // Doubling the depth at most multiplies the size by 2^3.
            let (s, b) = (size(&small), size(&big));
            assert!(b <= 9 * s, "size {s} at depth 25, {b} at depth 50");
        }
        // And still exact on a small instance.
        for pass_through in [false, true] {
            let p = nested(3, pass_through);
            let ivs = split(&p);
            for nv in 0..3 {
                let env = params(nv);
                let got = instances(&ivs, &env);
                for (a, b) in ground_truth(&p, &env).0 {
                    assert!(got
                        .iter()
                        .any(|(x, y)| a.iter().all(|h| x.contains(h))
                            && b.iter().all(|h| y.contains(h))));
                }
            }
        }
    }

    #[test]
    fn synchronized_conditional_guards_both_branches() {
        let mut ids = Ids::default();
        let c = Cond::cmp(Rel::Gt, v("N"), n(1));
        let p = wf(vec![
            code(ids.wr(v("tid.x"))),
            Synced::If {
                cond: c.clone(),
                then: vec![sync(2)],
                els: vec![],
                loc: Loc::NONE,
            },
            code(ids.rd(add(v("tid.x"), n(1)))),
        ]);
        let ivs = split(&p);
        assert_eq!(ivs.len(), 3);
        assert_eq!(ivs[0].cond, c);
        assert_eq!(ivs[1].cond, c);
        assert_eq!(ivs[2].cond, Cond::not(c));
        for nv in 0..4 {
            let env = params(nv);
            assert_eq!(instances(&ivs, &env), ground_truth(&p, &env).0);
        }
    }

    #[test]
    fn shadowed_loop_variables_get_distinct_binders() {
        let mut ids = Ids::default();
        let inner = sfor(
            "x",
            v("x"),
            add(v("x"), n(2)),
            vec![code(ids.wr(add(v("tid.x"), v("x")))), sync(2)],
        );
        let p = wf(vec![sfor(
            "x",
            n(0),
            v("N"),
            vec![inner, code(ids.rd(v("x"))), sync(3)],
        )]);
        let ivs = split(&p);
        for iv in &ivs {
            let names: BTreeSet<_> = iv.binders.iter().map(|b| &b.var).collect();
            assert_eq!(names.len(), iv.binders.len(), "{iv:#?}");
        }
        for nv in 0..4 {
            let env = params(nv);
            assert_eq!(instances(&ivs, &env), ground_truth(&p, &env).0);
        }
    }

    #[test]
    fn substitution_avoids_capture() {
        let mut ids = Ids::default();
        let u = ufor("i", n(0), v("j"), ids.wr(add(v("i"), v("j"))));
        let s = subst_unsync(&u, "j", &add(v("i"), n(1)));
        let mut fv = BTreeSet::new();
        unsync_free_vars(&s, &mut fv);
        assert_eq!(fv, BTreeSet::from(["i".to_string()]));
        let mut env = Env::new();
        env.insert("i".into(), 1);
        let mut hits = Vec::new();
        run_unsync(&s, &mut env, &mut hits);
        // j = 2: the loop runs i' in 0..2 writing i' + 2.
        assert_eq!(hits, vec![(0, vec![2]), (0, vec![3])]);
    }
}
