//! Time per kernel over `datasets/`, split into parsing (clang), inference
//! (lowering to protocols, well-formedness, split, seq) and solving (Z3 and
//! witness replay), next to `clang -fsyntax-only` on the same files with the
//! same built-in headers: the floor any libclang front-end pays.
//!
//! One process, one thread, no caches; figures are for this run only.

mod common;

use common::clang_floor;
use drfscan::check::{check_kernel_stats, NoCache, Options};
use drfscan::cuda::{self, FrontendOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn cu_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "cu"))
        // Broken inputs measure error paths, not analysis.
        .filter(|e| !e.path().components().any(|c| c.as_os_str() == "bad"))
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let datasets = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    let files = cu_files(&datasets);
    let opts = Options::default();
    let (mut kernels, mut parse, mut lower, mut infer, mut solve, mut replay) =
        (0usize, 0.0, 0.0, 0.0, 0.0, 0.0);
    let mut slowest: Vec<(f64, String)> = Vec::new();
    for file in &files {
        let started = Instant::now();
        let unit = cuda::parse_file(file, &FrontendOptions::default());
        let front = ms(started.elapsed());
        let clang = unit.clang_us as f64 / 1e3;
        parse += clang;
        lower += front - clang;
        for k in &unit.kernels {
            let Ok(kernel) = &k.lowered else { continue };
            kernels += 1;
            let (_, stats) = check_kernel_stats(kernel, &opts, &NoCache);
            infer += ms(stats.analysis);
            solve += ms(stats.solve);
            replay += ms(stats.replay);
            let total = ms(stats.analysis) + ms(stats.solve) + ms(stats.replay);
            slowest.push((
                total,
                format!(
                    "{} ({})",
                    k.name,
                    file.strip_prefix(&datasets).unwrap_or(file).display()
                ),
            ));
        }
    }

    let tmp = tempfile::tempdir().expect("temp dir");
    let floor = clang_floor(&files, tmp.path(), 1);

    let per = |x: f64| x / kernels.max(1) as f64;
    println!(
        "{} files, {kernels} kernels (datasets/, without bad/)",
        files.len()
    );
    println!("per kernel, mean:");
    println!("  parse (libclang)          {:8.2} ms", per(parse));
    println!("  inference (lowering)      {:8.2} ms", per(lower));
    println!("  inference (wf/split/seq)  {:8.2} ms", per(infer));
    println!("  solving (Z3)              {:8.2} ms", per(solve));
    println!("  witness replay            {:8.2} ms", per(replay));
    let ours = parse + lower + infer + solve + replay;
    println!("  total                     {:8.2} ms", per(ours));
    println!(
        "clang-19 -fsyntax-only, one process per file: {:.2} ms per kernel ({:.0} ms in all); drfscan in-process = {:.2}x that",
        per(floor),
        floor,
        ours / floor
    );
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    if !slowest.is_empty() {
        let median = slowest[slowest.len() / 2].0;
        let p90 = slowest[slowest.len() / 10].0;
        println!("analysis per kernel (inference after lowering + solving + replay): median {median:.2} ms, 90th percentile {p90:.2} ms");
    }
    println!("slowest analyses:");
    for (t, name) in slowest.iter().take(5) {
        println!("  {t:8.1} ms  {name}");
    }
}
