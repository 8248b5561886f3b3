//! Barrier aligning (Fig. 6), kept literally for display (`--show aligned`)
//! and as a reference in tests. The analysis itself uses `split`, which finds
//! the same intervals without aligning: aligning copies loop bodies and grows
//! exponentially with the nesting of synchronized loops, and it assumes every
//! synchronized loop runs at least once.

use super::seq::{fmt_cond, fmt_expr, fmt_unsync};
use super::split::{seq_code, subst_unsync, unsync_free_vars};
use crate::protocol::wf::{Synced, Unsync, WellFormed};
use crate::protocol::{Cond, Expr, Loc};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Aligned protocols (𝒜 in Fig. 6), plus a node for synchronized
/// conditionals, which the paper does not cover.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Aligned {
    /// `u; sync`
    Sync(Unsync, Loc),
    /// `a; a`
    Seq(Box<Aligned>, Box<Aligned>),
    /// `a; for^S x in lo..hi {a}`
    Loop {
        pre: Box<Aligned>,
        var: String,
        lo: Expr,
        hi: Expr,
        body: Box<Aligned>,
    },
    /// `u; if c {a} else {a}`, each branch aligned on its own. A branch
    /// without a barrier is `None`: its code joins the unsynchronized code
    /// that follows the conditional (`if c {u1} else {u2}`).
    If {
        pre: Unsync,
        cond: Cond,
        then: Option<Box<Aligned>>,
        els: Option<Box<Aligned>>,
    },
}

/// `align` of Fig. 6: the aligned protocol and the unsynchronized code after
/// its last barrier; `None` when the protocol has no barrier at all. Assumes
/// (as the paper does) that synchronized loops run at least once.
pub fn align(wf: &WellFormed) -> (Option<Aligned>, Unsync) {
    align_items(&wf.body)
}

fn align_items(items: &[Synced]) -> (Option<Aligned>, Unsync) {
    let mut acc: (Option<Aligned>, Unsync) = (None, Unsync::Skip);
    for item in items {
        let (a, u) = acc;
        acc = match item {
            Synced::Code(c) => (a, seq_code(u, c.clone())),
            Synced::Barrier(loc) => (Some(then(a, Aligned::Sync(u, *loc))), Unsync::Skip),
            Synced::Loop {
                var, lo, hi, body, ..
            } => {
                let (a_body, u_body) = align_items(body);
                let Some(a_body) = a_body else {
                    // No barrier in the body after all: an unsynchronized loop.
                    let body = Box::new(u_body);
                    let l = Unsync::For {
                        var: var.clone(),
                        lo: lo.clone(),
                        hi: hi.clone(),
                        body,
                    };
                    acc = (a, seq_code(u, l));
                    continue;
                };
                let first = prefix(u, &subst_aligned(&a_body, var, lo));
                // The rotated loop starts at iteration lo+1 with the tail of
                // the previous iteration.
                let prev = Expr::sub(Expr::var(var), Expr::Int(1));
                let rotated = prefix(subst_unsync(&u_body, var, &prev), &a_body);
                let last = Expr::sub(hi.clone(), Expr::Int(1));
                let aligned = Aligned::Loop {
                    pre: Box::new(first),
                    var: var.clone(),
                    lo: Expr::add(lo.clone(), Expr::Int(1)),
                    hi: hi.clone(),
                    body: Box::new(rotated),
                };
                (Some(then(a, aligned)), subst_unsync(&u_body, var, &last))
            }
            Synced::If {
                cond, then: t, els, ..
            } => {
                let (at, ut) = align_items(t);
                let (ae, ue) = align_items(els);
                let node = Aligned::If {
                    pre: u,
                    cond: cond.clone(),
                    then: at.map(Box::new),
                    els: ae.map(Box::new),
                };
                let after = Unsync::If(cond.clone(), Box::new(ut), Box::new(ue));
                (Some(then(a, node)), after)
            }
        };
    }
    acc
}

fn then(a: Option<Aligned>, b: Aligned) -> Aligned {
    match a {
        None => b,
        Some(a) => Aligned::Seq(Box::new(a), Box::new(b)),
    }
}

/// `u ⊙ a`: `u` joins the first unsynchronized code of `a`.
fn prefix(u: Unsync, a: &Aligned) -> Aligned {
    if u == Unsync::Skip {
        return a.clone();
    }
    match a {
        Aligned::Sync(u2, loc) => Aligned::Sync(seq_code(u, u2.clone()), *loc),
        Aligned::Seq(x, y) => Aligned::Seq(Box::new(prefix(u, x)), y.clone()),
        Aligned::Loop {
            pre,
            var,
            lo,
            hi,
            body,
        } => Aligned::Loop {
            pre: Box::new(prefix(u, pre)),
            var: var.clone(),
            lo: lo.clone(),
            hi: hi.clone(),
            body: body.clone(),
        },
        Aligned::If {
            pre,
            cond,
            then,
            els,
        } => Aligned::If {
            pre: seq_code(u, pre.clone()),
            cond: cond.clone(),
            then: then.clone(),
            els: els.clone(),
        },
    }
}

