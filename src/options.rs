//! What every stage below `check` must agree on: the analysis options (part
//! of every solver-cache key) and the analysis version (part of every
//! cache key). Kept apart so that `analysis`, `smt` and `check` all depend
//! on it and on nothing above them: data flows one way.

use serde::{Deserialize, Serialize};

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
    /// Two writes of provably equal values race too (by default they are a
    /// benign race, as GPUVerify and Faial treat them).
    #[serde(default)]
    pub strict: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout_ms: 10_000,
            block_level: false,
            max_races_per_interval: 16,
            strict: false,
        }
    }
}

impl Options {
    /// The options that change solver outcomes, as text for content hashes.
    pub fn solver_key(&self) -> String {
        format!(
            "timeout={};block_level={};max_races={};strict={}",
            self.timeout_ms, self.block_level, self.max_races_per_interval, self.strict
        )
    }
}

/// The analysis version: part of every cache key, bumped whenever a change
/// could alter a verdict.
pub const ANALYSIS_VERSION: &str = "3";
