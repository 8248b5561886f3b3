//! Well-formedness (Faial §6): tag loops and conditionals as synchronized or
//! unsynchronized, and reject barriers that threads of one block may not all
//! reach (barrier divergence).

use super::{builtin, Access, ArrayProtocol, Cond, Expr, Kernel, Loc, Stmt};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Unsynchronized protocols (𝒰 in Fig. 2): no barrier anywhere inside.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unsync {
    Skip,
    Access(Access),
    Seq(Vec<Unsync>),
    If(Cond, Box<Unsync>, Box<Unsync>),
    For {
        var: String,
        lo: Expr,
        hi: Expr,
        body: Box<Unsync>,
    },
}

/// Synchronized protocols (𝒲 in Fig. 2), kept as a flat sequence of items so
/// that unsynchronized code groups with the barrier or loop on its right.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Synced {
    Code(Unsync),
    Barrier(Loc),
    /// A loop whose body contains a barrier; `lo`/`hi` are thread-global.
    Loop {
        var: String,
        lo: Expr,
        hi: Expr,
        body: Vec<Synced>,
        loc: Loc,
    },
    /// A conditional with a barrier in a branch; `cond` is thread-global.
    If {
        cond: Cond,
        then: Vec<Synced>,
        els: Vec<Synced>,
        loc: Loc,
    },
}

/// The well-formed protocol of one array.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WellFormed {
    pub body: Vec<Synced>,
}

/// A barrier that some threads of a block may reach and others not.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Divergence {
    /// The barrier.
    pub loc: Loc,
    /// Why: which condition or loop bound depends on thread-local values.
    pub reason: String,
    /// What the threads of a block must agree on for the barrier not to
    /// diverge, when it is a block barrier: the solver may show they do.
    pub guard: Option<Guard>,
}

/// A synchronized construct's question to the threads of one block: the
/// condition of a conditional, or the range of a loop. Its variables are
/// the protocol's; enclosing synchronized-loop variables are shared.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Guard {
    If(Cond),
    Range { lo: Expr, hi: Expr },
}

impl Guard {
    pub fn free_vars(&self, out: &mut BTreeSet<String>) {
        match self {
            Guard::If(c) => c.free_vars(out),
            Guard::Range { lo, hi } => {
                lo.free_vars(out);
                hi.free_vars(out);
            }
        }
    }
}

/// Tags `array.body` (Faial §6): loops and conditionals with a barrier inside
/// become [`Synced::Loop`]/[`Synced::If`], everything else is grouped into
/// [`Synced::Code`]. A synchronized construct whose bounds or condition
/// mention anything not thread-global is barrier divergence.
pub fn well_formed(kernel: &Kernel, array: &ArrayProtocol) -> Result<WellFormed, Divergence> {
    tag(kernel, array, false)
}

/// [`well_formed`] for threads of different blocks: only grid barriers
/// order them, so block barriers count as no barrier, and a grid barrier
/// must be reached by every thread of the launch: its conditions and loop
/// bounds may not depend on the block either.
pub fn well_formed_grid(kernel: &Kernel, array: &ArrayProtocol) -> Result<WellFormed, Divergence> {
    tag(kernel, array, true)
}

/// [`well_formed`] for two lanes of one warp: warp barriers order them as
/// block barriers do, and a barrier may sit under a condition every lane
/// of a warp agrees on ([`warp_uniform`]).
pub fn well_formed_warp(kernel: &Kernel, array: &ArrayProtocol) -> Result<WellFormed, Divergence> {
    let mut tagger = Tagger {
        kernel,
        grid: false,
        warp: true,
        sync_vars: Vec::new(),
    };
    let (kept, _) = uniform_warp_barriers(kernel, &array.body);
    Ok(WellFormed {
        body: tagger.block(&warp_barriers_as_block(&kept))?,
    })
}

fn tag(kernel: &Kernel, array: &ArrayProtocol, grid: bool) -> Result<WellFormed, Divergence> {
    let mut tagger = Tagger {
        kernel,
        grid,
        warp: false,
        sync_vars: Vec::new(),
    };
    Ok(WellFormed {
        body: tagger.block(&array.body)?,
    })
}

/// `stmt` with each warp barrier a block barrier.
fn warp_barriers_as_block(stmt: &Stmt) -> Stmt {
    map_warp_barriers(stmt, &mut |loc| Stmt::Sync(loc))
}

/// `stmt` with each warp barrier replaced by what `f` makes of its place.
fn map_warp_barriers(stmt: &Stmt, f: &mut dyn FnMut(Loc) -> Stmt) -> Stmt {
    match stmt {
        Stmt::WarpSync(loc) => f(*loc),
        Stmt::Skip | Stmt::Access(_) | Stmt::Sync(_) | Stmt::GridSync(_) => stmt.clone(),
        Stmt::Seq(items) => Stmt::Seq(items.iter().map(|s| map_warp_barriers(s, f)).collect()),
        Stmt::If {
            cond,
            then,
            els,
            loc,
        } => Stmt::If {
            cond: cond.clone(),
            then: Box::new(map_warp_barriers(then, f)),
            els: Box::new(map_warp_barriers(els, f)),
            loc: *loc,
        },
        Stmt::For {
            var,
            lo,
            hi,
            body,
            loc,
        } => Stmt::For {
            var: var.clone(),
            lo: lo.clone(),
            hi: hi.clone(),
            body: Box::new(map_warp_barriers(body, f)),
            loc: *loc,
        },
    }
}

/// `stmt` without warp barriers.
pub fn erase_warp_barriers(stmt: &Stmt) -> Stmt {
    map_warp_barriers(stmt, &mut |_| Stmt::Skip)
}

