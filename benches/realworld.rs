//! Kernels of the shapes real code bases are made of (`benches/realworld/`:
//! permute and unpermute with runtime sizes, softmax with warp shuffles,
//! attention, bitonic and odd-even merge sorting networks, a work-efficient
//! scan, FFT butterflies, a histogram, AES-like unrolled rounds), each
//! checked cold by the real binary in its own process, next to
//! `clang -fsyntax-only` of the same file. Every kernel must be decided (no
//! `unknown`) and agree with its label; the targets are p95 <= 0.5 s and
//! max <= 5 s per kernel on a 2-core machine.

mod common;

use common::{clang_floor, measure};
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("benches/realworld");
    let bin = Path::new(env!("CARGO_BIN_EXE_drfscan"));
    let scratch = std::env::temp_dir().join(format!("drfscan-realworld-{}", std::process::id()));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("benches/realworld")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    println!(
        "{:<30} {:<24} {:>9} {:>9} {:>7}  verdict (label)",
        "file", "kernel", "ms", "clang ms", "ratio"
    );
    let mut per_kernel: Vec<f64> = Vec::new();
    let (mut total, mut clang_total) = (0.0, 0.0);
    let mut undecided = 0;
    let mut mismatches = 0;
    for f in &files {
        let (ms, _, out) = measure(
            Command::new(bin)
                // The headers the clang floor parses with; detecting a
                // toolkit (a Python start-up) is no part of a kernel's cost.
                .args(["check", "--format", "json", "--cuda-path", "builtin"])
                .arg(f)
                .env("XDG_CACHE_HOME", &scratch),
        );
        let clang = clang_floor(std::slice::from_ref(f), &scratch, 1);
        let label = std::fs::read_to_string(f)
            .ok()
            .and_then(|t| {
                t.lines()
                    .next()
                    .and_then(|l| l.strip_prefix("// expect: ").map(str::to_string))
            })
            .unwrap_or_default();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
        let kernels: Vec<(String, String, f64)> = v["files"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| f["kernels"].as_array().cloned().unwrap_or_default())
            .map(|k| {
                (
                    k["name"].as_str().unwrap_or("?").to_string(),
                    k["verdict"].as_str().unwrap_or("?").to_string(),
                    k["time_ms"].as_f64().unwrap_or(0.0),
                )
            })
            .collect();
        // A kernel's own analysis time, plus an even share of the process's
        // start and the file's parse.
        let n = kernels.len().max(1) as f64;
        let shared = (ms - kernels.iter().map(|k| k.2).sum::<f64>()).max(0.0) / n;
        total += ms;
        clang_total += clang;
        for (name, verdict, own) in &kernels {
            let kernel_ms = own + shared;
            per_kernel.push(kernel_ms);
            undecided += usize::from(matches!(
                verdict.as_str(),
                "unknown" | "error" | "unsupported"
            ));
            mismatches += usize::from(*verdict != label);
            println!(
                "{:<30} {:<24} {:>9.1} {:>9.1} {:>6.1}x  {verdict} ({label})",
                f.file_name().unwrap().to_string_lossy(),
                name,
                kernel_ms,
                clang / n,
                kernel_ms / (clang / n)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    per_kernel.sort_by(f64::total_cmp);
    let pick = |q: f64| {
        per_kernel
            .get(((per_kernel.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0)
    };
    println!();
    println!(
        "{} kernels: p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms per kernel (targets: p95 <= 500, max <= 5000)",
        per_kernel.len(),
        pick(0.5),
        pick(0.95),
        pick(1.0)
    );
    println!(
        "all files: {:.0} ms, clang -fsyntax-only {:.0} ms: {:.1}x; {undecided} undecided, {mismatches} disagree with their label",
        total,
        clang_total,
        total / clang_total
    );
}
