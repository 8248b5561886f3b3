//! Spin locks: a loop that spins on an atomic until it swaps a cell from
//! its free value (`while (atomicCAS(&m[j], 0, 1) != 0);`), followed by a
//! fence, acquires the cell; an atomic that stores the free value back
//! after a fence (`atomicExch(&m[j], 0)`) releases it. The accesses in
//! between carry the lock ([`crate::protocol::Lock`]), so that two threads
//! holding one cell are not reported racing on them.
//!
//! Only what the lowering can follow counts: a lock taken or given back in
//! one branch of a conditional, across loop iterations, without the fences,
//! still held at the kernel's end, or its cell written other than by the
//! release, leaves every access of the kernel without its lock.

use super::*;
use crate::protocol::Lock;

#[derive(Clone, Debug, Default)]
pub(super) struct Locks {
    /// The cells held, in the order they were taken, with the free value
    /// each one's release stores.
    held: Vec<(Lock, i64)>,
    /// Taken by a spin loop; held from the next fence on.
    pending: Option<(Lock, i64)>,
    /// A memory access was lowered since the last fence.
    since_fence: bool,
    /// Taken or given back in a way the lowering does not follow.
    broken: bool,
}

/// What the branches and loop bodies of a kernel must leave as they found
/// it: the locks held and pending.
pub(super) type LockState = (Vec<(Lock, i64)>, Option<(Lock, i64)>);

impl Locks {
    pub(super) fn state(&self) -> LockState {
        (self.held.clone(), self.pending.clone())
    }

    /// A branch or loop body changed the locks (`before` is the state it
    /// started from): which ones are held after it depends on the path.
    pub(super) fn leave(&mut self, before: &LockState) {
        if self.state() != *before {
            self.broken = true;
        }
    }

    /// Whether every lock taken was given back in a way the lowering
    /// followed.
    pub(super) fn followed(&self) -> bool {
        !self.broken && self.held.is_empty() && self.pending.is_none()
    }
}

impl Lower {
    /// The lock an access lowered now is made under: the first taken.
    pub(super) fn lock_held(&self) -> Option<Lock> {
        self.locks.held.first().map(|(l, _)| l.clone())
    }

    /// Notes an access of `array`: a lock taken since the last fence is not
    /// ordered before it, and a write to a held lock's array that is not
    /// its release makes the locks unfollowed.
    pub(super) fn lock_access(&mut self, array: &str, mode: Mode) {
        self.locks.since_fence = true;
        self.locks.pending = None;
        if mode != Mode::Read && self.locks.held.iter().any(|(l, _)| l.array == array) {
            self.locks.broken = true;
        }
    }

    /// `__threadfence()`: a lock taken just before is held from here on.
    pub(super) fn lock_fence(&mut self) {
        self.locks.since_fence = false;
        if let Some(l) = self.locks.pending.take() {
            self.locks.held.push(l);
        }
    }

    /// Before the atomic `name(p, operands…)` is lowered: when it stores a
    /// held lock's free value back into its cell, the lock is given back.
    pub(super) fn lock_release(&mut self, name: &str, p: &Ptr, operands: &[Val]) {
        let Target::Shared(array) = &p.target else {
            return;
        };
        let free = match (atomic_base(name), operands) {
            ("atomicExch", [Val::Int(Expr::Int(v))]) => *v,
            ("atomicCAS", [_, Val::Int(Expr::Int(v))]) => *v,
            _ => return,
        };
        let index: Vec<Expr> = p.cell_index().iter().map(simplify).collect();
        let held = self
            .locks
            .held
            .iter()
            .position(|(l, f)| l.array == *array && l.index == index && *f == free);
        if let Some(i) = held {
            // Accesses after the last fence are not ordered before the
            // release.
            if self.locks.since_fence {
                self.locks.broken = true;
            }
            self.locks.held.remove(i);
        }
    }

