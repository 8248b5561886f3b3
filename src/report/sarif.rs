//! SARIF 2.1.0 for code-scanning dashboards: one result per race (with the
//! second access as a related location) and one per barrier divergence.

use super::FileReport;
use crate::check::{Confidence, Verdict};
use serde_json::{json, Value};

fn location(path: &str, line: u32, column: u32) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": { "uri": path },
            "region": { "startLine": line.max(1), "startColumn": column.max(1) }
        }
    })
}

pub fn render(files: &[FileReport]) -> Value {
    let mut results = Vec::new();
    for file in files {
        for kernel in &file.kernels {
            for race in kernel.races() {
                let [a, b] = &race.accesses;
                let level = match race.confidence {
                    Confidence::Confirmed => "error",
                    Confidence::Possible => "warning",
                };
                let text = format!(
                    "Data race on `{}` in kernel `{}`: {} at {} by one thread and {} at {} by another ({}).",
                    race.array,
                    kernel.name,
                    a.mode.as_str(),
                    a.loc,
                    b.mode.as_str(),
                    b.loc,
                    match race.confidence {
                        Confidence::Confirmed => "confirmed",
                        Confidence::Possible => "possible",
                    }
                );
                results.push(json!({
                    "ruleId": "data-race",
                    "level": level,
                    "message": { "text": text },
                    "locations": [location(&file.path, a.loc.line, a.loc.column)],
                    "relatedLocations": [{
                        "id": 1,
                        "message": { "text": format!("{} by the other thread", b.mode.as_str()) },
                        "physicalLocation": location(&file.path, b.loc.line, b.loc.column)["physicalLocation"].clone()
                    }],
                    "properties": {
                        "kernel": kernel.name,
                        "array": race.array,
                        "confidence": race.confidence,
                        "index": race.index,
                        "witness": race.witness,
                        "precondition": race.precondition,
                    }
                }));
            }
            for race in kernel.arrays.iter().flat_map(|a| a.benign.iter()) {
                let [a, b] = &race.accesses;
                results.push(json!({
                    "ruleId": "benign-race",
                    "level": "note",
                    "message": { "text": format!(
                        "Benign race on `{}` in kernel `{}`: the writes at {} and {} store the same value.",
                        race.array, kernel.name, a.loc, b.loc
                    ) },
                    "locations": [location(&file.path, a.loc.line, a.loc.column)],
                    "properties": { "kernel": kernel.name, "array": race.array, "witness": race.witness },
                }));
            }
            if kernel.verdict == Verdict::Divergent {
                let loc = kernel.loc.unwrap_or_default();
                results.push(json!({
                    "ruleId": "barrier-divergence",
                    "level": "error",
                    "message": { "text": format!("Barrier divergence in kernel `{}`: {}", kernel.name, kernel.reason.clone().unwrap_or_default()) },
                    "locations": [location(&file.path, loc.line, loc.column)],
                }));
            }
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "drfscan",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": [
                    { "id": "data-race", "shortDescription": { "text": "Two threads access one array cell without a barrier between them, at least one writing." } },
                    { "id": "barrier-divergence", "shortDescription": { "text": "A barrier that some threads of a block reach and others do not." } },
                    { "id": "benign-race", "shortDescription": { "text": "Two threads write the same value to one array cell without a barrier between them." } }
                ]
            }},
            "results": results,
        }]
    })
}
