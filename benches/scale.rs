//! Repository-scale scans: a generated tree of ≥ 2,000 kernels in ≥ 200
//! files made from the labelled kernels of `datasets/` (each file holds ten
//! renamed copies of one dataset file in namespaces of their own, its block
//! size varied from file to file), scanned cold, warm, and after a kernel is
//! added to one file, with `clang-19 -fsyntax-only` over the same files as
//! the floor. Identical copies share solver outcomes, as vendored copies do.

mod common;

use common::{clang_floor, measure};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Files generated; `SCALE_FILES` overrides it for a quick run.
const FILES: usize = 220;
const COPIES: usize = 10;

/// Dataset files that stand alone: they parse, include no local header and
/// define at least one kernel.
fn sources(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for dir in ["classic", "faial", "constructs"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let standalone = p.extension().is_some_and(|e| e == "cu")
                && text.contains("__global__")
                && !text
                    .lines()
                    .any(|l| l.trim_start().starts_with("#include \""));
            if standalone {
                out.push((p, text));
            }
        }
    }
    out
}

fn kernel_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (i, _) in text.match_indices("__global__") {
        let rest = &text[i + "__global__".len()..];
        let Some(paren) = rest.find('(') else {
            continue;
        };
        let name: String = rest[..paren]
            .trim_end()
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let name: String = name.chars().rev().collect();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while let Some(i) = rest.find(word) {
        let prev = rest[..i].chars().last().or_else(|| out.chars().last());
        let prev_ok = prev.is_none_or(|c| !ident(c));
        let next_ok = rest[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        out.push_str(&rest[..i]);
        out.push_str(if prev_ok && next_ok { by } else { word });
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    out
}

/// A dataset file's `--block-dim N` with N scaled by 2^`shift`: other
/// launch constants give other traces.
fn vary_block_dim(line: &str, shift: usize) -> String {
    let Some(at) = line.find("--block-dim ") else {
        return line.to_string();
    };
    let start = at + "--block-dim ".len();
    let digits = line[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .count();
    match line[start..start + digits].parse::<u64>() {
        Ok(n) => format!(
            "{}{}{}",
            &line[..start],
            n << shift,
            &line[start + digits..]
        ),
        Err(_) => line.to_string(),
    }
}

/// One generated file: ten copies of `text` in namespaces of their own,
/// kernels renamed, with the file's block size varied by `variant`.
fn generate(file: usize, text: &str, variant: usize) -> String {
    let (header, body): (Vec<&str>, Vec<&str>) = text
        .lines()
        .partition(|l| l.trim_start().starts_with("#include"));
    // The label and options lines stay first, for the front-end.
    let mut out: String = body
        .iter()
        .take_while(|l| l.starts_with("//"))
        .map(|l| format!("{}\n", vary_block_dim(l, variant % 3)))
        .collect();
    for l in header {
        out.push_str(l);
        out.push('\n');
    }
    let body: String = body
        .iter()
        .skip_while(|l| l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let names = kernel_names(&body);
    for copy in 0..COPIES {
        let mut t = body.clone();
        for n in &names {
            t = replace_word(&t, n, &format!("{n}_f{file}_c{copy}"));
        }
        out.push_str(&format!("namespace copy{copy} {{\n{t}}}\n"));
    }
    out
}

/// A kernel to add to a file: new code, so new traces to solve.
fn new_kernel(shift: usize) -> String {
    format!(
        "__global__ void added_{shift}(int *out) {{\n  __shared__ int s[256];\n  s[threadIdx.x] = 1;\n  __syncthreads();\n  out[threadIdx.x] = s[(threadIdx.x + {shift}) % 256];\n}}\n"
    )
}

fn scan(bin: &Path, dir: &Path, db: &Path) -> (f64, i64, serde_json::Value) {
    let (ms, kib, out) = measure(
        Command::new(bin)
            .arg("scan")
            .arg(dir)
            .arg("--db")
            .arg(db)
            .args(["--format", "json"]),
    );
    let summary = serde_json::from_str(&out).unwrap_or(serde_json::Value::Null);
    (ms, kib, summary)
}

fn main() {
    let bin = Path::new(env!("CARGO_BIN_EXE_drfscan"));
    let datasets = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    let originals = sources(&datasets);
    assert!(
        !originals.is_empty(),
        "no dataset kernels under {}",
        datasets.display()
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let tree = tmp.path().join("tree");
    let db = tmp.path().join("scale.db");
    let count = std::env::var("SCALE_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FILES);
    let mut files = Vec::new();
    for i in 0..count {
        let (_, text) = &originals[i % originals.len()];
        let dir = tree.join(format!("module{}", i % 20));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join(format!("file{i}.cu"));
        std::fs::write(&path, generate(i, text, i)).expect("write");
        files.push(path);
    }
    let n = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap_or(f64::NAN);

    // The same cold scan without the watched worker process: the price of
    // crash isolation.
    let (inproc_ms, _, _) = measure(
        Command::new(bin)
            .arg("scan")
            .arg(&tree)
            .arg("--db")
            .arg(tmp.path().join("in-process.db"))
            .args(["--format", "json", "--no-isolation"]),
    );
    let (cold_ms, cold_kib, cold) = scan(bin, &tree, &db);
    let kernels = n(&cold, "kernels");
    println!(
        "tree: {} files from {} dataset files, {} kernels",
        files.len(),
        originals.len(),
        kernels
    );
    println!("verdicts: {}", cold["verdicts"]);
    println!(
        "cold scan:      {:>9.0} ms  {:>7.1} kernels/s  peak {:>6.1} MiB  parsed {} solver calls {}",
        cold_ms,
        kernels / (cold_ms / 1e3),
        cold_kib as f64 / 1024.0,
        n(&cold, "parsed_units"),
        n(&cold, "solver_calls")
    );
    println!(
        "cold scan in-process (--no-isolation): {inproc_ms:.0} ms; with a watched worker {:.2}× that",
        cold_ms / inproc_ms
    );
    let reasons = Command::new(bin)
        .args(["query", "unsupported_reasons", "--db"])
        .arg(&db)
        .output()
        .expect("query");
    // The most frequent reasons for `error` and `unsupported`.
    for line in String::from_utf8_lossy(&reasons.stdout).lines().take(12) {
        println!("{line}");
    }
    let (warm_ms, warm_kib, warm) = scan(bin, &tree, &db);
    println!(
        "warm re-scan:   {:>9.0} ms  {:>6.1}% of cold       peak {:>6.1} MiB  parsed {} solver calls {}",
        warm_ms,
        100.0 * warm_ms / cold_ms,
        warm_kib as f64 / 1024.0,
        n(&warm, "parsed_units"),
        n(&warm, "solver_calls")
    );
    let edited = &files[7 % files.len()];
    let text = std::fs::read_to_string(edited).expect("read");
    std::fs::write(edited, text + &new_kernel(7)).expect("edit");
    let (one_ms, one_kib, one) = scan(bin, &tree, &db);
    println!(
        "one file edited:{:>9.0} ms  {:>6.1}% of cold       peak {:>6.1} MiB  parsed {} solver calls {}",
        one_ms,
        100.0 * one_ms / cold_ms,
        one_kib as f64 / 1024.0,
        n(&one, "parsed_units"),
        n(&one, "solver_calls")
    );
    let jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let floor = clang_floor(&files, tmp.path(), jobs);
    println!(
        "clang-19 -fsyntax-only over the same files: {floor:.0} ms (cold scan = {:.1}× the floor)",
        cold_ms / floor
    );
    sharded(bin, &tree, tmp.path(), jobs, n(&one, "kernels"));
}

/// `scan --shard K/N` for N = 1, 2, 4 as concurrent processes sharing the
/// cores, each into a database of its own, then `merge`; then the same
/// shards warm from the merged history (`--cache-from`).
fn sharded(bin: &Path, tree: &Path, scratch: &Path, jobs: usize, kernels: f64) {
    let run_shards = |n: usize, tag: &str, extra: &[&str]| -> (f64, Vec<serde_json::Value>) {
        let started = std::time::Instant::now();
        let children: Vec<_> = (1..=n)
            .map(|k| {
                let db = scratch.join(format!("{tag}-{n}-{k}.db"));
                let _ = std::fs::remove_file(&db);
                Command::new(bin)
                    .arg("scan")
                    .arg(tree)
                    .arg("--db")
                    .arg(&db)
                    .args(["--format", "json", "--shard", &format!("{k}/{n}")])
                    .args(["-j", &(jobs / n).max(1).to_string()])
                    .args(extra)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .expect("spawn a shard")
            })
            .collect();
        let outs = children
            .into_iter()
            .map(|c| {
                let out = c.wait_with_output().expect("shard");
                serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null)
            })
            .collect();
        (started.elapsed().as_secs_f64() * 1e3, outs)
    };
    let sum = |outs: &[serde_json::Value], key: &str| -> f64 {
        outs.iter()
            .map(|o| o[key].as_f64().unwrap_or(f64::NAN))
            .sum()
    };
    for n in [1usize, 2, 4] {
        let (scan_ms, outs) = run_shards(n, "cold", &[]);
        let history = scratch.join(format!("history-{n}.db"));
        let _ = std::fs::remove_file(&history);
        let (merge_ms, _, merged) = measure(
            Command::new(bin)
                .arg("merge")
                .args((1..=n).map(|k| scratch.join(format!("cold-{n}-{k}.db"))))
                .arg("--into")
                .arg(&history)
                .args(["--format", "json"]),
        );
        let merged: serde_json::Value = serde_json::from_str(&merged).unwrap_or_default();
        let mib = |p: &Path| {
            std::fs::metadata(p)
                .map(|m| m.len() as f64 / (1 << 20) as f64)
                .unwrap_or(f64::NAN)
        };
        let shard_mib: f64 = (1..=n)
            .map(|k| mib(&scratch.join(format!("cold-{n}-{k}.db"))))
            .sum();
        let history_arg = history.display().to_string();
        let (warm_ms, warm) = run_shards(n, "warm", &["--cache-from", &history_arg]);
        let files: Vec<String> = outs
            .iter()
            .map(|o| o["files"].as_u64().unwrap_or(0).to_string())
            .collect();
        println!(
            "{n} shard(s) ({} files): cold {:>8.0} ms, merge {:>6.0} ms = {:>4.1}% of the scan, {} kernels merged ({}), \
             warm {:>6.0} ms with {} solver calls; shard databases {:.1} MiB, history {:.1} MiB",
            files.join("+"),
            scan_ms,
            merge_ms,
            100.0 * merge_ms / scan_ms,
            merged["kernels"],
            if merged["kernels"].as_f64() == Some(kernels) { "= unsharded" } else { "DIFFERS from unsharded" },
            warm_ms,
            sum(&warm, "solver_calls"),
            shard_mib,
            mib(&history),
        );
    }
}
