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

fn piece(code: Unsync) -> Interval {
    Interval { binders: vec![], cond: Cond::Bool(true), code, start: None, end: None }
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
        let mut acc = Summary { pass: vec![piece(Unsync::Skip)], ..Summary::default() };
        for item in items {
            let s = self.item(item);
            acc = self.then(acc, s);
        }
        acc
    }

    fn item(&mut self, item: &Synced) -> Summary {
        match item {
            Synced::Code(u) => Summary { pass: vec![piece(u.clone())], ..Summary::default() },
            Synced::Barrier(loc) => Summary {
                heads: vec![Interval { end: Some(*loc), ..piece(Unsync::Skip) }],
                tails: vec![Interval { start: Some(*loc), ..piece(Unsync::Skip) }],
                ..Summary::default()
            },
            Synced::If { cond, then, els, .. } => {
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
                Summary { pass: self.merge_pass(pass), heads, tails, inner }
            }
            Synced::Loop { var, lo, hi, body, .. } => self.sync_loop(var, lo, hi, body),
        }
    }

    fn sync_loop(&mut self, x: &str, lo: &Expr, hi: &Expr, body: &[Synced]) -> Summary {
        let b = self.items(body);
        let x_var = Expr::var(x);
        let plus1 = |e: Expr| Expr::add(e, Expr::Int(1));
        let whole = Binder { var: x.to_string(), lo: lo.clone(), hi: hi.clone() };
        let mut inner: Vec<Interval> =
            b.inner.into_iter().map(|iv| self.prepend(iv, vec![whole.clone()])).collect();

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
            let but_last = Binder { var: x.to_string(), lo: lo.clone(), hi: last.clone() };
            for t in &b.tails {
                for h in &b.heads {
                    let next = self.subst(h, x, &plus1(x_var.clone()));
                    if let Some(iv) = self.product(t, &next) {
                        inner.push(self.prepend(iv, vec![but_last.clone()]));
                    }
                }
            }
            let empty = Cond::cmp(Rel::Ge, lo.clone(), hi.clone());
            return Summary {
                pass: vec![Interval { cond: empty, ..piece(Unsync::Skip) }],
                heads,
                tails,
                inner,
            };
        }

        // Some iterations may cross no barrier (say, all barriers sit in an
        // inner loop that may be empty). Such iterations join the tail of an
        // earlier iteration `a` and the head of a later one `b`: keep every
        // passing iteration in between, as an unsynchronized loop. This may
        // over-approximate (it does not require the iterations in between to
        // pass) but never misses a phase.
        let pass_pieces = b.pass;
        let passing = |s: &mut Splitter, from: Expr, to: Expr| -> Unsync {
            let v = s.fresh(x);
            let mut steps = Vec::new();
            for p in &pass_pieces {
                let code = subst_unsync(&p.code, x, &Expr::var(&v));
                if !has_access(&code) {
                    continue;
                }
                let cond = p.cond.subst(x, &Expr::var(&v));
                steps.push(match cond {
                    Cond::Bool(true) => code,
                    c => Unsync::If(c, Box::new(code), Box::new(Unsync::Skip)),
                });
            }
            if steps.is_empty() {
                return Unsync::Skip;
            }
            let body = if steps.len() == 1 { steps.pop().unwrap() } else { Unsync::Seq(steps) };
            Unsync::For { var: v, lo: from, hi: to, body: Box::new(body) }
        };

        let mut heads = Vec::new();
        for h in &b.heads {
            let bv = self.fresh(x);
            let before = piece(passing(self, lo.clone(), Expr::var(&bv)));
            let h = self.subst(h, x, &Expr::var(&bv));
            if let Some(iv) = self.product(&before, &h) {
                let binder = Binder { var: bv, lo: lo.clone(), hi: hi.clone() };
                heads.push(self.prepend(iv, vec![binder]));
            }
        }
        let mut tails = Vec::new();
        for t in &b.tails {
            let av = self.fresh(x);
            let t = self.subst(t, x, &Expr::var(&av));
            let after = piece(passing(self, plus1(Expr::var(&av)), hi.clone()));
            if let Some(iv) = self.product(&t, &after) {
                let binder = Binder { var: av, lo: lo.clone(), hi: hi.clone() };
                tails.push(self.prepend(iv, vec![binder]));
            }
        }
        for t in &b.tails {
            for h in &b.heads {
                let bv = self.fresh(x);
                let between = piece(passing(self, plus1(x_var.clone()), Expr::var(&bv)));
                let h = self.subst(h, x, &Expr::var(&bv));
                let Some(iv) = self.product(t, &between) else { continue };
                let Some(iv) = self.product(&iv, &h) else { continue };
                let binders = vec![
                    whole.clone(),
                    Binder { var: bv, lo: plus1(x_var.clone()), hi: hi.clone() },
                ];
                inner.push(self.prepend(iv, binders));
            }
        }
        let pass = vec![piece(passing(self, lo.clone(), hi.clone()))];
        Summary { pass, heads, tails, inner }
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
        Summary { pass: self.merge_pass(pass), heads, tails, inner }
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
        Some(Interval { binders, cond, code: seq_code(p.code, q.code), start: p.start, end: q.end })
    }

    /// Passing pieces come from distinct paths through synchronized
    /// conditionals, so their conditions exclude each other and they merge
    /// exactly into one; this keeps sequences of conditionals linear.
    fn merge_pass(&mut self, pass: Vec<Interval>) -> Vec<Interval> {
        if pass.len() <= 1 || pass.iter().any(|p| !p.binders.is_empty()) {
            return pass;
        }
        let cond = pass.iter().fold(Cond::Bool(false), |c, p| Cond::or(c, p.cond.clone()));
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
        vec![Interval { cond, ..piece(code) }]
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
        let mut out = Interval { binders: Vec::new(), ..iv.clone() };
        let mut shadowed = false;
        for b in &iv.binders {
            if shadowed {
                out.binders.push(b.clone());
                continue;
            }
            out.binders.push(Binder { var: b.var.clone(), lo: b.lo.subst(var, by), hi: b.hi.subst(var, by) });
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
        Unsync::Access(a) => a.index.iter().for_each(|e| e.free_vars(out)),
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
            Unsync::Access(a)
        }
        Unsync::Seq(items) => Unsync::Seq(items.iter().map(|i| subst_unsync(i, var, by)).collect()),
        Unsync::If(c, a, b) => Unsync::If(
            c.subst(var, by),
            Box::new(subst_unsync(a, var, by)),
            Box::new(subst_unsync(b, var, by)),
        ),
        Unsync::For { var: v, lo, hi, body } => {
            let lo = lo.subst(var, by);
            let hi = hi.subst(var, by);
            if v == var {
                return Unsync::For { var: v.clone(), lo, hi, body: body.clone() };
            }
            let mut by_fv = BTreeSet::new();
            by.free_vars(&mut by_fv);
            if !by_fv.contains(v) {
                let body = Box::new(subst_unsync(body, var, by));
                return Unsync::For { var: v.clone(), lo, hi, body };
            }
            let mut taken = by_fv;
            unsync_free_vars(body, &mut taken);
            taken.insert(var.to_string());
            let base = v.split('#').next().unwrap_or(v);
            let fresh = (1..).map(|i| format!("{base}#{i}'")).find(|n| !taken.contains(n)).unwrap();
            let body = subst_unsync(body, v, &Expr::var(&fresh));
            Unsync::For { var: fresh, lo, hi, body: Box::new(subst_unsync(&body, var, by)) }
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
