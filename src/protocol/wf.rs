//! Well-formedness (Faial §6): tag loops and conditionals as synchronized or
//! unsynchronized, and reject barriers that threads of one block may not all
//! reach (barrier divergence).

use super::{Access, Cond, Expr, Kernel, Loc, Stmt};
use serde::{Deserialize, Serialize};

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
}
