//! A thread's own arrays that every thread of a block fills alike
//! (`int e[K]; for (i = 0; i < K; i++) e[i] = experts[blockIdx.x * K + i];`):
//! every store is made by every thread of the block, at the same index,
//! of the same value, so the threads hold equal contents and a read at an
//! index the block shares is one value for the block. Barriers under
//! conditions on such reads do not diverge.
//!
//! Whether a store is made alike depends on values whose uniformity is
//! only known once the kernel is lowered (a read of memory no thread
//! writes), so each array keeps the locals its stores depend on, each
//! read the locals its index depends on, and [`AlikeArrays::settle`]
//! decides them all at the end.

use super::{exprs, strip, Lower};
use crate::cuda::clang::{kind as K, Node};
use crate::imp;
use crate::protocol::{Cond, Expr};
use std::collections::{BTreeSet, HashMap, HashSet};

#[derive(Clone, Debug, Default)]
pub(super) struct AlikeArrays {
    /// By array declared in the kernel: the locals its stores so far
    /// depend on, or `None` once some store may differ between threads.
    arrays: HashMap<String, Option<BTreeSet<String>>>,
    /// Arrays stored to, in order: what a loop's thread-dependent `break`
    /// makes differ.
    log: Vec<String>,
    /// The store being made now, found alike by `Lower::note_alike_store`:
    /// its array and dependencies.
    pending: Option<(String, BTreeSet<String>)>,
    reads: Vec<AlikeRead>,
}

/// A local read from an array filled alike.
#[derive(Clone, Debug)]
struct AlikeRead {
    local: String,
    array: String,
    /// The locals its index depends on.
    deps: BTreeSet<String>,
    /// Read inside a loop: one value for the block at each iteration only.
    in_loop: bool,
}

/// What [`AlikeArrays::settle`] finds: locals one value for both threads
/// of every trace, and ones one value at each point the block's threads
/// reach together (`Kernel::block_uniform`, `Kernel::control_uniform`).
#[derive(Debug, Default, PartialEq)]
pub(super) struct Settled {
    pub(super) block: Vec<String>,
    pub(super) control: Vec<String>,
}

impl AlikeArrays {
    /// A thread's own array just declared; `filled` is false when an
    /// initializer gave it values drfscan does not follow.
    pub(super) fn declare(&mut self, array: &str, filled: bool) {
        let deps = (!filled).then(BTreeSet::new);
        self.arrays.insert(array.to_string(), deps);
    }

    pub(super) fn is_candidate(&self, local: &str) -> bool {
        self.reads.iter().any(|r| r.local == local)
    }

    /// Whether `array` is tracked and no store made it differ so far.
    fn alike(&self, array: &str) -> bool {
        matches!(self.arrays.get(array), Some(Some(_)))
    }

    pub(super) fn expect_store(&mut self, array: &str, deps: BTreeSet<String>) {
        self.pending = Some((array.to_string(), deps));
    }

    /// The store expected is made (or was not one to the thread's own
    /// memory): a later write is judged on its own.
    pub(super) fn store_done(&mut self) {
        self.pending = None;
    }

    /// A write to the thread's own memory `name`: alike if it is the one
    /// expected, else the array may differ between threads from now on.
    pub(super) fn written(&mut self, name: &str) {
        let pending = self.pending.take();
        self.log.push(name.to_string());
        let Some(entry) = self.arrays.get_mut(name) else {
            return;
        };
        match (pending, entry.as_mut()) {
            (Some((a, deps)), Some(all)) if a == name => all.extend(deps),
            _ => *entry = None,
        }
    }

    pub(super) fn stores_made(&self) -> usize {
        self.log.len()
    }

    /// Every array stored to since `mark` may differ between threads.
    pub(super) fn spoil_since(&mut self, mark: usize) {
        let since: Vec<String> = self.log[mark.min(self.log.len())..].to_vec();
        for a in since {
            if let Some(entry) = self.arrays.get_mut(&a) {
                *entry = None;
            }
        }
    }

    fn note_read(&mut self, local: String, array: &str, deps: BTreeSet<String>, in_loop: bool) {
        self.reads.push(AlikeRead {
            local,
            array: array.to_string(),
            deps,
            in_loop,
        });
    }

    /// The reads that hold one value for the block, given the locals
    /// (`uniform`) read from memory no thread writes: an array is alike if
    /// every local its stores depend on is uniform or such a read, and so
    /// is a read of it if the same holds of its index. A greatest fixed
    /// point: a dependency cycle among reads holds unless broken elsewhere.
    pub(super) fn settle(&self, uniform: &HashSet<String>) -> Settled {
        let mut holds: HashSet<&str> = self
            .reads
            .iter()
            .filter(|r| self.alike(&r.array))
            .map(|r| r.local.as_str())
            .collect();
        loop {
            let ok = |l: &String| uniform.contains(l) || holds.contains(l.as_str());
            let arrays_ok = |a: &str| match self.arrays.get(a) {
                Some(Some(deps)) => deps.iter().all(ok),
                _ => false,
            };
            let next: HashSet<&str> = self
                .reads
                .iter()
                .filter(|r| holds.contains(r.local.as_str()))
                .filter(|r| arrays_ok(&r.array) && r.deps.iter().all(ok))
                .map(|r| r.local.as_str())
                .collect();
            if next.len() == holds.len() {
                break;
            }
            holds = next;
        }
        let mut out = Settled::default();
        for r in self
            .reads
            .iter()
            .filter(|r| holds.contains(r.local.as_str()))
        {
            if r.in_loop {
                out.control.push(r.local.clone());
            } else {
                out.block.push(r.local.clone());
            }
        }
        out
    }
}