    /// A spin loop that takes a lock: `while (atomicCAS(p, free, taken) !=
    /// free);` or `while (atomicExch(p, taken) != free);` with nothing in
    /// its body. Lowers the atomic once (every turn of the loop makes the
    /// same access) and leaves the lock pending its fence; `false` when the
    /// loop is not one.
    pub(super) fn spin_acquire(&mut self, s: &Node, cond: Option<Node>, body: &Node) -> R<bool> {
        let empty = body.kind() == K::NULL_STMT
            || (body.kind() == K::COMPOUND && body.children().is_empty());
        let Some(cond) = cond.filter(|_| empty) else {
            return Ok(false);
        };
        let c = strip(cond);
        // `while (flag.test_and_set(acquire));`: spins while the flag was set.
        if c.kind() == K::CALL && atomic_object(&c).is_some() {
            return self.spin_acquire_atomic(s, &cond, &c, &c.spelling(), None);
        }
        if c.kind() != K::BINARY || c.binop() != op::NE {
            return Ok(false);
        }
        let [lhs, rhs] = exprs(&c)[..] else {
            return Ok(false);
        };
        let (call, free) = match (rhs.eval_int(), lhs.eval_int()) {
            (Some(free), _) => (strip(lhs), free),
            (None, Some(free)) => (strip(rhs), free),
            _ => return Ok(false),
        };
        let Some(name) = call
            .referenced()
            .filter(|_| call.kind() == K::CALL)
            .map(|f| f.spelling())
        else {
            return Ok(false);
        };
        if atomic_object(&call).is_some() {
            return self.spin_acquire_atomic(s, &cond, &call, &name, Some(free));
        }
        let args = call.args();
        let taken = match (atomic_base(&name), args.as_slice()) {
            ("atomicCAS", [_, expected, desired]) if expected.eval_int() == Some(free) => {
                desired.eval_int()
            }
            ("atomicExch", [_, desired]) => desired.eval_int(),
            _ => None,
        };
        if taken.is_none_or(|t| t == free) {
            return Ok(false);
        }
        let Some(p) = self.pointer(&args[0])? else {
            return Ok(false);
        };
        self.take_lock(s, &cond, p, free)
    }

    /// The spin loop `s` on the lock cell `p` (spinning until it held
    /// `free`) takes it: its condition lowered once, the lock pending its
    /// fence. `false`, with nothing lowered, when `p` is not one known
    /// cell of one array.
    fn take_lock(&mut self, s: &Node, cond: &Node, mut p: Ptr, free: i64) -> R<bool> {
        p.at_cell();
        let Target::Shared(array) = &p.target else {
            return Ok(false);
        };
        if !p.alts.is_empty() {
            return Ok(false);
        }
        let lock = Lock {
            array: array.clone(),
            index: p.cell_index().iter().map(simplify).collect(),
        };
        self.rvalue(cond)?;
        let loc = loc_of(s);
        self.approximate(&format!(
            "the loop at {loc} spins on a lock: accesses made while it is held are ordered by it, other orders it makes between threads are not modelled"
        ));
        self.locks.pending = Some((lock, free));
        Ok(true)
    }
}

impl Lower {
    /// A spin loop on a libcu++ atomic: `while (f.test_and_set(acquire));`
    /// (`free` is `None`: the flag's free value is 0) or `while
    /// (l.exchange(taken, acquire) != free);`. An acquire order is the
    /// fence: the lock is held from the loop on.
    fn spin_acquire_atomic(
        &mut self,
        s: &Node,
        cond: &Node,
        call: &Node,
        name: &str,
        free: Option<i64>,
    ) -> R<bool> {
        let args = call.args();
        let (free, taken) = match (name, free) {
            ("test_and_set", None) => (0, Some(1)),
            ("exchange", Some(free)) => (free, args.first().and_then(|a| a.eval_int())),
            _ => return Ok(false),
        };
        if taken.is_none_or(|t| t == free) {
            return Ok(false);
        }
        let Some((_, Some(p))) = self.atomic_cell(call)? else {
            return Ok(false);
        };
        let taken = self.take_lock(s, cond, p, free)?;
        if taken && acquires(&args) {
            self.lock_fence();
        }
        Ok(taken)
    }
}

/// `s` with every access's lock dropped.
pub(super) fn drop_locks(s: &mut Stmt) {
    match s {
        Stmt::Access { lock, .. } => *lock = None,
        Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
        Stmt::Seq(v) => v.iter_mut().for_each(drop_locks),
        Stmt::If { then, els, .. } => {
            drop_locks(then);
            drop_locks(els);
        }
        Stmt::For { body, .. } => drop_locks(body),
    }
}
