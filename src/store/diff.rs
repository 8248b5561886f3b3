//! Comparing two runs: races matched by identity, verdicts and timings
//! matched by kernel (path and name).

use super::{AccessRow, ResultRow};
use crate::check::Verdict;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// A kernel counts as slower when its time more than doubled and grew by at
/// least this much; below it timings are noise.
const SLOWDOWN_FLOOR_MS: f64 = 1.0;

#[derive(Clone, Debug, Default, Serialize)]
pub struct RunDiff {
    pub base: i64,
    pub head: i64,
    pub new_races: Vec<RaceChange>,
    pub fixed_races: Vec<RaceChange>,
    pub verdict_changes: Vec<VerdictChange>,
    pub slower: Vec<Slowdown>,
    /// `path:kernel` of kernels only the head run analysed.
    pub added_kernels: Vec<String>,
    /// `path:kernel` of kernels only the base run analysed.
    pub removed_kernels: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RaceChange {
    pub path: String,
    pub kernel: String,
    pub array: String,
    pub accesses: [AccessRow; 2],
    pub confidence: String,
    pub identity: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerdictChange {
    pub path: String,
    pub kernel: String,
    pub before: String,
    pub after: String,
    /// The new verdict ranks worse (racy > divergent > error > unsupported > unknown > drf).
    pub worse: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Slowdown {
    pub path: String,
    pub kernel: String,
    pub before_ms: f64,
    pub after_ms: f64,
}

impl RunDiff {
    /// Races and barrier divergences of the head run that the base run did
    /// not have.
    pub fn new_findings(&self) -> usize {
        let newly_divergent = self
            .verdict_changes
            .iter()
            .filter(|c| c.after == "divergent")
            .count();
        self.new_races.len() + newly_divergent
    }
}

fn parse_verdict(s: &str) -> Option<Verdict> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

fn changes(rows: &[ResultRow], keep: &HashSet<&str>) -> Vec<RaceChange> {
    rows.iter()
        .flat_map(|r| r.races.iter().map(move |x| (r, x)))
        .filter(|(_, x)| keep.contains(x.identity.as_str()))
        .map(|(r, x)| RaceChange {
            path: r.path.clone(),
            kernel: r.kernel.clone(),
            array: x.array.clone(),
            accesses: x.accesses.clone(),
            confidence: x.confidence.clone(),
            identity: x.identity.clone(),
        })
        .collect()
}

/// What changed from `base` to `head` (the results of two runs).
pub fn diff_runs(base_id: i64, base: &[ResultRow], head_id: i64, head: &[ResultRow]) -> RunDiff {
    let key = |r: &ResultRow| (r.path.clone(), r.kernel.clone());
    let base_by: BTreeMap<_, _> = base.iter().map(|r| (key(r), r)).collect();
    let head_by: BTreeMap<_, _> = head.iter().map(|r| (key(r), r)).collect();
    let ids = |rows: &[ResultRow]| -> HashSet<String> {
        rows.iter()
            .flat_map(|r| r.races.iter().map(|x| x.identity.clone()))
            .collect()
    };
    let (base_ids, head_ids) = (ids(base), ids(head));
    let new: HashSet<&str> = head_ids.difference(&base_ids).map(String::as_str).collect();
    // A race of a kernel the head run did not analyse is not fixed, only unseen.
    let still_scanned: Vec<ResultRow> = base
        .iter()
        .filter(|r| head_by.contains_key(&key(r)))
        .cloned()
        .collect();
    let fixed: HashSet<&str> = base_ids.difference(&head_ids).map(String::as_str).collect();

    let mut diff = RunDiff {
        base: base_id,
        head: head_id,
        new_races: changes(head, &new),
        fixed_races: changes(&still_scanned, &fixed),
        ..RunDiff::default()
    };
    for (k, h) in &head_by {
        let Some(b) = base_by.get(k) else {
            diff.added_kernels.push(format!("{}:{}", k.0, k.1));
            if h.verdict == "divergent" {
                diff.verdict_changes.push(VerdictChange {
                    path: k.0.clone(),
                    kernel: k.1.clone(),
                    before: "absent".into(),
                    after: h.verdict.clone(),
                    worse: true,
                });
            }
            continue;
        };
        if b.verdict != h.verdict {
            let worse = match (parse_verdict(&b.verdict), parse_verdict(&h.verdict)) {
                (Some(bv), Some(hv)) => bv.combine(hv) == hv,
                _ => false,
            };
            diff.verdict_changes.push(VerdictChange {
                path: k.0.clone(),
                kernel: k.1.clone(),
                before: b.verdict.clone(),
                after: h.verdict.clone(),
                worse,
            });
        }
        let (before, after) = (b.total_ms(), h.total_ms());
        if after > 2.0 * before && after - before >= SLOWDOWN_FLOOR_MS {
            diff.slower.push(Slowdown {
                path: k.0.clone(),
                kernel: k.1.clone(),
                before_ms: before,
                after_ms: after,
            });
        }
    }
    diff.removed_kernels = base_by
        .keys()
        .filter(|k| !head_by.contains_key(*k))
        .map(|k| format!("{}:{}", k.0, k.1))
        .collect();
    diff
}