fn aligned_free_vars(a: &Aligned, out: &mut BTreeSet<String>) {
    match a {
        Aligned::Sync(u, _) => unsync_free_vars(u, out),
        Aligned::Seq(x, y) => {
            aligned_free_vars(x, out);
            aligned_free_vars(y, out);
        }
        Aligned::Loop {
            pre,
            var,
            lo,
            hi,
            body,
        } => {
            aligned_free_vars(pre, out);
            lo.free_vars(out);
            hi.free_vars(out);
            let mut inner = BTreeSet::new();
            aligned_free_vars(body, &mut inner);
            inner.remove(var);
            out.extend(inner);
        }
        Aligned::If {
            pre,
            cond,
            then,
            els,
        } => {
            unsync_free_vars(pre, out);
            cond.free_vars(out);
            then.iter()
                .chain(els)
                .for_each(|x| aligned_free_vars(x, out));
        }
    }
}

/// Capture-avoiding `a[var := by]`.
fn subst_aligned(a: &Aligned, var: &str, by: &Expr) -> Aligned {
    match a {
        Aligned::Sync(u, loc) => Aligned::Sync(subst_unsync(u, var, by), *loc),
        Aligned::Seq(x, y) => Aligned::Seq(
            Box::new(subst_aligned(x, var, by)),
            Box::new(subst_aligned(y, var, by)),
        ),
        Aligned::Loop {
            pre,
            var: v,
            lo,
            hi,
            body,
        } => {
            let pre = Box::new(subst_aligned(pre, var, by));
            let lo = lo.subst(var, by);
            let hi = hi.subst(var, by);
            let mut by_fv = BTreeSet::new();
            by.free_vars(&mut by_fv);
            let (v, body) = if v == var {
                (v.clone(), body.clone())
            } else if by_fv.contains(v) {
                let mut taken = by_fv;
                aligned_free_vars(body, &mut taken);
                taken.insert(var.to_string());
                let fresh = (1..)
                    .map(|i| format!("{v}#{i}'"))
                    .find(|n| !taken.contains(n))
                    .unwrap();
                let renamed = subst_aligned(body, v, &Expr::var(&fresh));
                (fresh, Box::new(subst_aligned(&renamed, var, by)))
            } else {
                (v.clone(), Box::new(subst_aligned(body, var, by)))
            };
            Aligned::Loop {
                pre,
                var: v,
                lo,
                hi,
                body,
            }
        }
        Aligned::If {
            pre,
            cond,
            then,
            els,
        } => Aligned::If {
            pre: subst_unsync(pre, var, by),
            cond: cond.subst(var, by),
            then: then.as_ref().map(|x| Box::new(subst_aligned(x, var, by))),
            els: els.as_ref().map(|x| Box::new(subst_aligned(x, var, by))),
        },
    }
}

/// The result of `align` in the protocol text notation.
pub fn print_aligned(aligned: &(Option<Aligned>, Unsync)) -> String {
    let mut out = String::new();
    if let Some(a) = &aligned.0 {
        print_node(a, 0, &mut out);
    }
    if aligned.1 != Unsync::Skip {
        fmt_unsync(&aligned.1, 0, &mut out);
    }
    out
}