/// `stmt` keeping only the warp barriers every lane of a warp reaches
/// together: under conditions [`warp_uniform`] and loops whose bounds
/// every thread of the block agrees on. With the places of those dropped,
/// which order nothing in the analysis (an approximation: where lanes
/// truly disagree, `__syncwarp` with their mask is undefined behaviour).
pub fn uniform_warp_barriers(kernel: &Kernel, stmt: &Stmt) -> (Stmt, Vec<Loc>) {
    fn walk(t: &mut Tagger, s: &Stmt, reached: bool, dropped: &mut Vec<Loc>) -> Stmt {
        match s {
            Stmt::WarpSync(loc) if !reached => {
                dropped.push(*loc);
                Stmt::Skip
            }
            Stmt::Skip
            | Stmt::Access(_)
            | Stmt::Sync(_)
            | Stmt::GridSync(_)
            | Stmt::WarpSync(_) => s.clone(),
            Stmt::Seq(items) => {
                Stmt::Seq(items.iter().map(|i| walk(t, i, reached, dropped)).collect())
            }
            Stmt::If {
                cond,
                then,
                els,
                loc,
            } => {
                let together = reached && t.warp_uniform(cond);
                Stmt::If {
                    cond: cond.clone(),
                    then: Box::new(walk(t, then, together, dropped)),
                    els: Box::new(walk(t, els, together, dropped)),
                    loc: *loc,
                }
            }
            Stmt::For {
                var,
                lo,
                hi,
                body,
                loc,
            } => {
                let mut vars = BTreeSet::new();
                lo.free_vars(&mut vars);
                hi.free_vars(&mut vars);
                let together = reached && t.non_global(&vars).is_none();
                t.sync_vars.push(var.clone());
                let body = walk(t, body, together, dropped);
                t.sync_vars.pop();
                Stmt::For {
                    var: var.clone(),
                    lo: lo.clone(),
                    hi: hi.clone(),
                    body: Box::new(body),
                    loc: *loc,
                }
            }
        }
    }
    let mut tagger = Tagger {
        kernel,
        grid: false,
        warp: true,
        sync_vars: Vec::new(),
    };
    let mut dropped = Vec::new();
    let kept = walk(&mut tagger, stmt, true, &mut dropped);
    (kept, dropped)
}

/// The same code with every barrier removed and every loop and conditional
/// unsynchronized: what threads of different blocks, which barriers do not
/// order, run.
pub fn erase_barriers(stmt: &Stmt) -> Unsync {
    match stmt {
        Stmt::Skip | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => Unsync::Skip,
        Stmt::Access(a) => Unsync::Access(a.clone()),
        Stmt::Seq(items) => {
            let mut out = Vec::new();
            for s in items {
                push_flat(&mut out, erase_barriers(s));
            }
            seq_of(out)
        }
        Stmt::If {
            cond, then, els, ..
        } => Unsync::If(
            cond.clone(),
            Box::new(erase_barriers(then)),
            Box::new(erase_barriers(els)),
        ),
        Stmt::For {
            var, lo, hi, body, ..
        } => Unsync::For {
            var: var.clone(),
            lo: lo.clone(),
            hi: hi.clone(),
            body: Box::new(erase_barriers(body)),
        },
    }
}

impl WellFormed {
    /// Back to a source protocol, so the evaluator can run tagged and
    /// transformed protocols and compare them with the original.
    pub fn to_stmt(&self) -> Stmt {
        items_to_stmt(&self.body)
    }
}

/// A synchronized sequence as a source protocol.
pub fn items_to_stmt(items: &[Synced]) -> Stmt {
    Stmt::Seq(
        items
            .iter()
            .map(|item| match item {
                Synced::Code(u) => u.to_stmt(),
                Synced::Barrier(loc) => Stmt::Sync(*loc),
                Synced::Loop {
                    var,
                    lo,
                    hi,
                    body,
                    loc,
                } => Stmt::For {
                    var: var.clone(),
                    lo: lo.clone(),
                    hi: hi.clone(),
                    body: Box::new(items_to_stmt(body)),
                    loc: *loc,
                },
                Synced::If {
                    cond,
                    then,
                    els,
                    loc,
                } => Stmt::If {
                    cond: cond.clone(),
                    then: Box::new(items_to_stmt(then)),
                    els: Box::new(items_to_stmt(els)),
                    loc: *loc,
                },
            })
            .collect(),
    )
}

/// Every access of `u`, in program order.
pub fn unsync_accesses<'a>(u: &'a Unsync, out: &mut Vec<&'a Access>) {
    match u {
        Unsync::Skip => {}
        Unsync::Access(a) => out.push(a),
        Unsync::Seq(items) => items.iter().for_each(|i| unsync_accesses(i, out)),
        Unsync::If(_, a, b) => {
            unsync_accesses(a, out);
            unsync_accesses(b, out);
        }
        Unsync::For { body, .. } => unsync_accesses(body, out),
    }
}

/// Every access of a synchronized sequence, in program order.
pub fn items_accesses<'a>(items: &'a [Synced], out: &mut Vec<&'a Access>) {
    for item in items {
        match item {
            Synced::Code(u) => unsync_accesses(u, out),
            Synced::Barrier(_) => {}
            Synced::Loop { body, .. } => items_accesses(body, out),
            Synced::If { then, els, .. } => {
                items_accesses(then, out);
                items_accesses(els, out);
            }
        }
    }
}

