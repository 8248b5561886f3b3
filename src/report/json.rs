//! Machine-readable output. The shapes are documented in README.md and are
//! kept stable: fields may be added, never renamed or removed.

use super::{FileReport, KernelEntry};
use crate::check::{ArrayReport, Race};
use serde_json::{json, Map, Value};

fn witness(kernel: &KernelEntry, race: &Race) -> Value {
    let named = |m: &std::collections::BTreeMap<String, i64>| -> Value {
        Value::Object(
            m.iter()
                .map(|(k, v)| (kernel.display_name(k).to_string(), json!(v)))
                .collect::<Map<_, _>>(),
        )
    };
    json!({
        "globals": named(&race.witness.globals),
        "threads": [named(&race.witness.threads[0]), named(&race.witness.threads[1])],
        "index": race.index,
    })
}

fn race_json(kernel: &KernelEntry, race: &Race) -> Value {
    json!({
        "array": race.array,
        "confidence": race.confidence,
        "accesses": race.accesses.iter().map(|a| json!({
            "line": a.loc.line,
            "column": a.loc.column,
            "mode": a.mode.as_str(),
        })).collect::<Vec<_>>(),
        "index": race.index,
        "witness": witness(kernel, race),
        "precondition": race.precondition,
    })
}

fn array_json(kernel: &KernelEntry, a: &ArrayReport) -> Value {
    json!({
        "name": a.name,
        "verdict": a.verdict.as_str(),
        "reason": a.reason,
        "loc": a.loc.map(|l| json!({"line": l.line, "column": l.column})),
        "races": a.races.iter().map(|r| race_json(kernel, r)).collect::<Vec<_>>(),
        "benign": a.benign.iter().map(|r| race_json(kernel, r)).collect::<Vec<_>>(),
        "intervals": a.intervals,
        "solver_calls": a.solver_calls,
    })
}

/// `check-protocol --format json`: one entry per array.
pub fn protocol_files(files: &[FileReport]) -> Value {
    json!({
        "files": files.iter().map(|f| json!({
            "path": f.path,
            "error": f.error,
            "arrays": f.kernels.iter().flat_map(|k| k.arrays.iter().map(move |a| array_json(k, a))).collect::<Vec<_>>(),
        })).collect::<Vec<_>>()
    })
}

pub fn kernel_json(k: &KernelEntry) -> Value {
    json!({
        "name": k.name,
        "line": k.line,
        "verdict": k.verdict.as_str(),
        "reason": k.reason,
        "loc": k.loc.map(|l| json!({"line": l.line, "column": l.column})),
        "races": k.races().map(|r| race_json(k, r)).collect::<Vec<_>>(),
        "arrays": k.arrays.iter().map(|a| array_json(k, a)).collect::<Vec<_>>(),
        "time_ms": k.time_ms,
        "launches": k.launches,
        "approximations": k.approximations,
    })
}

/// `check --format json`: one entry per kernel.
pub fn cuda_files(files: &[FileReport]) -> Value {
    json!({
        "files": files.iter().map(|f| json!({
            "path": f.path,
            "error": f.error,
            "kernels": f.kernels.iter().map(kernel_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>()
    })
}
