//! Verdicts (DESIGN §6): run the pipeline on each array protocol of a kernel,
//! turn solver models into witnesses, replay every witness on the concrete
//! evaluator, and classify races as confirmed or possible.

use crate::protocol::{Loc, Mode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Drf,
    Racy,
    Divergent,
    Unknown,
    Unsupported,
    Error,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Drf => "drf",
            Verdict::Racy => "racy",
            Verdict::Divergent => "divergent",
            Verdict::Unknown => "unknown",
            Verdict::Unsupported => "unsupported",
            Verdict::Error => "error",
        }
    }
    /// The verdict of a kernel from those of its arrays: the worst wins.
    pub fn combine(self, other: Verdict) -> Verdict {
        fn rank(v: Verdict) -> u8 {
            match v {
                Verdict::Drf => 0,
                Verdict::Unknown => 1,
                Verdict::Unsupported => 2,
                Verdict::Error => 3,
                Verdict::Divergent => 4,
                Verdict::Racy => 5,
            }
        }
        if rank(other) > rank(self) { other } else { self }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Nothing the race depends on is an unknown: provably real (seed 001).
    Confirmed,
    /// The index or a path condition depends on an unknown.
    Possible,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RaceAccess {
    pub id: u32,
    pub loc: Loc,
    pub mode: Mode,
}

/// Concrete values that make a race happen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Witness {
    /// Params, launch dimensions and synchronized-loop variables.
    pub globals: BTreeMap<String, i64>,
    /// Each thread's ids, locals and unsynchronized-loop variables, under
    /// their source names (no `@1`/`@2` suffix).
    pub threads: [BTreeMap<String, i64>; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Race {
    pub array: String,
    /// `accesses[i]` is issued by `witness.threads[i]`.
    pub accesses: [RaceAccess; 2],
    pub index: Vec<i64>,
    pub confidence: Confidence,
    pub witness: Witness,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrayReport {
    pub name: String,
    pub verdict: Verdict,
    /// Why the verdict is `divergent`, `unknown`, `unsupported` or `error`.
    pub reason: Option<String>,
    /// The barrier for `divergent`, the construct for `unsupported`.
    pub loc: Option<Loc>,
    pub races: Vec<Race>,
    pub intervals: usize,
    pub solver_calls: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelReport {
    pub name: String,
    pub arrays: Vec<ArrayReport>,
}

impl KernelReport {
    pub fn verdict(&self) -> Verdict {
        self.arrays.iter().fold(Verdict::Drf, |v, a| v.combine(a.verdict))
    }
}

/// What the analysis assumes and how hard the solver tries. Everything here
/// that changes an outcome is part of the solver-cache key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Per-query solver timeout in milliseconds; 0 = none.
    pub timeout_ms: u64,
    /// Check global arrays only between threads of one block (as Faial does).
    pub block_level: bool,
    /// At most this many distinct races reported per barrier interval.
    pub max_races_per_interval: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { timeout_ms: 10_000, block_level: false, max_races_per_interval: 16 }
    }
}

impl Options {
    /// The options that change solver outcomes, as text for content hashes.
    pub fn solver_key(&self) -> String {
        format!("timeout={};block_level={};max_races={}", self.timeout_ms, self.block_level, self.max_races_per_interval)
    }
}

/// The analysis version: part of every cache key, bumped whenever a change
/// could alter a verdict.
pub const ANALYSIS_VERSION: &str = "1";