impl Lower {
    /// The locals `exprs` and `conds` depend on beyond what the block
    /// shares (parameters, launch sizes, block ids, variables of loops
    /// that run alike in the block), when each may still turn out to be
    /// one value for the block: a read of memory or of an array filled
    /// alike. `None` when some other local or a thread id enters, or an
    /// enclosing loop runs differently in different threads.
    fn alike_deps(&self, exprs: &[&Expr], conds: &[&Cond]) -> Option<BTreeSet<String>> {
        if !self
            .loop_vars
            .iter()
            .all(|v| self.uniform_loops.contains(v))
        {
            return None;
        }
        let mut vars = BTreeSet::new();
        exprs.iter().for_each(|e| e.free_vars(&mut vars));
        conds.iter().for_each(|c| c.free_vars(&mut vars));
        vars.retain(|v| !self.uniform_loops.contains(v));
        let mut deps = BTreeSet::new();
        for v in vars {
            if imp::is_uniform(&BTreeSet::from([v.clone()]), &self.prog.params) {
                continue;
            }
            let stored = self.stored.iter().any(|(l, _, _)| *l == v);
            if !stored && !self.alike.is_candidate(&v) {
                return None;
            }
            deps.insert(v);
        }
        Some(deps)
    }

    /// Whether an array's initializer is a list of integer constants,
    /// nested or empty (`= {0}`, `= {}`, `= {{1, 2}, {3, 4}}`).
    pub(super) fn constant_initializer(&mut self, init: &Node) -> bool {
        let list = strip(*init);
        if list.kind() != K::INIT_LIST {
            return false;
        }
        exprs(&list).iter().all(|e| {
            strip(*e).kind() == K::INIT_LIST && self.constant_initializer(e)
                || matches!(self.pure_int(e), Some(Expr::Int(_)))
        })
    }

    /// Before a store of `value` at `index` of the thread's own `array`:
    /// whether every thread of the block makes it alike, as far as known
    /// now (see [`AlikeArrays::written`]).
    pub(super) fn note_alike_store(&mut self, array: &str, index: &[Expr], value: Option<&Expr>) {
        if !self.alike.alike(array) {
            return;
        }
        let Some(value) = value else { return };
        let mut exprs: Vec<&Expr> = index.iter().collect();
        exprs.push(value);
        let path: Vec<&Cond> = self.path.iter().collect();
        if let Some(deps) = self.alike_deps(&exprs, &path) {
            self.alike.expect_store(array, deps);
        }
    }

    /// A read at `index` of the thread's own `array` whose cell holds no
    /// value known here: a fresh local, noted to be one value for the
    /// block if the array turns out filled alike.
    pub(super) fn alike_read(&mut self, array: &str, index: &[Expr]) -> Option<Expr> {
        if !self.alike.alike(array) {
            return None;
        }
        let exprs: Vec<&Expr> = index.iter().collect();
        let deps = self.alike_deps(&exprs, &[])?;
        let spelled = array.split('@').next().unwrap_or("v").to_string();
        let local = self.local(&format!("{spelled}.elem"));
        let Expr::Var(name) = &local else {
            return None;
        };
        let in_loop = !self.outside_loops();
        self.alike.note_read(name.clone(), array, deps, in_loop);
        Some(local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(xs: &[&str]) -> BTreeSet<String> {
        xs.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn an_array_stored_alike_reads_alike_once_its_sources_are_uniform() {
        let mut a = AlikeArrays::default();
        a.declare("e", false);
        a.expect_store("e", set(&["stored"]));
        a.written("e");
        a.note_read("e.elem".into(), "e", set(&[]), false);
        a.note_read("e.elem#2".into(), "e", set(&[]), true);
        let uniform: HashSet<String> = ["stored".to_string()].into();
        let s = a.settle(&uniform);
        assert_eq!(s.block, vec!["e.elem".to_string()]);
        assert_eq!(s.control, vec!["e.elem#2".to_string()]);
        // The source turns out written by some thread: nothing holds.
        assert_eq!(a.settle(&HashSet::new()), Settled::default());
    }

    #[test]
    fn an_unexpected_store_a_break_or_an_initializer_spoils_the_array() {
        let mut a = AlikeArrays::default();
        a.declare("e", false);
        a.written("e");
        a.note_read("r".into(), "e", set(&[]), false);
        assert!(a.settle(&HashSet::new()).block.is_empty());

        let mut b = AlikeArrays::default();
        b.declare("e", false);
        let mark = b.stores_made();
        b.expect_store("e", set(&[]));
        b.written("e");
        b.spoil_since(mark);
        b.note_read("r".into(), "e", set(&[]), false);
        assert!(b.settle(&HashSet::new()).block.is_empty());

        let mut c = AlikeArrays::default();
        c.declare("e", true);
        c.note_read("r".into(), "e", set(&[]), false);
        assert!(c.settle(&HashSet::new()).block.is_empty());
    }

    #[test]
    fn reads_that_depend_on_each_other_hold_or_fall_together() {
        let mut a = AlikeArrays::default();
        a.declare("e", false);
        a.declare("f", false);
        a.expect_store("e", set(&[]));
        a.written("e");
        a.note_read("x".into(), "e", set(&[]), false);
        // `f[i] = e[j]`, then `f[x]`.
        a.expect_store("f", set(&["x"]));
        a.written("f");
        a.note_read("y".into(), "f", set(&["x"]), false);
        let s = a.settle(&HashSet::new());
        assert_eq!(s.block, vec!["x".to_string(), "y".to_string()]);
        // `f` also stored a thread's own value: `y` falls, `x` stays.
        a.written("f");
        let s = a.settle(&HashSet::new());
        assert_eq!(s.block, vec!["x".to_string()]);
    }
}
