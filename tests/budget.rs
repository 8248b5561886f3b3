//! Per-kernel budgets (`--kernel-timeout`), run as the real binary: a
//! kernel the solver cannot settle ends `unknown` within its budget and the
//! scan goes on; its cut-short answer is never cached.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// `out[t³]` written and `out[t³ + c³]` read for `c >= 1`, `t >= 1`: race
/// free because `x³ + y³ = z³` has no solution in positive integers (Euler's
/// case of Fermat's theorem), which no solver strategy proves and no
/// instance refutes: the solver gives up only after its full time limit.
fn slow(name: &str) -> String {
    format!(
        "__global__ void {name}(float *out, float *sums, int n) {{
  int t = threadIdx.x + blockDim.x * blockIdx.x + 1;
  float x = 0.0f;
  out[t * t * t] = 1.0f;
  for (int c = 1; c < n; c++)
    x += out[t * t * t + c * c * c];
  sums[t] = x;
}}
"
    )
}

fn plain(name: &str, shift: u32) -> String {
    format!(
        "__global__ void {name}(int *out) {{\n  __shared__ int s[128];\n  s[threadIdx.x] = 1;\n  __syncthreads();\n  out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x + {shift}) % 128];\n}}\n"
    )
}

fn scan(dir: &Path, db: &str, extra: &[&str]) -> (Value, f64) {
    let started = Instant::now();
    let out: Output = Command::new(env!("CARGO_BIN_EXE_drfscan"))
        .args(["scan", "src", "--db", db, "--format", "json"])
        .args(extra)
        .current_dir(dir)
        .output()
        .unwrap();
    let secs = started.elapsed().as_secs_f64();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (serde_json::from_slice(&out.stdout).unwrap(), secs)
}

fn rows(dir: &Path, db: &str, sql: &str) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_drfscan"))
        .args(["sql", "--db", db, "--format", "json", sql])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn a_kernel_over_its_budget_ends_unknown_within_it_and_the_scan_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    let slow_kernels = 3;
    for i in 0..slow_kernels {
        std::fs::write(src.join(format!("slow{i}.cu")), slow(&format!("slow{i}"))).unwrap();
    }
    for i in 0..6 {
        std::fs::write(
            src.join(format!("plain{i}.cu")),
            plain(&format!("plain{i}"), i + 1),
        )
        .unwrap();
    }
    let budget = 1.5;
    let (s, wall) = scan(
        tmp.path(),
        "b.db",
        &["--kernel-timeout", "1.5", "-j", "2", "--block-dim", "128"],
    );
    assert_eq!(s["verdicts"]["drf"], 6, "{s:#}");
    assert_eq!(s["verdicts"]["unknown"], slow_kernels, "{s:#}");
    let unknown = rows(
        tmp.path(),
        "b.db",
        "SELECT reason, infer_ms + solve_ms + replay_ms AS ms FROM results WHERE verdict = 'unknown'",
    );
    for r in &unknown {
        assert!(
            r["reason"].as_str().unwrap().starts_with("time budget"),
            "{r}"
        );
        let ms = r["ms"].as_f64().unwrap();
        assert!(
            ms <= (budget + 1.0) * 1e3,
            "a kernel took {ms} ms on a {budget} s budget"
        );
    }
    // Three kernels of 1.5 s on two workers, next to the rest.
    assert!(
        wall < 3.0 * (budget + 1.0) / 2.0 + 10.0,
        "the scan took {wall} s"
    );

    // The same budget would cut it short again: the next scan answers from
    // the cache; a larger budget asks the solver anew.
    let (again, wall) = scan(
        tmp.path(),
        "b.db",
        &["--kernel-timeout", "1.5", "-j", "2", "--block-dim", "128"],
    );
    assert_eq!(again["verdicts"]["unknown"], slow_kernels, "{again:#}");
    assert_eq!(again["solver_calls"], 0, "{again:#}");
    assert!(wall < 10.0, "a warm scan took {wall} s");
    let (larger, _) = scan(
        tmp.path(),
        "b.db",
        &["--kernel-timeout", "2", "-j", "2", "--block-dim", "128"],
    );
    assert_eq!(larger["verdicts"]["unknown"], slow_kernels, "{larger:#}");
    let asked = rows(
        tmp.path(),
        "b.db",
        "SELECT sum(r.solver_calls) AS n FROM results r JOIN kernels k ON k.id = r.kernel_id
         WHERE r.run_id = 3 AND k.name LIKE 'slow%'",
    );
    assert!(asked[0]["n"].as_i64().unwrap() > 0, "{asked:?}");
    let plain_calls = rows(
        tmp.path(),
        "b.db",
        "SELECT sum(r.solver_calls) AS n FROM results r JOIN kernels k ON k.id = r.kernel_id
         WHERE r.run_id = 3 AND k.name LIKE 'plain%'",
    );
    assert_eq!(
        plain_calls[0]["n"], 0,
        "settled kernels come from the cache"
    );
}