/// Substitutes `var` by `by` in every item. A loop binding `var` shadows it in
/// its body. Not capture-avoiding: callers rename binders apart first, so no
/// binder may occur free in `by`.
pub fn subst_items(items: &[Synced], var: &str, by: &Expr) -> Vec<Synced> {
    items
        .iter()
        .map(|item| match item {
            Synced::Code(u) => Synced::Code(u.subst(var, by)),
            Synced::Barrier(loc) => Synced::Barrier(*loc),
            Synced::Loop {
                var: v,
                lo,
                hi,
                body,
                loc,
            } => Synced::Loop {
                var: v.clone(),
                lo: lo.subst(var, by),
                hi: hi.subst(var, by),
                body: if v == var {
                    body.clone()
                } else {
                    subst_items(body, var, by)
                },
                loc: *loc,
            },
            Synced::If {
                cond,
                then,
                els,
                loc,
            } => Synced::If {
                cond: cond.subst(var, by),
                then: subst_items(then, var, by),
                els: subst_items(els, var, by),
                loc: *loc,
            },
        })
        .collect()
}

/// Free variables of a synchronized sequence (loop variables are bound in
/// their bodies).
pub fn items_free_vars(items: &[Synced], out: &mut BTreeSet<String>) {
    for item in items {
        match item {
            Synced::Code(u) => u.free_vars(out),
            Synced::Barrier(_) => {}
            Synced::Loop {
                var, lo, hi, body, ..
            } => {
                lo.free_vars(out);
                hi.free_vars(out);
                let mut inner = BTreeSet::new();
                items_free_vars(body, &mut inner);
                inner.remove(var);
                out.extend(inner);
            }
            Synced::If {
                cond, then, els, ..
            } => {
                cond.free_vars(out);
                items_free_vars(then, out);
                items_free_vars(els, out);
            }
        }
    }
}

impl Unsync {
    /// Substitutes `var` by `by`; a loop binding `var` shadows it in its
    /// body. Not capture-avoiding: callers rename binders apart first, so no
    /// binder may occur free in `by`.
    pub fn subst(&self, var: &str, by: &Expr) -> Unsync {
        match self {
            Unsync::Skip => Unsync::Skip,
            Unsync::Access(a) => Unsync::Access(Access {
                index: a.index.iter().map(|e| e.subst(var, by)).collect(),
                value: a.value.as_ref().map(|v| v.subst(var, by)),
                lock: a.lock.as_ref().map(|l| l.subst(var, by)),
                ..a.clone()
            }),
            Unsync::Seq(items) => Unsync::Seq(items.iter().map(|u| u.subst(var, by)).collect()),
            Unsync::If(c, a, b) => Unsync::If(
                c.subst(var, by),
                Box::new(a.subst(var, by)),
                Box::new(b.subst(var, by)),
            ),
            Unsync::For {
                var: v,
                lo,
                hi,
                body,
            } => Unsync::For {
                var: v.clone(),
                lo: lo.subst(var, by),
                hi: hi.subst(var, by),
                body: if v == var {
                    body.clone()
                } else {
                    Box::new(body.subst(var, by))
                },
            },
        }
    }

    /// As a source protocol; source positions of loops and conditionals are
    /// not kept in unsynchronized code.
    pub fn to_stmt(&self) -> Stmt {
        match self {
            Unsync::Skip => Stmt::Skip,
            Unsync::Access(a) => Stmt::Access(a.clone()),
            Unsync::Seq(items) => Stmt::Seq(items.iter().map(Unsync::to_stmt).collect()),
            Unsync::If(c, a, b) => Stmt::If {
                cond: c.clone(),
                then: Box::new(a.to_stmt()),
                els: Box::new(b.to_stmt()),
                loc: Loc::NONE,
            },
            Unsync::For { var, lo, hi, body } => Stmt::For {
                var: var.clone(),
                lo: lo.clone(),
                hi: hi.clone(),
                body: Box::new(body.to_stmt()),
                loc: Loc::NONE,
            },
        }
    }

    /// Free variables (loop variables are bound in their bodies).
    pub fn free_vars(&self, out: &mut BTreeSet<String>) {
        match self {
            Unsync::Skip => {}
            Unsync::Access(a) => a.index.iter().for_each(|e| e.free_vars(out)),
            Unsync::Seq(items) => items.iter().for_each(|u| u.free_vars(out)),
            Unsync::If(c, a, b) => {
                c.free_vars(out);
                a.free_vars(out);
                b.free_vars(out);
            }
            Unsync::For { var, lo, hi, body } => {
                lo.free_vars(out);
                hi.free_vars(out);
                let mut inner = BTreeSet::new();
                body.free_vars(&mut inner);
                inner.remove(var);
                out.extend(inner);
            }
        }
    }
}

/// Appends `u` to a sequence, splicing nested sequences and dropping skips.
fn push_flat(out: &mut Vec<Unsync>, u: Unsync) {
    match u {
        Unsync::Skip => {}
        Unsync::Seq(items) => out.extend(items),
        u => out.push(u),
    }
}

fn seq_of(mut items: Vec<Unsync>) -> Unsync {
    match items.len() {
        0 => Unsync::Skip,
        1 => items.pop().unwrap_or(Unsync::Skip),
        _ => Unsync::Seq(items),
    }
}

/// The first barrier inside `stmt`, in program order (only grid barriers
/// when `grid`).
fn first_barrier(stmt: &Stmt, grid: bool) -> Option<Loc> {
    match stmt {
        Stmt::Skip | Stmt::Access(_) | Stmt::WarpSync(_) => None,
        Stmt::Sync(_) if grid => None,
        Stmt::Sync(loc) | Stmt::GridSync(loc) => Some(*loc),
        Stmt::Seq(items) => items.iter().find_map(|s| first_barrier(s, grid)),
        Stmt::If { then, els, .. } => {
            first_barrier(then, grid).or_else(|| first_barrier(els, grid))
        }
        Stmt::For { body, .. } => first_barrier(body, grid),
    }
}

