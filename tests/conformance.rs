//! GPUVerify's own CUDA test suite (`../shared/conformance/gpuverify-cuda`,
//! beside the project) as a conformance run: every case through the real
//! binary with the launch line of its header, compared with the verdict the
//! suite expects. The cases listed in `tests/conformance-agreed.txt` agree
//! today; the test fails when one of them stops agreeing. `make
//! conformance` prints the whole table.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn suite() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/gpuverify-cuda");
    dir.join("manifest.json").is_file().then_some(dir)
}

/// The verdict of a file: a race or a divergence anywhere, else `drf` when
/// every kernel is, else the first other verdict (or `error`).
fn verdict(file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_drfscan"))
        // The built-in headers, as on a machine without a toolkit, whatever
        // this one has installed.
        .args(["check", "--format", "json", "--timeout-ms", "5000"])
        .args(["--cuda-path", "builtin"])
        .arg(file)
        .output()
        .expect("cannot run drfscan");
    let Ok(json) = serde_json::from_slice::<Value>(&out.stdout) else {
        return "error".into();
    };
    let kernels: Vec<String> = json["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| f["kernels"].as_array().cloned().unwrap_or_default())
        .map(|k| k["verdict"].as_str().unwrap_or("error").to_string())
        .collect();
    for v in ["racy", "divergent"] {
        if kernels.iter().any(|k| k == v) {
            return v.into();
        }
    }
    if !kernels.is_empty() && kernels.iter().all(|k| k == "drf") {
        return "drf".into();
    }
    kernels
        .into_iter()
        .find(|k| k != "drf")
        .unwrap_or_else(|| "error".into())
}

#[test]
fn gpuverify_cuda_suite_agreement_does_not_regress() {
    let Some(dir) = suite() else {
        eprintln!(
            "conformance: {} not found, skipped",
            "../shared/conformance/gpuverify-cuda"
        );
        return;
    };
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let agreed_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance-agreed.txt");
    let agreed: Vec<String> = std::fs::read_to_string(&agreed_file)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    let cases: Vec<(&str, &str)> = manifest["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap(), c["expect"].as_str().unwrap()))
        .collect();
    // One process per case, as many at once as there are cores.
    let next = AtomicUsize::new(0);
    let actual: Vec<Mutex<String>> = cases.iter().map(|_| Mutex::default()).collect();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((path, _)) = cases.get(i) else { break };
                *actual[i].lock().unwrap() = verdict(&dir.join(path));
            });
        }
    });
    let mut rows = Vec::new();
    let mut regressed = Vec::new();
    for ((path, expect), actual) in cases.iter().zip(actual) {
        let actual = actual.into_inner().unwrap();
        let ok = actual == *expect;
        if !ok && agreed.iter().any(|a| a == path) {
            regressed.push(format!("{path}: expected {expect}, now {actual}"));
        }
        rows.push((path.to_string(), expect.to_string(), actual, ok));
    }
    let agree = rows.iter().filter(|r| r.3).count();
    for (path, expect, actual, ok) in &rows {
        if !ok {
            eprintln!("differs: {path}: expected {expect}, got {actual}");
        }
    }
    eprintln!(
        "conformance with GPUVerify's CUDA suite: {agree} of {} cases agree ({:.1}%)",
        rows.len(),
        100.0 * agree as f64 / rows.len() as f64
    );
    if std::env::var_os("DRFSCAN_CONFORMANCE_WRITE").is_some() {
        let mut text = String::from("# Cases of GPUVerify's CUDA suite drfscan agrees with; tests/conformance.rs fails when one stops agreeing.\n");
        for (path, _, _, ok) in &rows {
            if *ok {
                text.push_str(path);
                text.push('\n');
            }
        }
        std::fs::write(&agreed_file, text).unwrap();
    }
    assert!(
        regressed.is_empty(),
        "cases that agreed no longer do:\n{}",
        regressed.join("\n")
    );
}