/// A file clang takes minutes to parse: one expression of 200,000 terms.
fn endless_parse() -> String {
    let terms = vec!["threadIdx.x"; 200_000].join("+");
    format!("__global__ void long_sum(int *a) {{ a[threadIdx.x] = {terms}; }}\n")
}

fn tree_with_an_endless_parse() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("a_plain.cu"), plain("plain_a", 1)).unwrap();
    std::fs::write(src.join("b_plain.cu"), plain("plain_b", 2)).unwrap();
    std::fs::write(src.join("z_sum.cu"), endless_parse()).unwrap();
    tmp
}

fn verdicts(dir: &Path, db: &str) -> Vec<(String, String, String)> {
    rows(
        dir,
        db,
        "SELECT k.name, r.verdict, coalesce(r.reason, '') AS reason FROM results r
         JOIN kernels k ON k.id = r.kernel_id ORDER BY k.name",
    )
    .iter()
    .map(|r| {
        let s = |k: &str| r[k].as_str().unwrap().to_string();
        (s("name"), s("verdict"), s("reason"))
    })
    .collect()
}

#[test]
fn a_parse_that_never_ends_is_stopped_at_the_budget() {
    let tmp = tree_with_an_endless_parse();
    let (s, wall) = scan(
        tmp.path(),
        "p.db",
        &["--kernel-timeout", "2", "--block-dim", "128"],
    );
    assert_eq!(s["verdicts"]["drf"], 2, "{s:#}");
    assert_eq!(s["verdicts"]["unknown"], 1, "{s:#}");
    let v = verdicts(tmp.path(), "p.db");
    let (_, verdict, reason) = v.iter().find(|(k, _, _)| k == "(file)").unwrap();
    assert_eq!(verdict, "unknown");
    assert!(
        reason.starts_with("time budget: parsing the file"),
        "{reason}"
    );
    assert!(wall < 2.0 + 1.0 + 10.0, "the scan took {wall} s");
    // The run's time counts the worker that was stopped at the budget.
    let recorded = s["wall_ms"].as_f64().unwrap();
    assert!(
        recorded >= 2000.0,
        "wall_ms {recorded} leaves out the first worker"
    );
    // So do its solver calls: the summary says what the results record.
    let recorded = rows(
        tmp.path(),
        "p.db",
        "SELECT coalesce(sum(solver_calls), 0) AS n FROM results",
    );
    assert_eq!(s["solver_calls"], recorded[0]["n"], "{s:#}");
    let runs = rows(tmp.path(), "p.db", "SELECT status FROM runs");
    assert_eq!(
        runs.len(),
        1,
        "a worker that replaces another continues its run"
    );
    assert_eq!(runs[0]["status"], "finished");
}

/// The worker process of the scan `parent`, from `/proc`.
fn child_of(parent: u32) -> Option<u32> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let ppid = stat[stat.rfind(')')? + 1..].split_whitespace().nth(1)?;
        if ppid == parent.to_string() {
            return Some(pid);
        }
    }
    None
}

