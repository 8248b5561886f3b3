//! The synthetic protocols of Faial's scalability experiment (Fig. 17): five
//! families, each repeating one construct `size` times. Every generated
//! protocol is data-race free by construction, so any alarm is a false one.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// `rd[tid + n_k*T]; wr[tid + k*T]` repeated: reads and writes touch
    /// disjoint blocks of `T` cells.
    Accesses,
    /// `wr[tid]; sync;` repeated.
    Barriers,
    /// `if (tid == k) { wr[tid] }` repeated.
    Conditionals,
    /// `for i_k in 0..N { wr[tid]; … }` nested.
    UnsyncLoops,
    /// `for i_k in 0..N { wr[tid]; sync; … }` nested.
    SyncLoops,
}

impl Family {
    pub const ALL: [Family; 5] = [
        Family::Accesses,
        Family::Barriers,
        Family::Conditionals,
        Family::UnsyncLoops,
        Family::SyncLoops,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Accesses => "accesses",
            Family::Barriers => "barriers",
            Family::Conditionals => "conditionals",
            Family::UnsyncLoops => "unsync-loops",
            Family::SyncLoops => "sync-loops",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = String;

    fn from_str(s: &str) -> Result<Family, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown synthetic family `{s}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// The protocol text of `family` repeated `size` times, for array `A`.
///
/// The paper's kernels are one-dimensional; the generated files assume so
/// (`blockDim.y == 1 && blockDim.z == 1`), since otherwise two threads with
/// the same `tid.x` would write the same cell.
pub fn synthetic(family: Family, size: usize) -> String {
    let mut out =
        format!("# {family}, size {size}: data-race free by construction (Faial Fig. 17)\n");
    match family {
        Family::Accesses => out.push_str("params N T;\nassume T == blockDim.x;\n"),
        _ => out.push_str("params N;\n"),
    }
    out.push_str("assume blockDim.y == 1 && blockDim.z == 1;\n\narray A {\n");
    match family {
        Family::Accesses => {
            // Writes cover cells [k*T, (k+1)*T) for k in 1..=size; reads sit
            // above all of them, at n_k = size + k.
            for k in 1..=size {
                out.push_str(&format!(
                    "  rd[tid + {}*T];\n  wr[tid + {k}*T];\n",
                    size + k
                ));
            }
        }
        Family::Barriers => {
            for _ in 0..size {
                out.push_str("  wr[tid];\n  sync;\n");
            }
        }
        Family::Conditionals => {
            for k in 0..size {
                out.push_str(&format!("  if (tid == {k}) {{ wr[tid] }}\n"));
            }
        }
        Family::UnsyncLoops | Family::SyncLoops => {
            let body = if family == Family::SyncLoops {
                "wr[tid]; sync;"
            } else {
                "wr[tid];"
            };
            for k in 1..=size {
                let pad = "  ".repeat(k);
                out.push_str(&format!("{pad}for i{k} in 0..N {{\n{pad}  {body}\n"));
            }
            for k in (1..=size).rev() {
                out.push_str(&format!("{}}}\n", "  ".repeat(k)));
            }
        }
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::parse;
    use crate::protocol::print::{print, strip_locs};
    use crate::protocol::{Cond, Expr, Kernel, Mode, Stmt};
    use std::collections::HashMap;

    type Env = HashMap<String, i64>;

    fn eval(e: &Expr, env: &Env) -> i64 {
        crate::protocol::eval::eval_expr(e, &|x: &str| env.get(x).copied())
            .expect("closed expression")
    }

    fn holds(c: &Cond, env: &Env) -> bool {
        crate::protocol::eval::eval_cond(c, &|x: &str| env.get(x).copied())
            .expect("closed condition")
    }

    /// One thread's accesses as (phase, mode, index), phases counted by
    /// barriers (the generated protocols never diverge).
    fn run(s: &Stmt, env: &mut Env, phase: &mut u32, out: &mut Vec<(u32, Mode, Vec<i64>)>) {
        match s {
            Stmt::Skip => {}
            Stmt::Sync(_) | Stmt::GridSync(_) => *phase += 1,
            // Generated protocols have no warp barriers.
            Stmt::WarpSync(_) => {}
            Stmt::Access(a) => out.push((
                *phase,
                a.mode,
                a.index.iter().map(|e| eval(e, env)).collect(),
            )),
            Stmt::Seq(items) => items.iter().for_each(|s| run(s, env, phase, out)),
            Stmt::If {
                cond, then, els, ..
            } => {
                let branch = if holds(cond, env) { then } else { els };
                run(branch, env, phase, out);
            }
            Stmt::For {
                var, lo, hi, body, ..
            } => {
                for v in eval(lo, env)..eval(hi, env) {
                    env.insert(var.clone(), v);
                    run(body, env, phase, out);
                }
                env.remove(var);
            }
        }
    }

    /// Brute force over a one-dimensional block of four threads and small N:
    /// the first race found, if any.
    fn concrete_race(k: &Kernel) -> Option<String> {
        for n in 0..3 {
            let mut env: Env = [
                ("N", n),
                ("T", 4),
                ("blockDim.x", 4),
                ("blockDim.y", 1),
                ("blockDim.z", 1),
            ]
            .into_iter()
            .map(|(v, x)| (v.to_string(), x))
            .collect();
            for v in ["tid.y", "tid.z", "bid.x", "bid.y", "bid.z"] {
                env.insert(v.into(), 0);
            }
            env.extend(["gridDim.x", "gridDim.y", "gridDim.z"].map(|v| (v.to_string(), 1)));
            for a in &k.arrays {
                let traces: Vec<_> = (0..4)
                    .map(|t| {
                        env.insert("tid.x".into(), t);
                        assert!(
                            k.assumes.iter().all(|c| holds(c, &env)),
                            "assumptions must hold"
                        );
                        let mut out = Vec::new();
                        run(&a.body, &mut env.clone(), &mut 0, &mut out);
                        out
                    })
                    .collect();
                for (t1, x) in traces.iter().enumerate() {
                    for y in &traces[t1 + 1..] {
                        for a1 in x {
                            for a2 in y {
                                if a1.0 == a2.0 && a1.2 == a2.2 && a1.1.conflicts(a2.1) {
                                    return Some(format!("N = {n}: {a1:?} / {a2:?}"));
                                }
                            }
                        }
                    }
                }
            }
        }
        None
    }

    fn depth(s: &Stmt) -> usize {
        match s {
            Stmt::Seq(items) => items.iter().map(depth).max().unwrap_or(0),
            Stmt::For { body, .. } => 1 + depth(body),
            Stmt::If { then, els, .. } => depth(then).max(depth(els)),
            _ => 0,
        }
    }

    #[test]
    fn families_parse_round_trip_and_are_drf() {
        for family in Family::ALL {
            for size in 0..=5 {
                let text = synthetic(family, size);
                let k = parse(&text).unwrap_or_else(|e| panic!("{family} {size}: {e}\n{text}"));
                let again = parse(&print(&k)).unwrap();
                assert_eq!(strip_locs(&again), strip_locs(&k));
                assert_eq!(concrete_race(&k), None, "{family} {size}:\n{text}");

                let body = &k.arrays[0].body;
                let mut accesses = Vec::new();
                body.accesses(&mut accesses);
                let per_repeat = if family == Family::Accesses { 2 } else { 1 };
                assert_eq!(accesses.len(), per_repeat * size, "{family} {size}");
                let loops = matches!(family, Family::UnsyncLoops | Family::SyncLoops);
                assert_eq!(depth(body), if loops { size } else { 0 }, "{family} {size}");
                let syncs = matches!(family, Family::Barriers | Family::SyncLoops);
                assert_eq!(body.has_sync(), syncs && size > 0, "{family} {size}");
            }
        }
    }

    #[test]
    fn the_race_check_finds_races() {
        // Guards the brute-force check above: a plain write to one cell and
        // reads overlapping a write must both be flagged.
        let k = parse("array A { wr[0] }").unwrap();
        assert!(concrete_race(&k).is_some());
        let text = synthetic(Family::Accesses, 2).replace("rd[tid + 3*T]", "rd[tid + 2*T + 1]");
        assert!(concrete_race(&parse(&text).unwrap()).is_some(), "{text}");
    }

    #[test]
    fn family_names() {
        for f in Family::ALL {
            assert_eq!(f.to_string().parse::<Family>(), Ok(f));
        }
        assert_eq!("sync-loops".parse::<Family>(), Ok(Family::SyncLoops));
        let e = "loops".parse::<Family>().unwrap_err();
        assert!(e.contains("unknown synthetic family `loops`"), "{e}");
    }
}
