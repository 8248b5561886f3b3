//! What every stage below `check` must agree on: the analysis options (part
//! of every solver-cache key) and the analysis version (part of every
//! cache key). Kept apart so that `analysis`, `smt` and `check` all depend
//! on it and on nothing above them: data flows one way.

use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// Default time limit of one solver query, restarts included, in ms. The
/// restarts ([`crate::smt`]) find most answers a longer single attempt
/// would, sooner: on SHOC, Parboil and NVIDIA's blog samples, 5 s and 10 s
/// differ on one kernel of 227 (a proof that takes about 6 s), and the
/// kernels no limit settles cost half as much.
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;

/// What the analysis assumes and how hard the solver tries. Everything here
/// that changes an outcome is part of the solver-cache key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Per-query solver timeout in milliseconds of the asking thread's processor time; 0 = none.
    pub timeout_ms: u64,
    /// Check global arrays only between threads of one block (as Faial does).
    pub block_level: bool,
    /// At most this many distinct races reported per barrier interval.
    pub max_races_per_interval: usize,
    /// Two writes of provably equal values race too (by default they are a
    /// benign race, as GPUVerify and Faial treat them).
    #[serde(default)]
    pub strict: bool,
    /// Wall-clock budget of one kernel's analysis, all its queries included,
    /// in milliseconds; 0 = none. Not part of any cache key: a kernel cut
    /// short by it is not cached.
    #[serde(default)]
    pub kernel_timeout_ms: u64,
    /// Time limit of a query's first attempt, before restarts, in ms; 0 =
    /// the solver's own (`smt`). Not part of any cache key: it changes how
    /// soon an answer comes, not which.
    #[serde(default)]
    pub first_attempt_ms: u64,
    /// How many times its usual wall-clock time the search for a
    /// precondition that removes a kernel's races gets; 0 or 1 = the
    /// usual (a fraction of a second). Not part of any cache key: a search
    /// it cuts short leaves the races possible and is not cached.
    #[serde(default)]
    pub precondition_patience: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout_ms: DEFAULT_TIMEOUT_MS,
            block_level: false,
            max_races_per_interval: 16,
            strict: false,
            kernel_timeout_ms: 60_000,
            first_attempt_ms: 0,
            precondition_patience: 1,
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
pub const ANALYSIS_VERSION: &str = "194";

/// The reason of a kernel cut short by its budget (`--kernel-timeout`).
pub const TIME_BUDGET: &str = "time budget";

/// When the analysis of one kernel has to stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// `ms` from now; 0 = never.
    pub fn after_ms(ms: u64) -> Deadline {
        Deadline((ms > 0).then(|| Instant::now() + Duration::from_millis(ms)))
    }

    pub fn never() -> Deadline {
        Deadline(None)
    }

    pub fn passed(&self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }

    /// Whichever of the two comes first.
    pub fn sooner(self, other: Deadline) -> Deadline {
        match (self.0, other.0) {
            (Some(a), Some(b)) => Deadline(Some(a.min(b))),
            (a, b) => Deadline(a.or(b)),
        }
    }

    /// A query's time limit `limit_ms` (0 = none) within what is left, and
    /// whether what is left is the shorter.
    pub fn cap(&self, limit_ms: u64) -> (u64, bool) {
        let Some(d) = self.0 else {
            return (limit_ms, false);
        };
        let left = d.saturating_duration_since(Instant::now()).as_millis() as u64;
        if limit_ms == 0 || left < limit_ms {
            (left.max(1), true)
        } else {
            (limit_ms, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sooner_deadline_wins() {
        let soon = Deadline::after_ms(10);
        let late = Deadline::after_ms(60_000);
        assert_eq!(soon.sooner(late).0, soon.0);
        assert_eq!(late.sooner(soon).0, soon.0);
        assert_eq!(Deadline::never().sooner(late).0, late.0);
        assert!(Deadline::never().sooner(Deadline::never()).0.is_none());
    }

    #[test]
    fn a_deadline_caps_limits_by_what_is_left() {
        assert_eq!(Deadline::never().cap(500), (500, false));
        assert_eq!(Deadline::never().cap(0), (0, false));
        assert!(!Deadline::never().passed());
        let d = Deadline::after_ms(60_000);
        assert_eq!(d.cap(500), (500, false));
        let (ms, capped) = d.cap(0);
        assert!(capped && ms > 59_000 && ms <= 60_000);
        let gone = Deadline::after_ms(1);
        std::thread::sleep(Duration::from_millis(5));
        assert!(gone.passed());
        assert_eq!(gone.cap(500), (1, true));
    }
}
