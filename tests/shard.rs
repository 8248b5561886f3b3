//! Sharded scans and `merge`, run as a batch engine would: N `scan --shard`
//! processes at once on one tree, each with its own database, folded into a
//! history database and compared with one unsharded scan of the same tree.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_drfscan"))
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Shared-array read `shift` cells from the write: DRF with the barrier.
fn kernel(name: &str, shift: u32, barrier: bool) -> String {
    format!(
        "__global__ void {name}(int *out) {{\n  __shared__ int s[128];\n  s[threadIdx.x] = 1;\n{}  out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x + {shift}) % 128];\n}}\n",
        if barrier { "  __syncthreads();\n" } else { "" }
    )
}

const LAUNCH: [&str; 4] = ["--block-dim", "128", "--grid-dim", "64"];

struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    /// Files of kernels, some racy; a header kernel two files include; a
    /// `.cu` file another includes; a file that does not compile.
    fn new() -> Tree {
        let t = Tree {
            dir: tempfile::tempdir().unwrap(),
        };
        for f in 0..14 {
            t.write_file(f, f % 5 != 0);
        }
        t.write("common/tile.cuh", &kernel("header_tile", 7, true));
        t.write(
            "app/one.cu",
            &format!(
                "#include \"../common/tile.cuh\"\n{}",
                kernel("one", 2, true)
            ),
        );
        t.write(
            "zoo/two.cu",
            &format!(
                "#include \"../common/tile.cuh\"\n{}",
                kernel("two", 3, false)
            ),
        );
        t.write(
            "sdk/main.cu",
            &format!(
                "#include \"main_kernel.cu\"\n{}",
                kernel("host_side", 4, true)
            ),
        );
        t.write("sdk/main_kernel.cu", &kernel("included_kernel", 5, false));
        t.write("broken/bad.cu", "__global__ void bad( {\n");
        t
    }
    fn root(&self) -> &Path {
        self.dir.path()
    }
    fn src(&self) -> PathBuf {
        self.root().join("src")
    }
    fn write(&self, rel: &str, text: &str) {
        let p = self.src().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    fn write_file(&self, f: u32, barrier: bool) {
        let text =
            kernel(&format!("k{f}a"), f + 1, barrier) + &kernel(&format!("k{f}b"), f + 2, true);
        self.write(&format!("part{}/f{f}.cu", f % 4), &text);
    }
    fn run<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Output {
        bin()
            .args(args)
            .current_dir(self.root())
            .output()
            .expect("cannot run drfscan")
    }
    /// Scan (a shard of) the tree into `db`.
    fn scan(&self, db: &str, extra: &[&str]) -> Value {
        let out = self.run(&self.scan_args(db, extra));
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "scan: {}",
            stderr(&out)
        );
        json(&out)
    }
    fn scan_args(&self, db: &str, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = ["scan", "src", "--db", db, "--format", "json", "-j", "1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(LAUNCH.iter().map(|s| s.to_string()));
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    }
    /// N shard scans as concurrent processes; their databases.
    fn shards(&self, n: u32, prefix: &str, extra: &[&str]) -> Vec<String> {
        let children: Vec<_> = (1..=n)
            .map(|k| {
                let db = format!("{prefix}{k}.db");
                let shard = format!("{k}/{n}");
                let mut args = self.scan_args(&db, extra);
                args.extend(["--shard".to_string(), shard]);
                let child = bin()
                    .args(&args)
                    .current_dir(self.root())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                (db, child)
            })
            .collect();
        children
            .into_iter()
            .map(|(db, child)| {
                let out = child.wait_with_output().unwrap();
                assert!(
                    matches!(out.status.code(), Some(0 | 1)),
                    "{db}: {}",
                    stderr(&out)
                );
                db
            })
            .collect()
    }
    fn merge(&self, shards: &[String], into: &str, extra: &[&str]) -> Output {
        let mut args: Vec<&str> = vec!["merge"];
        args.extend(shards.iter().map(String::as_str));
        args.extend(["--into", into]);
        args.extend_from_slice(extra);
        self.run(&args)
    }
    fn sql(&self, db: &str, sql: &str) -> Vec<Value> {
        let out = self.run(&["sql", "--db", db, "--format", "json", sql]);
        assert!(out.status.success(), "{sql}: {}", stderr(&out));
        json(&out).as_array().unwrap().clone()
    }
    /// Everything a run says about the tree except timings and witness
    /// values: kernels, verdicts, reasons, races, warnings, scanned files.
    /// (A witness is a model of the solver, whose choice among the racing
    /// thread pairs, and so which access is the first thread's, depends on
    /// what it solved before on the same thread.)
    fn contents(&self, db: &str, run: i64) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let queries = [
            format!("SELECT 'result', k.path, k.name, f.hash, r.verdict, r.reason, r.line, r.col FROM results r
                     JOIN kernels k ON k.id = r.kernel_id JOIN files f ON f.id = r.file_id WHERE r.run_id = {run}"),
            // The two accesses in either order.
            format!("SELECT 'race', k.name, x.array_name, min(x.a_line || x.a_mode, x.b_line || x.b_mode) AS one,
                            max(x.a_line || x.a_mode, x.b_line || x.b_mode) AS other, x.confidence,
                            x.identity, x.precondition FROM races x JOIN results r ON r.id = x.result_id
                     JOIN kernels k ON k.id = r.kernel_id WHERE r.run_id = {run}"),
            format!("SELECT 'warning', path, message FROM warnings WHERE run_id = {run}"),
            format!("SELECT 'file', path, hash FROM run_files WHERE run_id = {run}"),
        ];
        for q in queries {
            for row in self.sql(db, &q) {
                out.insert(row.to_string());
            }
        }
        out
    }
    fn count(&self, db: &str, table: &str) -> i64 {
        self.sql(db, &format!("SELECT count(*) AS n FROM {table}"))[0]["n"]
            .as_i64()
            .unwrap()
    }
}

#[test]
fn merged_shards_are_the_unsharded_scan_and_merging_twice_changes_nothing() {
    let t = Tree::new();
    let whole = t.scan("whole.db", &[]);
    assert!(
        whole["verdicts"]["racy"].as_u64().unwrap() >= 3,
        "{whole:#}"
    );
    let expected = t.contents("whole.db", 1);

    for n in [1, 2, 3, 5] {
        let prefix = format!("n{n}-");
        let shards = t.shards(n, &prefix, &[]);
        let history = format!("history{n}.db");
        let out = t.merge(&shards, &history, &["--format", "json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let merged = json(&out);
        assert_eq!(merged["already"], false);
        assert_eq!(merged["kernels"], whole["kernels"], "{merged:#}");
        let got = t.contents(&history, merged["run_id"].as_i64().unwrap());
        let missing: Vec<_> = expected.difference(&got).collect();
        let extra: Vec<_> = got.difference(&expected).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{n} shards differ from the unsharded scan:\nmissing {missing:#?}\nextra {extra:#?}"
        );

        // Again: the same run, nothing written.
        let counts = |t: &Tree| {
            [
                "runs",
                "results",
                "races",
                "warnings",
                "run_files",
                "solver_cache",
                "unit_cache",
                "report_cache",
            ]
            .map(|table| t.count(&history, table))
        };
        let before = counts(&t);
        let out = t.merge(&shards, &history, &["--format", "json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(json(&out)["already"], true);
        assert_eq!(counts(&t), before);
    }
}

/// The README's shell block that contains `needle`.
fn readme_block(needle: &str) -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    readme
        .split("```")
        .skip(1)
        .step_by(2)
        .find(|b| b.starts_with("sh\n") && b.contains(needle))
        .map(|b| b["sh\n".len()..].to_string())
        .unwrap_or_else(|| panic!("no sh block with `{needle}` in README.md"))
}

#[test]
fn the_readme_xargs_recipe_and_shard_auto_give_the_same_shards() {
    let t = Tree::new();
    // The one-machine recipe, verbatim, with this build's drfscan on PATH.
    let dir = Path::new(env!("CARGO_BIN_EXE_drfscan")).parent().unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let recipe = readme_block("xargs -P");
    let out = Command::new("sh")
        .args(["-c", &recipe])
        .env("PATH", &path)
        .current_dir(t.root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{recipe}\n{}", stderr(&out));
    let whole = t.run(&["scan", "src", "--db", "whole.db", "--format", "json"]);
    let whole = json(&whole);
    let merged = t.sql(
        "history.db",
        "SELECT count(*) AS n FROM results WHERE run_id = 1",
    );
    assert_eq!(merged[0]["n"], whole["kernels"]);

    for (k, env) in [
        (1u32, vec![("CI_NODE_INDEX", "1"), ("CI_NODE_TOTAL", "4")]),
        (
            2,
            vec![
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
        ),
        (
            3,
            vec![("JOB_COMPLETION_INDEX", "2"), ("DRFSCAN_SHARD_COUNT", "4")],
        ),
        (4, vec![("DRFSCAN_SHARD", "4/4")]),
    ] {
        let db = format!("auto-{k}.db");
        let out = bin_with_env(&t, &env, &t.scan_args(&db, &["--shard", "auto"]));
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
        let s = json(&out);
        assert_eq!(s["shard"]["index"], k, "{s:#}");
        let files = |db: &str| t.sql(db, "SELECT path FROM run_files ORDER BY path");
        assert_eq!(files(&db), files(&format!("shards/{k}.db")));
    }
    let out = bin_with_env(&t, &[], &t.scan_args("none.db", &["--shard", "auto"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no shard in the environment"),
        "{}",
        stderr(&out)
    );
}

fn bin_with_env(t: &Tree, env: &[(&str, &str)], args: &[String]) -> Output {
    let mut cmd = bin();
    for var in [
        "DRFSCAN_SHARD",
        "CI_NODE_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied())
        .args(args)
        .current_dir(t.root())
        .output()
        .unwrap()
}

#[test]
fn mismatched_shards_are_refused_by_name_and_the_history_is_untouched() {
    let t = Tree::new();
    let shards = t.shards(3, "s", &[]);
    let refused = |set: &[String], want: &[&str]| {
        let out = t.merge(set, "history.db", &[]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let err = stderr(&out);
        for w in want {
            assert!(err.contains(w), "`{w}` not in: {err}");
        }
        if t.root().join("history.db").exists() {
            assert_eq!(
                t.count("history.db", "runs"),
                0,
                "a refused merge wrote a run"
            );
        }
    };
    // A shard missing, a shard twice.
    refused(&shards[..2], &["missing shard(s): 3/3"]);
    refused(
        &[
            shards[0].clone(),
            shards[1].clone(),
            shards[1].clone(),
            shards[2].clone(),
        ],
        &["shard 2/3 is given twice", "s2.db"],
    );
    // Other options on one shard.
    t.scan("odd2.db", &["--shard", "2/3", "--timeout-ms", "999"]);
    refused(
        &[shards[0].clone(), "odd2.db".into(), shards[2].clone()],
        &["differ in options", "odd2.db"],
    );
    // Another count.
    t.scan("four.db", &["--shard", "2/4"]);
    refused(
        &[shards[0].clone(), "four.db".into(), shards[2].clone()],
        &["differ in shard count"],
    );
    // The tree changed between shards.
    t.write_file(3, false);
    t.scan("late2.db", &["--shard", "2/3"]);
    refused(
        &[shards[0].clone(), "late2.db".into(), shards[2].clone()],
        &["differ in the tree they saw", "late2.db"],
    );
    // Not a database, no such file.
    std::fs::write(t.root().join("junk.db"), "not sqlite at all, just text").unwrap();
    refused(&[shards[0].clone(), "junk.db".into()], &["junk.db"]);
    refused(
        &[shards[0].clone(), "nowhere.db".into()],
        &["nowhere.db", "no such database"],
    );
    // The good set still merges.
    let out = t.merge(&shards, "history.db", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn warm_workers_from_the_history_call_no_solver_and_diff_shows_the_night_change() {
    let t = Tree::new();
    // Night 1: cold shards, merged.
    let shards = t.shards(3, "night1-", &[]);
    let out = t.merge(&shards, "history.db", &["--fail-on", "new"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "night 1 has races nobody saw before"
    );

    // Night 2, nothing changed: every worker starts warm from the history.
    let warm: Vec<Value> = (1..=3)
        .map(|k| {
            t.scan(
                &format!("night2-{k}.db"),
                &["--shard", &format!("{k}/3"), "--cache-from", "history.db"],
            )
        })
        .collect();
    for w in &warm {
        assert_eq!(w["solver_calls"], 0, "{w:#}");
        assert_eq!(w["parsed_units"], 0, "{w:#}");
        assert_eq!(w["new_findings"], 0, "{w:#}");
    }
    let night2: Vec<String> = (1..=3).map(|k| format!("night2-{k}.db")).collect();
    let out = t.merge(&night2, "history.db", &["--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // Night 3: a barrier goes; the worker that has the file fails on it,
    // the merge fails on it, and diff names it.
    t.write_file(2, false);
    let night3: Vec<String> = (1..=3).map(|k| format!("night3-{k}.db")).collect();
    let mut failing = 0;
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let args = [
            "--shard",
            &shard,
            "--cache-from",
            "history.db",
            "--fail-on",
            "new",
        ];
        let out = t.run(&t.scan_args(&night3[k - 1], &args));
        if out.status.code() == Some(1) {
            failing += 1;
            assert!(json(&out)["new_findings"].as_u64().unwrap() > 0);
        }
    }
    assert_eq!(failing, 1, "one shard has the changed file");
    let out = t.merge(&night3, "history.db", &["--fail-on", "new"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = t.run(&["diff", "--db", "history.db", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let d = json(&out);
    let new = d["new_races"].as_array().unwrap();
    assert!(
        !new.is_empty() && new.iter().all(|r| r["kernel"] == "k2a"),
        "{d:#}"
    );
    assert_eq!(d["fixed_races"].as_array().unwrap().len(), 0, "{d:#}");
    let changes = d["verdict_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{d:#}");
    assert_eq!(changes[0]["kernel"], "k2a");
}