fn print_node(a: &Aligned, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    match a {
        Aligned::Sync(u, loc) => {
            if *u != Unsync::Skip {
                fmt_unsync(u, indent, out);
            }
            let _ = writeln!(out, "{pad}sync;  // {loc}");
        }
        Aligned::Seq(x, y) => {
            print_node(x, indent, out);
            print_node(y, indent, out);
        }
        Aligned::Loop {
            pre,
            var,
            lo,
            hi,
            body,
        } => {
            print_node(pre, indent, out);
            let _ = writeln!(
                out,
                "{pad}for {var} in {}..{} {{",
                fmt_expr(lo),
                fmt_expr(hi)
            );
            print_node(body, indent + 1, out);
            let _ = writeln!(out, "{pad}}}");
        }
        Aligned::If {
            pre,
            cond,
            then,
            els,
        } => {
            if *pre != Unsync::Skip {
                fmt_unsync(pre, indent, out);
            }
            let _ = writeln!(out, "{pad}if {} {{", fmt_cond(cond));
            if let Some(t) = then {
                print_node(t, indent + 1, out);
            }
            let _ = writeln!(out, "{pad}}} else {{");
            if let Some(e) = els {
                print_node(e, indent + 1, out);
            }
            let _ = writeln!(out, "{pad}}}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::split::testkit::*;
    use super::super::{Binder, Interval};
    use super::*;

    /// `split` of Fig. 8 on an aligned protocol: one closure per `u; sync`
    /// and one for the code after the last barrier.
    fn paper_split(a: &Aligned, out: &mut Vec<Interval>) {
        let closure = |u: &Unsync| Interval {
            binders: vec![],
            cond: Cond::Bool(true),
            code: u.clone(),
            start: None,
            end: None,
        };
        match a {
            Aligned::Sync(u, _) => out.push(closure(u)),
            Aligned::Seq(x, y) => {
                paper_split(x, out);
                paper_split(y, out);
            }
            Aligned::Loop {
                pre,
                var,
                lo,
                hi,
                body,
            } => {
                paper_split(pre, out);
                let mut inner = Vec::new();
                paper_split(body, &mut inner);
                for mut c in inner {
                    c.binders.insert(
                        0,
                        Binder {
                            var: var.clone(),
                            lo: lo.clone(),
                            hi: hi.clone(),
                        },
                    );
                    out.push(c);
                }
            }
            Aligned::If { .. } => panic!("Fig. 8 has no conditionals"),
        }
    }

    fn paper(wf: &WellFormed) -> Vec<Interval> {
        let (a, u) = align(wf);
        let mut out = Vec::new();
        if let Some(a) = &a {
            paper_split(a, &mut out);
        }
        out.push(Interval {
            binders: vec![],
            cond: Cond::Bool(true),
            code: u,
            start: None,
            end: None,
        });
        out
    }

    fn listing_2_3() -> WellFormed {
        let mut ids = Ids::default();
        let w = ufor("i", n(0), v("M"), ids.wr(v("tid.x")));
        let r = ufor("j", n(0), v("M"), ids.rd(add(v("tid.x"), v("j"))));
        wf(vec![sfor(
            "r",
            n(0),
            v("N"),
            vec![code(w), sync(3), code(r)],
        )])
    }

    #[test]
    fn listing_2_3_aligns_as_in_the_paper() {
        let text = print_aligned(&align(&listing_2_3()));
        let expected = "\
for i in 0..M {
  wr[tid.x];
}
sync;  // 3:0
for r in 0 + 1..N {
  for j in 0..M {
    rd[tid.x + j];
  }
  for i in 0..M {
    wr[tid.x];
  }
  sync;  // 3:0
}
for j in 0..M {
  rd[tid.x + j];
}
";
        assert_eq!(text, expected);
    }

    #[test]
    fn synchronized_conditional_keeps_an_aligned_conditional() {
        let mut ids = Ids::default();
        let c = Cond::cmp(crate::protocol::Rel::Gt, v("N"), n(1));
        let p = wf(vec![
            code(ids.wr(v("tid.x"))),
            Synced::If {
                cond: c,
                then: vec![sync(2)],
                els: vec![],
                loc: Loc::NONE,
            },
            code(ids.rd(v("tid.x"))),
        ]);
        let (a, u) = align(&p);
        assert!(matches!(
            a,
            Some(Aligned::If {
                then: Some(_),
                els: None,
                ..
            })
        ));
        assert!(matches!(u, Unsync::Seq(ref xs) if matches!(xs[0], Unsync::If(..))));
        let text = print_aligned(&(a, u));
        assert!(
            text.starts_with("wr[tid.x];\nif N > 1 {\n  sync;"),
            "{text}"
        );
    }

    /// Theorem 1 on small instances: when every synchronized loop runs, the
    /// closures of align + split are exactly the phases of a concrete run;
    /// and `split` agrees.
    #[test]
    fn align_then_paper_split_matches_concrete_runs() {
        let mut compared = 0;
        for seed in 0..800 {
            let mut g = Gen::new(seed, false);
            let p = wf(g.items(3, &[], false));
            let reference = paper(&p);
            let ours = crate::analysis::split::split(&p);
            for nv in 0..4 {
                let env = params(nv);
                let (want, empty_loop) = ground_truth(&p, &env);
                if empty_loop || has_sync_if(&p.body) {
                    continue;
                }
                compared += 1;
                assert_eq!(instances(&reference, &env), want, "seed {seed} N={nv}");
                let got = instances(&ours, &env);
                for (a, b) in &want {
                    assert!(got
                        .iter()
                        .any(|(x, y)| a.iter().all(|h| x.contains(h))
                            && b.iter().all(|h| y.contains(h))));
                }
                if !has_passable_loop(&p.body) {
                    assert_eq!(got, want, "seed {seed} N={nv}");
                }
            }
        }
        assert!(compared > 500, "only {compared} comparisons");
    }
}
