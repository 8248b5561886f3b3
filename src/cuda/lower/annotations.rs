//! Functions the built-in headers declare with a meaning of their own:
//! GPUVerify's annotations (`__requires`, `__assume`, `__implies`, …) and
//! cuRAND's generators.

use super::*;

impl Lower {
    /// Calls of functions the built-in headers declare with a meaning of
    /// their own: GPUVerify's annotations and cuRAND's generators. `None`:
    /// an ordinary call.
    pub(super) fn prelude_call(&mut self, n: &Node, name: &str, args: &[Node]) -> R<Option<Val>> {
        let loc = loc_of(n);
        let cond_val = |c: Cond| Val::Int(of_cond(c));
        match name {
            "__implies" if args.len() == 2 => {
                let a = self.cond(&args[0])?;
                let b = self.cond(&args[1])?;
                Ok(Some(cond_val(Cond::or(Cond::not(a), b))))
            }
            // A precondition that holds in every thread holds in each.
            "__all" if args.len() == 1 && strip(args[0]).ty().canonical().spelling() == "bool" => {
                Ok(Some(cond_val(self.cond(&args[0])?)))
            }
            "__is_pow2" if args.len() == 1 => {
                let x = self.int(&args[0], "x")?;
                let pow2 = Cond::and(
                    Cond::cmp(Rel::Gt, x.clone(), Expr::Int(0)),
                    Cond::cmp(
                        Rel::Eq,
                        Expr::bin(Op::BitAnd, x.clone(), Expr::sub(x, Expr::Int(1))),
                        Expr::Int(0),
                    ),
                );
                Ok(Some(cond_val(pow2)))
            }
            "__mod_pow2" if args.len() == 2 => {
                let a = self.int(&args[0], "a")?;
                let b = self.int(&args[1], "b")?;
                Ok(Some(Val::Int(Expr::bin(Op::Mod, a, b))))
            }
            // Facts about both threads, the active threads or the other
            // thread: nothing a single thread's assumption can say, so they
            // constrain nothing (dropping an assumption is sound).
            "__enabled"
            | "__uniform_int"
            | "__uniform_bool"
            | "__distinct_int"
            | "__distinct_bool"
            | "__same_group"
            | "__at_most_one"
            | "__add_noovfl"
            | "__add_noovfl_signed"
            | "__add_noovfl_unsigned" => Ok(Some(cond_val(Cond::Bool(true)))),
            // Specifications with no effect on the analysis: loop and global
            // invariants, postconditions, access predicates, the values of
            // the other thread or of the past.
            "__invariant"
            | "__candidate_invariant"
            | "__global_invariant"
            | "__candidate_global_invariant"
            | "__assert"
            | "__global_assert"
            | "__ensures"
            | "__global_ensures"
            | "__barrier_invariant"
            | "__barrier_invariant_binary"
            | "__requires_fresh_array"
            | "__read"
            | "__write"
            | "__atomic"
            | "__no_read"
            | "__no_write"
            | "__no_atomic"
            | "__read_implies"
            | "__write_implies"
            | "__atomic_implies"
            | "__read_offset_bytes"
            | "__write_offset_bytes"
            | "__atomic_offset_bytes"
            | "__ptr_offset_bytes"
            | "__ptr_base"
            | "__other_int"
            | "__other_bool"
            | "__old_int"
            | "__old_bool"
            | "__return_val_int"
            | "__return_val_bool"
            | "__return_val_ptr"
            | "__return_val_funptr"
            | "__array_snapshot"
            | "__non_temporal_loads_begin"
            | "__non_temporal_loads_end" => Ok(Some(Val::Unknown)),
            _ if name.starts_with("curand") || name.starts_with("skipahead") => {
                // A generator reads and advances the state it is given.
                let mut state = None;
                for a in args {
                    let ty = strip(*a).ty();
                    if ty.is_pointer() && state.is_none() {
                        state = Some((self.pointer(a)?, ty.canonical().pointee().spelling()));
                    } else {
                        self.rvalue(a)?;
                    }
                }
                let Some((Some(mut p), ty)) = state else {
                    return Ok(Some(Val::Unknown));
                };
                p.at_cell();
                if ty.contains("curandStateMtgp32") {
                    // Up to 256 threads of a block share one MTGP32 state,
                    // each through a slot of its own.
                    let last = p.index.pop().unwrap_or(Expr::Int(0));
                    let slot = Expr::bin(Op::Mod, linear_tid(), Expr::Int(256));
                    p.index
                        .push(Expr::add(Expr::bin(Op::Mul, last, Expr::Int(256)), slot));
                } else if !name.starts_with("curand_init") {
                    self.read(&p, loc);
                }
                self.write(&p, &Val::Unknown, loc);
                Ok(Some(Val::Unknown))
            }
            _ => Ok(None),
        }
    }
}