struct Tagger<'k> {
    kernel: &'k Kernel,
    /// Tagging for threads of different blocks (see [`well_formed_grid`]).
    grid: bool,
    /// Tagging for two lanes of one warp (see [`well_formed_warp`]).
    warp: bool,
    /// Enclosing synchronized-loop variables: thread-global by construction.
    sync_vars: Vec<String>,
}

impl Tagger<'_> {
    fn block(&mut self, stmt: &Stmt) -> Result<Vec<Synced>, Divergence> {
        let mut out = Vec::new();
        let mut pending = Vec::new();
        self.items(stmt, &mut out, &mut pending)?;
        flush(&mut out, &mut pending);
        Ok(out)
    }

    /// Appends the items of `stmt` to `out`; unsynchronized code accumulates
    /// in `pending` until the next barrier or synchronized construct.
    fn items(
        &mut self,
        stmt: &Stmt,
        out: &mut Vec<Synced>,
        pending: &mut Vec<Unsync>,
    ) -> Result<(), Divergence> {
        let synchronized = if self.grid {
            stmt.has_grid_sync()
        } else {
            stmt.has_sync()
        };
        if !synchronized {
            push_flat(pending, erase_barriers(stmt));
            return Ok(());
        }
        match stmt {
            Stmt::Skip | Stmt::Access(_) | Stmt::WarpSync(_) => {}
            Stmt::Seq(items) => {
                for s in items {
                    self.items(s, out, pending)?;
                }
            }
            Stmt::Sync(loc) | Stmt::GridSync(loc) => {
                flush(out, pending);
                out.push(Synced::Barrier(*loc));
            }
            Stmt::If {
                cond,
                then,
                els,
                loc,
            } => {
                let mut vars = BTreeSet::new();
                cond.free_vars(&mut vars);
                let why = self.non_global(&vars);
                let guard = Guard::If(cond.clone());
                if let Some(why) = why
                    .filter(|_| !(self.warp && self.warp_uniform(cond)))
                    .filter(|_| !self.shown_uniform(&guard))
                {
                    return Err(self.divergence(
                        stmt,
                        format!("is under a conditional at {loc} whose condition depends on {why}"),
                        guard,
                    ));
                }
                let then = self.block(then)?;
                let els = self.block(els)?;
                flush(out, pending);
                out.push(Synced::If {
                    cond: cond.clone(),
                    then,
                    els,
                    loc: *loc,
                });
            }
            Stmt::For {
                var,
                lo,
                hi,
                body,
                loc,
            } => {
                let guard = Guard::Range {
                    lo: lo.clone(),
                    hi: hi.clone(),
                };
                for (bound, e) in [("lower bound", lo), ("upper bound", hi)] {
                    let mut vars = BTreeSet::new();
                    e.free_vars(&mut vars);
                    match self.non_global(&vars) {
                        Some(_) if self.shown_uniform(&guard) => {}
                        Some(why) => {
                            return Err(self.divergence(
                                stmt,
                                format!("is inside the loop over `{var}` at {loc} whose {bound} depends on {why}"),
                                guard,
                            ));
                        }
                        None => {}
                    }
                }
                self.sync_vars.push(var.clone());
                let body = self.block(body);
                self.sync_vars.pop();
                let body = body?;
                flush(out, pending);
                out.push(Synced::Loop {
                    var: var.clone(),
                    lo: lo.clone(),
                    hi: hi.clone(),
                    body,
                    loc: *loc,
                });
            }
        }
        Ok(())
    }

    /// Whether the lanes of each warp agree on `c`: it is thread-global, or
    /// compares the thread id with a multiple of the warp size (`tid < 32`,
    /// `tid >= 64`) or the warp number (`tid / 32 == w`) with a thread-global
    /// value, in a block whose rows are whole warps (one-dimensional, or
    /// `blockDim.x` a multiple of 32).
    fn warp_uniform(&self, c: &Cond) -> bool {
        use super::{Op, Rel};
        let global = |e: &Expr| {
            let mut vars = BTreeSet::new();
            e.free_vars(&mut vars);
            self.non_global(&vars).is_none()
        };
        let rows_are_warps = || {
            let fixed = |d: usize| super::fixed_value(&self.kernel.assumes, builtin::BLOCK_DIM[d]);
            (fixed(1) == Some(1) && fixed(2) == Some(1))
                || fixed(0).is_some_and(|n| n % builtin::WARP_SIZE == 0)
        };
        let tid = |e: &Expr| matches!(e, Expr::Var(v) if v == builtin::TID[0]);
        let warp_number = |e: &Expr| match e {
            Expr::Bin(Op::Div, a, b) => {
                tid(a) && matches!(**b, Expr::Int(k) if k > 0 && k % builtin::WARP_SIZE == 0)
            }
            _ => false,
        };
        match c {
            Cond::Bool(_) => true,
            Cond::And(a, b) | Cond::Or(a, b) => self.warp_uniform(a) && self.warp_uniform(b),
            Cond::Not(a) => self.warp_uniform(a),
            Cond::Cmp(rel, a, b) => {
                if global(a) && global(b) {
                    return true;
                }
                let (rel, side, other) = if global(b) {
                    (*rel, a, b)
                } else if global(a) {
                    let flipped = rel.flip();
                    (flipped, b, a)
                } else {
                    return false;
                };
                if !rows_are_warps() {
                    return false;
                }
                if warp_number(side) {
                    return true;
                }
                // Lanes 32k..32k+31 all lie on one side of the bound.
                let Expr::Int(n) = *other else {
                    return false;
                };
                let w = builtin::WARP_SIZE;
                tid(side)
                    && match rel {
                        Rel::Lt | Rel::Ge => n.rem_euclid(w) == 0,
                        Rel::Le | Rel::Gt => (n + 1).rem_euclid(w) == 0,
                        Rel::Eq | Rel::Ne => false,
                    }
            }
            Cond::Forall { .. } => false,
        }
    }

    /// Describes the first variable of `vars` that threads of one block (of
    /// the grid, for grid barriers) may disagree on, if any.
    fn non_global(&self, vars: &BTreeSet<String>) -> Option<String> {
        vars.iter().find_map(|v| {
            if self.sync_vars.contains(v) {
                None
            } else if builtin::TID.contains(&v.as_str()) {
                Some(format!("the thread id `{v}`"))
            } else if self.grid && builtin::BID.contains(&v.as_str()) {
                Some(format!("the block id `{v}`"))
            } else if self.grid
                && (self.kernel.block_uniform.contains(v)
                    || self.kernel.control_uniform.contains(v))
            {
                Some(format!("`{v}`, which differs between blocks"))
            } else if self.kernel.block_uniform.contains(v)
                || self.kernel.control_uniform.contains(v)
            {
                None
            } else if self.kernel.is_local(v) {
                Some(format!("the thread-local `{v}`"))
            } else if builtin::BID.contains(&v.as_str()) || self.kernel.is_param(v) {
                None
            } else {
                Some(format!("`{v}`, which is not thread-global"))
            }
        })
    }
}

