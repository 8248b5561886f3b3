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
        Family::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            format!("unknown synthetic family `{s}` (expected one of: {})", names.join(", "))
        })
    }
}

/// The protocol text of `family` repeated `size` times, for array `A`.
///
/// The paper's kernels are one-dimensional; the generated files assume so
/// (`blockDim.y == 1 && blockDim.z == 1`), since otherwise two threads with
/// the same `tid.x` would write the same cell.
pub fn synthetic(family: Family, size: usize) -> String {
    let mut out = format!("# {family}, size {size}: data-race free by construction (Faial Fig. 17)\n");
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
                out.push_str(&format!("  rd[tid + {}*T];\n  wr[tid + {k}*T];\n", size + k));
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
            let body = if family == Family::SyncLoops { "wr[tid]; sync;" } else { "wr[tid];" };
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