/// Scan `dir/src` into `db` on one thread, wait until `count_sql` counts two
/// rows (the plain files are done, so the worker is on the third), then
/// SIGKILL the worker as the out-of-memory killer would; the scan's output.
fn scan_and_kill_the_worker(dir: &Path, db: &str, count_sql: &str) -> Output {
    let scan = Command::new(env!("CARGO_BIN_EXE_drfscan"))
        .args([
            "scan",
            "src",
            "--db",
            db,
            "--format",
            "json",
            "-j",
            "1",
            "--block-dim",
            "128",
        ])
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let path = dir.join(db);
    let count = || {
        rusqlite::Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| c.query_row(count_sql, [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0)
    };
    let started = Instant::now();
    while count() < 2 {
        assert!(
            started.elapsed().as_secs() < 60,
            "the plain files were never done"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let worker = child_of(scan.id()).expect("no worker process");
    assert!(Command::new("kill")
        .args(["-KILL", &worker.to_string()])
        .status()
        .unwrap()
        .success());
    let out = scan.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn a_worker_killed_mid_parse_costs_only_that_file() {
    let tmp = tree_with_an_endless_parse();
    // Files parse in order: once the two plain ones are cached, the worker
    // is in the endless one.
    let out = scan_and_kill_the_worker(tmp.path(), "k.db", "SELECT count(*) FROM unit_cache");
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["verdicts"]["drf"], 2, "{s:#}");
    assert_eq!(s["verdicts"]["error"], 1, "{s:#}");
    let v = verdicts(tmp.path(), "k.db");
    let (_, _, reason) = v.iter().find(|(k, _, _)| k == "(file)").unwrap();
    assert!(
        reason.contains("crashed on this file: signal 9 (SIGKILL)"),
        "{reason}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("z_sum.cu"));
    let runs = rows(tmp.path(), "k.db", "SELECT status, count(*) AS n FROM runs");
    assert_eq!(
        (runs[0]["status"].as_str(), runs[0]["n"].as_i64()),
        (Some("finished"), Some(1))
    );
}

/// `dir/src/table.cu`, a kernel after four million initialisers: clang
/// holds about a gigabyte of AST. Returns `dir/src`.
fn large_table(dir: &Path) -> PathBuf {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let table = vec!["1"; 4_000_000].join(",");
    std::fs::write(
        src.join("table.cu"),
        format!("__device__ int table[] = {{{table}}};\n__global__ void use_table(int *a) {{ a[threadIdx.x] = table[threadIdx.x]; }}\n"),
    )
    .unwrap();
    src
}

#[test]
fn a_file_past_the_memory_budget_ends_unknown_and_the_rest_is_scanned() {
    let tmp = tempfile::tempdir().unwrap();
    let src = large_table(tmp.path());
    std::fs::write(src.join("plain.cu"), plain("plain_m", 3)).unwrap();
    let (s, _) = scan(
        tmp.path(),
        "m.db",
        &["--kernel-memory", "1", "-j", "1", "--block-dim", "128"],
    );
    assert_eq!(s["verdicts"]["drf"], 1, "{s:#}");
    assert_eq!(s["verdicts"]["unknown"], 1, "{s:#}");
    let v = verdicts(tmp.path(), "m.db");
    let (_, _, reason) = v.iter().find(|(k, _, _)| k == "(file)").unwrap();
    assert!(reason.starts_with("memory budget"), "{reason}");
}

#[test]
fn a_file_alone_past_the_memory_budget_of_a_parallel_scan_is_the_culprit() {
    // With two threads, the small files are done long before the large
    // one's parse passes the budget: the one item in flight is to blame,
    // without a search one item at a time.
    let tmp = tempfile::tempdir().unwrap();
    let src = large_table(tmp.path());
    for (i, name) in ["plain_a", "plain_b", "plain_c"].iter().enumerate() {
        std::fs::write(src.join(format!("{name}.cu")), plain(name, i as u32 + 1)).unwrap();
    }
    let (s, _) = scan(
        tmp.path(),
        "p.db",
        &["--kernel-memory", "1", "-j", "2", "--block-dim", "128"],
    );
    assert_eq!(s["verdicts"]["drf"], 3, "{s:#}");
    assert_eq!(s["verdicts"]["unknown"], 1, "{s:#}");
    let v = verdicts(tmp.path(), "p.db");
    let (_, _, reason) = v.iter().find(|(k, _, _)| k == "(file)").unwrap();
    assert!(reason.starts_with("memory budget"), "{reason}");
}

#[test]
fn a_worker_killed_mid_solve_costs_only_that_kernel() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("a_plain.cu"), plain("plain_a", 1)).unwrap();
    std::fs::write(src.join("b_plain.cu"), plain("plain_b", 2)).unwrap();
    std::fs::write(src.join("z_slow.cu"), slow("slow_z")).unwrap();
    // Kernels are analysed in order: once the plain ones are recorded, the
    // worker is in the solver on the slow one.
    scan_and_kill_the_worker(tmp.path(), "s.db", "SELECT count(*) FROM results");
    let v = verdicts(tmp.path(), "s.db");
    assert_eq!(v.len(), 3, "{v:?}");
    let (_, verdict, reason) = v.iter().find(|(k, _, _)| k == "slow_z").unwrap();
    assert_eq!(verdict, "error");
    assert!(
        reason.contains("analysis crashed on this kernel: signal 9 (SIGKILL)"),
        "{reason}"
    );
    assert!(
        v.iter().filter(|(_, verdict, _)| verdict == "drf").count() == 2,
        "{v:?}"
    );
}