fn flush(out: &mut Vec<Synced>, pending: &mut Vec<Unsync>) {
    if !pending.is_empty() {
        out.push(Synced::Code(seq_of(std::mem::take(pending))));
    }
}

impl Tagger<'_> {
    fn divergence(&self, construct: &Stmt, what: String, guard: Guard) -> Divergence {
        let loc = first_barrier(construct, self.grid).unwrap_or(Loc::NONE);
        let which = if self.grid { "grid barrier" } else { "barrier" };
        Divergence {
            loc,
            reason: format!("{which} at {loc} {what}"),
            guard: (!self.grid).then_some(guard),
        }
    }

    /// Whether the solver showed that the threads of a block agree on
    /// `guard` (`Kernel::uniform_guards`). For a grid barrier, so do the
    /// threads of different blocks when the guard reads nothing a block
    /// has of its own: every block has the same thread ids.
    fn shown_uniform(&self, guard: &Guard) -> bool {
        if !self.kernel.uniform_guards.contains(guard) {
            return false;
        }
        if !self.grid {
            return true;
        }
        let mut vars = BTreeSet::new();
        guard.free_vars(&mut vars);
        !vars.iter().any(|v| {
            builtin::BID.contains(&v.as_str())
                || self.kernel.block_uniform.contains(v)
                || self.kernel.control_uniform.contains(v)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Mode, Rel, Scope};

    fn var(v: &str) -> Expr {
        Expr::var(v)
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
    fn uacc(id: u32, mode: Mode, index: Expr) -> Unsync {
        Unsync::Access(Access {
            lock: None,
            id,
            mode,
            index: vec![index],
            loc: Loc::new(id + 1, 1),
            value: None,
        })
    }
    fn sync(line: u32) -> Stmt {
        Stmt::Sync(Loc::new(line, 5))
    }
    fn for_(v: &str, lo: Expr, hi: Expr, body: Stmt) -> Stmt {
        Stmt::For {
            var: v.into(),
            lo,
            hi,
            body: Box::new(body),
            loc: Loc::new(50, 1),
        }
    }
    fn ufor(v: &str, lo: Expr, hi: Expr, body: Unsync) -> Unsync {
        Unsync::For {
            var: v.into(),
            lo,
            hi,
            body: Box::new(body),
        }
    }
    fn if_(cond: Cond, then: Stmt) -> Stmt {
        Stmt::If {
            cond,
            then: Box::new(then),
            els: Box::new(Stmt::Skip),
            loc: Loc::new(60, 1),
        }
    }
    fn kernel() -> Kernel {
        Kernel {
            name: "k".into(),
            params: vec!["N".into(), "M".into()],
            locals: vec!["x".into()],
            ..Kernel::default()
        }
    }
    #[test]
    fn warp_barriers_stay_where_every_lane_of_a_warp_reaches_them() {
        use crate::protocol::Op;
        let warp = || Stmt::WarpSync(Loc::new(9, 3));
        let tid = || var("tid.x");
        let one_dim = Kernel {
            assumes: vec![
                Cond::cmp(Rel::Eq, var("blockDim.y"), Expr::Int(1)),
                Cond::cmp(Rel::Eq, var("blockDim.z"), Expr::Int(1)),
            ],
            ..kernel()
        };
        let kept = |k: &Kernel, c: Cond| {
            let (s, dropped) = uniform_warp_barriers(k, &if_(c, warp()));
            assert_eq!(s.has_warp_sync(), dropped.is_empty());
            dropped.is_empty()
        };
        let lt = |a: Expr, n: i64| Cond::cmp(Rel::Lt, a, Expr::Int(n));
        // Whole warps on one side of the bound.
        assert!(kept(&one_dim, lt(tid(), 64)));
        assert!(kept(&one_dim, Cond::cmp(Rel::Gt, tid(), Expr::Int(31))));
        assert!(!kept(&one_dim, Cond::cmp(Rel::Ge, Expr::Int(96), tid())));
        assert!(kept(&one_dim, Cond::cmp(Rel::Ge, Expr::Int(95), tid())));
        let warp_number = Expr::bin(Op::Div, tid(), Expr::Int(32));
        assert!(kept(&one_dim, Cond::cmp(Rel::Eq, warp_number, var("N"))));
        assert!(kept(&one_dim, lt(var("N"), 3)));
        // Lanes disagree.
        assert!(!kept(&one_dim, lt(tid(), 16)));
        let lane = Expr::bin(Op::Mod, tid(), Expr::Int(32));
        assert!(!kept(&one_dim, lt(lane, 16)));
        assert!(!kept(&one_dim, lt(var("x"), 1)));
        // Rows of 48 threads split warps: `tid.x < 32` holds for part of
        // the second warp.
        assert!(!kept(&kernel(), lt(tid(), 32)));
        let rows_of_64 = Kernel {
            assumes: vec![Cond::cmp(Rel::Eq, var("blockDim.x"), Expr::Int(64))],
            ..kernel()
        };
        assert!(kept(&rows_of_64, lt(tid(), 32)));
        // A loop over the thread's own bound, and the same loop over N.
        let body = Stmt::seq(vec![acc(0, Mode::Write, tid()), warp()]);
        let (_, dropped) =
            uniform_warp_barriers(&one_dim, &for_("i", tid(), var("N"), body.clone()));
        assert_eq!(dropped, vec![Loc::new(9, 3)]);
        let (_, dropped) =
            uniform_warp_barriers(&one_dim, &for_("i", Expr::Int(0), var("N"), body));
        assert!(dropped.is_empty());
    }

    #[test]
    fn lanes_of_one_warp_tag_warp_barriers_as_barriers() {
        let body = Stmt::seq(vec![
            acc(0, Mode::Write, var("tid.x")),
            if_(
                Cond::cmp(Rel::Lt, var("tid.x"), Expr::Int(32)),
                Stmt::WarpSync(Loc::new(7, 1)),
            ),
            acc(1, Mode::Read, var("tid.x")),
        ]);
        let one_dim = Kernel {
            assumes: vec![
                Cond::cmp(Rel::Eq, var("blockDim.y"), Expr::Int(1)),
                Cond::cmp(Rel::Eq, var("blockDim.z"), Expr::Int(1)),
            ],
            ..kernel()
        };
        let array = ArrayProtocol {
            name: "a".into(),
            scope: Scope::Shared,
            body,
            loc: Loc::NONE,
        };
        let across = well_formed(&one_dim, &array).unwrap();
        assert!(across.body.iter().all(|i| matches!(i, Synced::Code(_))));
        let within = well_formed_warp(&one_dim, &array).unwrap();
        assert!(within
            .body
            .iter()
            .any(|i| matches!(i, Synced::If { then, .. } if then == &vec![Synced::Barrier(Loc::new(7, 1))])));
    }

    fn tag(body: Stmt) -> Result<WellFormed, Divergence> {
        let array = ArrayProtocol {
            name: "a".into(),
            scope: Scope::Shared,
            body,
            loc: Loc::NONE,
        };
        well_formed(&kernel(), &array)
    }

    #[test]
    fn grid_barriers_must_be_reached_by_every_block() {
        let array = |body| ArrayProtocol {
            name: "a".into(),
            scope: Scope::Global,
            body,
            loc: Loc::NONE,
        };
        let grid = Stmt::GridSync(Loc::new(7, 5));
        let by_block = array(if_(
            Cond::cmp(Rel::Eq, var("bid.x"), Expr::Int(0)),
            Stmt::seq(vec![acc(0, Mode::Write, var("bid.x")), grid.clone()]),
        ));
        // Every thread of a block reaches it: fine for the block ...
        assert!(well_formed(&kernel(), &by_block).is_ok());
        // ... not for the grid.
        let d = well_formed_grid(&kernel(), &by_block).unwrap_err();
        assert_eq!(d.loc, Loc::new(7, 5));
        assert!(d.reason.starts_with("grid barrier at 7:5"), "{}", d.reason);
        // Block barriers are no barrier between blocks.
        let both = array(Stmt::seq(vec![
            acc(0, Mode::Write, var("bid.x")),
            sync(3),
            acc(1, Mode::Read, Expr::Int(0)),
            grid,
            acc(2, Mode::Read, Expr::Int(1)),
        ]));
        let barriers = |wf: WellFormed| {
            wf.body
                .iter()
                .filter(|i| matches!(i, Synced::Barrier(_)))
                .count()
        };
        assert_eq!(barriers(well_formed(&kernel(), &both).unwrap()), 2);
        assert_eq!(barriers(well_formed_grid(&kernel(), &both).unwrap()), 1);
    }

    /// Listing 2.3: for r in 0..N { for i in 0..M {wr[tid]}; sync; for j in 0..M {rd[tid+j]} }
    #[test]
    fn listing_2_3_is_tagged() {
        let wr = acc(0, Mode::Write, var("tid.x"));
        let rd = acc(1, Mode::Read, Expr::add(var("tid.x"), var("j")));
        let body = for_(
            "r",
            Expr::Int(0),
            var("N"),
            Stmt::seq(vec![
                for_("i", Expr::Int(0), var("M"), wr),
                Stmt::Skip,
                sync(3),
                Stmt::seq(vec![for_("j", Expr::Int(0), var("M"), rd)]),
            ]),
        );
        let wf = tag(body).unwrap();
        let expected = vec![Synced::Loop {
            var: "r".into(),
            lo: Expr::Int(0),
            hi: var("N"),
            body: vec![
                Synced::Code(ufor(
                    "i",
                    Expr::Int(0),
                    var("M"),
                    uacc(0, Mode::Write, var("tid.x")),
                )),
                Synced::Barrier(Loc::new(3, 5)),
                Synced::Code(ufor(
                    "j",
                    Expr::Int(0),
                    var("M"),
                    uacc(1, Mode::Read, Expr::add(var("tid.x"), var("j"))),
                )),
            ],
            loc: Loc::new(50, 1),
        }];
        assert_eq!(wf.body, expected);
    }

    #[test]
    fn consecutive_code_is_merged_and_skips_dropped() {
        let body = Stmt::seq(vec![
            acc(0, Mode::Write, Expr::Int(0)),
            Stmt::Skip,
            Stmt::seq(vec![
                acc(1, Mode::Read, Expr::Int(1)),
                if_(Cond::Bool(true), acc(2, Mode::Read, Expr::Int(2))),
            ]),
            sync(9),
        ]);
        let wf = tag(body).unwrap();
        assert_eq!(
            wf.body,
            vec![
                Synced::Code(Unsync::Seq(vec![
                    uacc(0, Mode::Write, Expr::Int(0)),
                    uacc(1, Mode::Read, Expr::Int(1)),
                    Unsync::If(
                        Cond::Bool(true),
                        Box::new(uacc(2, Mode::Read, Expr::Int(2))),
                        Box::new(Unsync::Skip)
                    ),
                ])),
                Synced::Barrier(Loc::new(9, 5)),
            ]
        );
    }

    #[test]
    fn tid_condition_around_barrier_diverges() {
        let body = Stmt::seq(vec![
            acc(0, Mode::Write, Expr::Int(0)),
            if_(
                Cond::cmp(Rel::Lt, var("tid.x"), Expr::Int(2)),
                Stmt::seq(vec![acc(1, Mode::Read, Expr::Int(0)), sync(7)]),
            ),
        ]);
        let err = tag(body).unwrap_err();
        assert_eq!(err.loc, Loc::new(7, 5));
        assert!(err.reason.contains("barrier at 7:5"), "{}", err.reason);
        assert!(err.reason.contains("condition"), "{}", err.reason);
        assert!(err.reason.contains("`tid.x`"), "{}", err.reason);
    }

    #[test]
    fn tid_loop_bound_diverges() {
        let body = for_("i", Expr::Int(0), var("tid.x"), sync(4));
        let err = tag(body).unwrap_err();
        assert_eq!(err.loc, Loc::new(4, 5));
        assert!(err.reason.contains("upper bound"), "{}", err.reason);
        assert!(err.reason.contains("`tid.x`"), "{}", err.reason);
    }

    #[test]
    fn local_in_loop_bound_diverges() {
        let body = for_("i", Expr::add(var("x"), Expr::Int(1)), var("N"), sync(4));
        let err = tag(body).unwrap_err();
        assert!(err.reason.contains("lower bound"), "{}", err.reason);
        assert!(err.reason.contains("thread-local `x`"), "{}", err.reason);
    }

    #[test]
    fn unknown_name_in_condition_diverges() {
        let body = if_(Cond::cmp(Rel::Eq, var("y"), Expr::Int(0)), sync(2));
        let err = tag(body).unwrap_err();
        assert!(
            err.reason.contains("`y`, which is not thread-global"),
            "{}",
            err.reason
        );
    }

    #[test]
    fn block_id_dims_and_sync_loop_vars_are_uniform() {
        // for r in 0..N { if bid.x < gridDim.x && r < blockDim.x { sync } ; for k in r..M { sync } }
        let cond = Cond::and(
            Cond::cmp(Rel::Lt, var("bid.x"), var("gridDim.x")),
            Cond::cmp(Rel::Lt, var("r"), var("blockDim.x")),
        );
        let body = for_(
            "r",
            Expr::Int(0),
            var("N"),
            Stmt::seq(vec![
                if_(cond.clone(), sync(3)),
                for_("k", var("r"), var("M"), sync(4)),
            ]),
        );
        let wf = tag(body).unwrap();
        let Synced::Loop { body, .. } = &wf.body[0] else {
            panic!("{:?}", wf.body)
        };
        assert!(matches!(&body[0], Synced::If { cond: c, .. } if *c == cond));
        assert!(matches!(&body[1], Synced::Loop { var, .. } if var == "k"));
    }

    #[test]
    fn divergence_in_nested_structure_names_the_inner_barrier() {
        // for r in 0..N { sync; for i in 0..M { if tid.y == r { wr[0]; sync } } }
        let inner = if_(
            Cond::cmp(Rel::Eq, var("tid.y"), var("r")),
            Stmt::seq(vec![acc(0, Mode::Write, Expr::Int(0)), sync(8)]),
        );
        let body = for_(
            "r",
            Expr::Int(0),
            var("N"),
            Stmt::seq(vec![sync(2), for_("i", Expr::Int(0), var("M"), inner)]),
        );
        let err = tag(body).unwrap_err();
        assert_eq!(err.loc, Loc::new(8, 5));
        assert!(err.reason.contains("`tid.y`"), "{}", err.reason);
    }

    #[test]
    fn unsynchronized_tid_loop_is_fine() {
        let body = Stmt::seq(vec![
            for_(
                "i",
                Expr::Int(0),
                var("tid.x"),
                acc(0, Mode::Write, var("i")),
            ),
            sync(3),
        ]);
        let wf = tag(body).unwrap();
        assert!(matches!(
            &wf.body[..],
            [Synced::Code(Unsync::For { .. }), Synced::Barrier(_)]
        ));
    }

    #[test]
    fn erase_barriers_drops_syncs() {
        let body = for_(
            "r",
            Expr::Int(0),
            var("N"),
            Stmt::seq(vec![acc(0, Mode::Write, var("r")), sync(2), Stmt::Skip]),
        );
        assert_eq!(
            erase_barriers(&body),
            ufor("r", Expr::Int(0), var("N"), uacc(0, Mode::Write, var("r")))
        );
        assert_eq!(erase_barriers(&sync(1)), Unsync::Skip);
    }

    #[test]
    fn subst_stops_at_binders() {
        // wr[i]; for i in i..N { rd[i + j] }
        let u = Unsync::Seq(vec![
            uacc(0, Mode::Write, var("i")),
            ufor(
                "i",
                var("i"),
                var("N"),
                uacc(1, Mode::Read, Expr::add(var("i"), var("j"))),
            ),
        ]);
        let by = Expr::Int(7);
        let s = u.subst("i", &by).subst("j", &Expr::Int(3));
        assert_eq!(
            s,
            Unsync::Seq(vec![
                uacc(0, Mode::Write, Expr::Int(7)),
                ufor(
                    "i",
                    Expr::Int(7),
                    var("N"),
                    uacc(1, Mode::Read, Expr::add(var("i"), Expr::Int(3)))
                ),
            ])
        );
        let mut fv = BTreeSet::new();
        u.free_vars(&mut fv);
        assert_eq!(fv.into_iter().collect::<Vec<_>>(), ["N", "i", "j"]);
        let mut accs = Vec::new();
        unsync_accesses(&s, &mut accs);
        assert_eq!(accs.iter().map(|a| a.id).collect::<Vec<_>>(), [0, 1]);
    }

    #[test]
    fn subst_items_stops_at_loop_binders() {
        let items = vec![
            Synced::Code(uacc(0, Mode::Write, var("r"))),
            Synced::Loop {
                var: "r".into(),
                lo: var("r"),
                hi: var("N"),
                body: vec![
                    Synced::Code(uacc(1, Mode::Read, var("r"))),
                    Synced::Barrier(Loc::NONE),
                ],
                loc: Loc::NONE,
            },
        ];
        let out = subst_items(&items, "r", &Expr::Int(1));
        assert_eq!(out[0], Synced::Code(uacc(0, Mode::Write, Expr::Int(1))));
        let Synced::Loop { lo, body, .. } = &out[1] else {
            panic!()
        };
        assert_eq!(*lo, Expr::Int(1));
        assert_eq!(body[0], Synced::Code(uacc(1, Mode::Read, var("r"))));
        let mut fv = BTreeSet::new();
        items_free_vars(&items, &mut fv);
        assert_eq!(fv.into_iter().collect::<Vec<_>>(), ["N", "r"]);
        let mut accs = Vec::new();
        items_accesses(&out, &mut accs);
        assert_eq!(accs.len(), 2);
    }

    mod random {
        use super::*;
        use crate::protocol::eval::{run, Instance};
        use proptest::prelude::*;

        fn expr() -> impl Strategy<Value = Expr> {
            prop_oneof![
                Just(var("tid.x")),
                Just(var("N")),
                Just(var("i")),
                Just(var("bid.x")),
                (0i64..3).prop_map(Expr::Int),
                Just(Expr::add(var("tid.x"), var("i"))),
            ]
        }

        fn cond() -> impl Strategy<Value = Cond> {
            (
                expr(),
                expr(),
                prop_oneof![Just(Rel::Lt), Just(Rel::Eq), Just(Rel::Ge)],
            )
                .prop_map(|(a, b, r)| Cond::cmp(r, a, b))
        }

        /// Random protocols; `i` is both a parameter and every loop's
        /// variable, so any reference to it is bound.
        fn stmt() -> impl Strategy<Value = Stmt> {
            let leaf = prop_oneof![
                Just(Stmt::Skip),
                (
                    prop_oneof![Just(Mode::Read), Just(Mode::Write)],
                    expr(),
                    1u32..9
                )
                    .prop_map(|(m, e, line)| acc(line, m, e)),
                (1u32..9).prop_map(sync),
            ];
            leaf.prop_recursive(4, 24, 4, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..4).prop_map(Stmt::Seq),
                    (cond(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| Stmt::If {
                        cond: c,
                        then: Box::new(a),
                        els: Box::new(b),
                        loc: Loc::new(70, 1),
                    }),
                    (expr(), expr(), inner).prop_map(|(lo, hi, body)| for_("i", lo, hi, body)),
                ]
            })
        }

        fn kernel() -> Kernel {
            Kernel {
                params: vec!["N".into(), "i".into()],
                ..Kernel::default()
            }
        }

        proptest! {
            /// Tagging keeps the semantics, and a protocol it accepts never
            /// diverges when run.
            #[test]
            fn tagging_preserves_runs(body in stmt(), n in 0i64..3, i in 0i64..3) {
                let k = kernel();
                let array = ArrayProtocol { name: "a".into(), scope: Scope::Shared, body, loc: Loc::NONE };
                let inst = Instance::default()
                    .global("N", n)
                    .global("i", i)
                    .global("blockDim.x", 2)
                    .thread([0; 3], [0; 3])
                    .thread([0; 3], [1, 0, 0]);
                let source = run(&k, &array, &inst, 100_000);
                if let Ok(wf) = well_formed(&k, &array) {
                    let source = source.expect("a well-formed protocol runs");
                    let tagged = ArrayProtocol { body: wf.to_stmt(), ..array.clone() };
                    prop_assert_eq!(run(&k, &tagged, &inst, 100_000), Ok(source.clone()));
                    let erased = ArrayProtocol { body: erase_barriers(&array.body).to_stmt(), ..array };
                    let flat: Vec<_> = source.into_iter().map(|v| AccessValueAt0(v.thread, v.id, v.index)).collect();
                    let erased: Vec<_> = run(&k, &erased, &inst, 100_000)
                        .expect("erased protocols have no barriers")
                        .into_iter()
                        .map(|v| { assert_eq!(v.phase, 0); AccessValueAt0(v.thread, v.id, v.index) })
                        .collect();
                    prop_assert_eq!(erased, flat);
                }
            }
        }

        #[derive(Debug, PartialEq)]
        struct AccessValueAt0(usize, u32, Vec<i64>);
    }
}
