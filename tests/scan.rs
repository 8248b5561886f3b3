//! The `scan` command and the history commands, run as the real binary on
//! temporary trees of small kernels with real database files.

use drfscan::store::Store;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_drfscan"))
}

fn run(args: &[&str], cwd: &Path) -> Output {
    bin()
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("cannot run drfscan")
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

/// A kernel whose shared-array read is `shift` cells away from the write:
/// DRF with the barrier, racy without it. Every shift gives other traces.
/// The shift moves the write, so that an edited kernel asks the solver
/// again: an interval of reads alone needs no query.
fn kernel(name: &str, shift: u32, barrier: bool) -> String {
    format!(
        "__global__ void {name}(int *out) {{\n  __shared__ int s[128];\n  s[(threadIdx.x + {shift}) % 128] = 1;\n{}  out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x];\n}}\n",
        if barrier { "  __syncthreads();\n" } else { "" }
    )
}

struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    /// `files` files of two DRF kernels each, all with distinct shifts.
    fn new(files: u32) -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let t = Tree { dir };
        for f in 0..files {
            t.write_file(f, f * 2 + 1, true);
        }
        t
    }
    fn src(&self) -> PathBuf {
        self.dir.path().join("src")
    }
    fn db(&self) -> PathBuf {
        self.dir.path().join("history.db")
    }
    fn write_file(&self, f: u32, shift: u32, barrier: bool) {
        let sub = self.src().join(format!("part{}", f % 4));
        std::fs::create_dir_all(&sub).unwrap();
        let text =
            kernel(&format!("k{f}a"), shift, barrier) + &kernel(&format!("k{f}b"), shift + 1, true);
        std::fs::write(sub.join(format!("f{f}.cu")), text).unwrap();
    }
    /// Scan with the JSON summary; returns it and the exit status.
    fn scan(&self, extra: &[&str]) -> (Value, i32) {
        let src = self.src();
        let db = self.db();
        let mut args = vec![
            "scan",
            src.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
            "--format",
            "json",
            "--block-dim",
            "128",
            "--grid-dim",
            "64",
        ];
        args.extend_from_slice(extra);
        let out = run(&args, self.dir.path());
        let code = out.status.code().unwrap();
        assert!(
            code == 0 || code == 1,
            "scan failed ({code}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (json(&out), code)
    }
    fn cmd(&self, args: &[&str]) -> Output {
        let db = self.db();
        let mut all: Vec<&str> = args.to_vec();
        all.extend_from_slice(&["--db", db.to_str().unwrap()]);
        run(&all, self.dir.path())
    }
    fn cmd_json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--format", "json"]);
        let out = self.cmd(&all);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        json(&out)
    }
}

fn n(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no `{key}` in {v:#}"))
}

#[test]
fn json_summary_has_every_field() {
    let t = Tree::new(2);
    let (s, code) = t.scan(&["--label", "nightly"]);
    assert_eq!(code, 0, "{s:#}");
    for key in [
        "run_id",
        "kernels",
        "parsed_units",
        "solver_calls",
        "solver_cache_hits",
        "wall_ms",
        "files",
        "races",
    ] {
        assert!(s[key].is_number(), "{key} missing: {s:#}");
    }
    assert_eq!(n(&s, "kernels"), 4);
    assert_eq!(n(&s, "files"), 2);
    assert_eq!(s["verdicts"]["drf"], 4, "{s:#}");
    assert_eq!(s["verdicts"]["racy"], 0);
    let runs = t.cmd_json(&["runs"]);
    assert_eq!(runs[0]["label"], "nightly");
    assert_eq!(runs[0]["status"], "finished");
    assert_eq!(
        runs[0]["analysis_version"],
        drfscan::check::ANALYSIS_VERSION
    );
}

#[test]
fn unchanged_trees_are_answered_from_the_caches() {
    let t = Tree::new(4);
    let (cold, _) = t.scan(&[]);
    assert_eq!(n(&cold, "parsed_units"), 4);
    assert!(n(&cold, "solver_calls") > 0);

    // Unchanged: nothing parsed, nothing solved.
    let (warm, _) = t.scan(&[]);
    assert_eq!(n(&warm, "parsed_units"), 0, "{warm:#}");
    assert_eq!(n(&warm, "cached_units"), 4);
    assert_eq!(n(&warm, "solver_calls"), 0, "{warm:#}");
    assert!(n(&warm, "solver_cache_hits") > 0);
    assert_eq!(warm["verdicts"], cold["verdicts"]);

    // One file edited: only it is parsed and solved again.
    t.write_file(2, 101, true);
    let (one, _) = t.scan(&[]);
    assert_eq!(n(&one, "parsed_units"), 1, "{one:#}");
    assert_eq!(n(&one, "cached_units"), 3);
    assert!(
        n(&one, "solver_calls") > 0 && n(&one, "solver_calls") < n(&cold, "solver_calls"),
        "{one:#}"
    );

    // An analysis option that changes outcomes misses the solver cache but
    // not the unit cache; a front-end flag misses both.
    let (opt, _) = t.scan(&["--block-level"]);
    assert_eq!(n(&opt, "parsed_units"), 0, "{opt:#}");
    assert!(n(&opt, "solver_calls") > 0, "{opt:#}");
    let (flag, _) = t.scan(&["-D", "EXTRA=1"]);
    assert_eq!(n(&flag, "parsed_units"), 4, "{flag:#}");
}

#[test]
fn a_header_change_reparses_the_files_that_include_it() {
    let t = Tree::new(1);
    let inc = t.src().join("part1");
    std::fs::create_dir_all(&inc).unwrap();
    std::fs::write(inc.join("shift.h"), "#define SHIFT 3\n").unwrap();
    std::fs::write(
        inc.join("user.cu"),
        "#include \"shift.h\"\n".to_string() + &kernel("user", 0, true).replace("+ 0)", "+ SHIFT)"),
    )
    .unwrap();
    let (cold, _) = t.scan(&[]);
    assert_eq!(n(&cold, "parsed_units"), 2);
    let (warm, _) = t.scan(&[]);
    assert_eq!(n(&warm, "parsed_units"), 0, "{warm:#}");
    std::fs::write(inc.join("shift.h"), "#define SHIFT 5\n").unwrap();
    let (changed, _) = t.scan(&[]);
    assert_eq!(n(&changed, "parsed_units"), 1, "{changed:#}");
    assert!(n(&changed, "solver_calls") > 0);
}

#[test]
fn diff_shows_an_injected_race_and_its_fix() {
    let t = Tree::new(3);
    let (_, code) = t.scan(&["--fail-on", "new"]);
    assert_eq!(code, 0);

    // Remove a barrier: a new race, and --fail-on new fails.
    t.write_file(1, 3, false);
    let (s, code) = t.scan(&["--fail-on", "new"]);
    assert_eq!(code, 1, "{s:#}");
    assert!(n(&s, "new_findings") > 0);
    let d = t.cmd_json(&["diff"]);
    let new = d["new_races"].as_array().unwrap();
    assert!(!new.is_empty(), "{d:#}");
    assert!(
        new.iter()
            .all(|r| r["kernel"] == "k1a" && r["array"] == "s"),
        "{d:#}"
    );
    assert_eq!(d["fixed_races"].as_array().unwrap().len(), 0);
    assert_eq!(d["verdict_changes"][0]["after"], "racy");

    // Same tree again: the race is old news for --fail-on new, not for any.
    let (_, code) = t.scan(&["--fail-on", "new"]);
    assert_eq!(code, 0);
    let (_, code) = t.scan(&["--fail-on", "any"]);
    assert_eq!(code, 1);

    // A comment above the kernel moves every line; the race keeps its identity.
    let path = t.src().join("part1/f1.cu");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("// moved\n\n{text}")).unwrap();
    let (_, code) = t.scan(&["--fail-on", "new"]);
    assert_eq!(code, 0);

    // The fix: the race is reported fixed.
    t.write_file(1, 3, true);
    let (s, code) = t.scan(&["--fail-on", "new"]);
    assert_eq!(code, 0, "{s:#}");
    let d = t.cmd_json(&["diff"]);
    assert!(!d["fixed_races"].as_array().unwrap().is_empty(), "{d:#}");
    assert!(d["new_races"].as_array().unwrap().is_empty());
    assert_eq!(d["verdict_changes"][0]["before"], "racy");
    assert_eq!(d["verdict_changes"][0]["after"], "drf");

    // Explicit runs: the first against the second.
    let d = t.cmd_json(&["diff", "1", "2"]);
    assert_eq!((d["base"].as_i64(), d["head"].as_i64()), (Some(1), Some(2)));
    let text = t.cmd(&["diff", "1", "2"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("new races: "));
}

#[test]
fn every_saved_query_runs() {
    let t = Tree::new(2);
    t.scan(&[]);
    t.write_file(0, 9, false);
    t.scan(&[]);
    let list = t.cmd_json(&["query", "list"]);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 6);
    for name in names {
        let args: &[&str] = match name {
            "kernel_history" => &["k0a"],
            "new_races_since" => &["1"],
            _ => &[],
        };
        let mut all = vec!["query", name];
        all.extend_from_slice(args);
        let rows = t.cmd_json(&all);
        assert!(rows.is_array(), "{name}: {rows:#}");
        let text = t.cmd(&all);
        assert!(
            text.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&text.stderr)
        );
    }
    let history = t.cmd_json(&["query", "kernel_history", "k0a"]);
    let verdicts: Vec<&str> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["drf", "racy"]);
    let new = t.cmd_json(&["query", "new_races_since", "1"]);
    assert!(
        new.as_array().unwrap().iter().all(|r| r["kernel"] == "k0a")
            && !new.as_array().unwrap().is_empty()
    );
    let missing_arg = t.cmd(&["query", "kernel_history"]);
    assert_eq!(missing_arg.status.code(), Some(2));
}

#[test]
fn sql_is_read_only() {
    let t = Tree::new(1);
    t.scan(&[]);
    let rows = t.cmd_json(&[
        "sql",
        "SELECT verdict, count(*) AS n FROM results GROUP BY verdict",
    ]);
    assert_eq!(rows[0]["n"], 2);
    for sql in [
        "DELETE FROM results",
        "DROP TABLE runs",
        "UPDATE runs SET label = 'x'",
    ] {
        let out = t.cmd(&["sql", sql]);
        assert_eq!(out.status.code(), Some(2), "{sql}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("read-only"),
            "{sql}"
        );
    }
    let rows = t.cmd_json(&["sql", "SELECT count(*) AS n FROM results"]);
    assert_eq!(rows[0]["n"], 2);
}

#[test]
fn report_formats() {
    let t = Tree::new(1);
    t.write_file(0, 5, false);
    t.scan(&[]);
    let r = t.cmd_json(&["report"]);
    assert_eq!(r["run"]["id"], 1);
    let racy = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["verdict"] == "racy")
        .unwrap();
    assert!(!racy["races"][0]["identity"].as_str().unwrap().is_empty());
    assert!(racy["races"][0]["accesses"][0]["text"]
        .as_str()
        .unwrap()
        .contains("s["));
    let sarif = t.cmd(&["report", "1", "--format", "sarif"]);
    let sarif = json(&sarif);
    assert_eq!(sarif["version"], "2.1.0");
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());
    let missing = t.cmd(&["report", "7"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn unreadable_files_and_excludes_do_not_stop_a_scan() {
    let t = Tree::new(2);
    std::os::unix::fs::symlink(t.src().join("nowhere.cu"), t.src().join("dangling.cu")).unwrap();
    std::fs::create_dir_all(t.src().join("vendor")).unwrap();
    std::fs::write(t.src().join("vendor/v.cu"), kernel("vendored", 1, false)).unwrap();
    std::fs::write(t.src().join("garbage.cu"), b"\x00\x01 not cuda at all {{{").unwrap();
    std::fs::write(
        t.src().join("broken.cu"),
        "__global__ void broken(int *a) { a[threadIdx.x] = undeclared; }\n",
    )
    .unwrap();
    let (s, code) = t.scan(&["--exclude", "vendor"]);
    assert_eq!(code, 0, "{s:#}");
    assert_eq!(n(&s, "files"), 4);
    assert_eq!(s["verdicts"]["error"], 2, "{s:#}");
    let errors = t.cmd_json(&["sql", "SELECT k.name, r.reason FROM results r JOIN kernels k ON k.id = r.kernel_id WHERE verdict = 'error' ORDER BY k.name"]);
    assert_eq!(errors[0]["name"], "(file)");
    assert_eq!(errors[1]["name"], "broken");
    assert!(
        errors[1]["reason"].as_str().unwrap().contains("undeclared"),
        "{errors:#}"
    );
    assert!(s["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["path"].as_str().unwrap().ends_with("dangling.cu")));
    let runs = t.cmd_json(&["runs"]);
    assert_eq!(runs[0]["warnings"].as_array().unwrap().len(), 1);
}

#[test]
fn host_files_that_only_declare_kernels_are_warnings_not_errors() {
    // A host file launching kernels defined elsewhere, with host code
    // clang cannot compile here: no kernel of it can be affected.
    let t = Tree::new(1);
    std::fs::write(
        t.src().join("main.cu"),
        "__global__ void defined_elsewhere(int *a,\n    int n);\n\
         int main() { return undeclared_host_call(); }\n",
    )
    .unwrap();
    let (s, code) = t.scan(&[]);
    assert_eq!(code, 0, "{s:#}");
    assert_eq!(s["verdicts"]["error"], 0, "{s:#}");
    assert!(
        s["warnings"].as_array().unwrap().iter().any(|w| {
            w["path"].as_str().unwrap().ends_with("main.cu")
                && w["message"]
                    .as_str()
                    .unwrap()
                    .contains("no kernel affected")
        }),
        "{s:#}"
    );
}

#[test]
fn a_corrupt_database_is_a_clear_error() {
    let t = Tree::new(1);
    std::fs::write(t.db(), vec![0x5au8; 4096]).unwrap();
    let src = t.src();
    let db = t.db();
    let out = run(
        &["scan", src.to_str().unwrap(), "--db", db.to_str().unwrap()],
        t.dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("file is not a database") && err.contains("history.db"),
        "{err}"
    );
    for cmd in [&["runs"][..], &["report"], &["query", "latest_verdicts"]] {
        let out = t.cmd(cmd);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("file is not a database"));
    }
}

#[test]
fn the_default_database_lives_in_dot_drfscan() {
    let t = Tree::new(1);
    let out = run(
        &[
            "scan",
            "src",
            "--format",
            "json",
            "--block-dim",
            "128",
            "--grid-dim",
            "64",
        ],
        t.dir.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(t.dir.path().join(".drfscan/drfscan.db").is_file());
    let out = run(&["runs", "--format", "json"], t.dir.path());
    assert_eq!(json(&out).as_array().unwrap().len(), 1);
}

fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// The latest run's id and how many results it has committed.
fn latest_results(db: &Path) -> (i64, i64) {
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return (0, 0);
    };
    conn.query_row(
        "SELECT id, (SELECT count(*) FROM results WHERE run_id = runs.id) FROM runs ORDER BY id DESC LIMIT 1",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap_or((0, 0))
}

#[test]
fn killed_scans_keep_their_results_are_marked_interrupted_and_resume() {
    let t = Tree::new(30);
    let src = t.src();
    let db = t.db();
    // Scan `i` has flags of its own (a define, a solver time limit), hence
    // cache keys of its own: each parses and solves everything, so every
    // phase is there to be killed.
    let scan_cmd = |db: &Path, i: u32| {
        let mut c = bin();
        c.args([
            "scan",
            src.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
            "-j",
            "1",
        ])
        .args(["--block-dim", "128", "--grid-dim", "64"])
        .args(["--timeout-ms", &(10_000 + i).to_string()])
        .args(["-D", &format!("SCAN_NUMBER={i}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        c
    };
    // How long such a scan takes here, to spread the kills over it.
    let probe = tempfile::tempdir().unwrap();
    let started = Instant::now();
    assert!(scan_cmd(&probe.path().join("probe.db"), 999)
        .status()
        .unwrap()
        .success());
    let span = started.elapsed();

    let mut killed = 0;
    let mut kept: Vec<(i64, i64, u32)> = Vec::new();
    for i in 0..20u32 {
        // Pseudo-random points, the same on every run of the test; every
        // other scan is killed only once it has committed results.
        let at = span.mul_f64(f64::from((i * 7919 + 13) % 97) / 97.0 * 0.9);
        let before = latest_results(&db).0;
        let mut child = scan_cmd(&db, i).spawn().unwrap();
        if i % 2 == 1 {
            let deadline = Instant::now() + span * 4;
            while !matches!(latest_results(&db), (run, n) if run > before && n > 0)
                && child.try_wait().unwrap().is_none()
                && Instant::now() < deadline
            {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        } else {
            std::thread::sleep(at);
        }
        let finished = child.try_wait().unwrap().is_some();
        child.kill().ok(); // SIGKILL
        child.wait().unwrap();
        killed += usize::from(!finished);
        eprintln!("scan {i}: at {at:?} finished {finished}");
        if !db.exists() {
            continue;
        }
        assert_eq!(integrity(&db), "ok", "after a kill at {at:?}");
        let store = Store::open_read_only(&db).unwrap();
        // Every run's committed results stay, however many kills later.
        for (run, n, _) in &kept {
            assert!(
                store.results(*run).unwrap().len() as i64 >= *n,
                "run {run} lost results"
            );
        }
        if let Some(&last) = store.latest_runs(1).unwrap().first() {
            if !kept.iter().any(|(r, _, _)| *r == last) {
                kept.push((last, store.results(last).unwrap().len() as i64, i));
            }
        }
    }
    eprintln!("{killed} of 20 scans killed while running");
    assert!(
        killed >= 10,
        "only {killed} of 20 scans were still running when killed"
    );

    // The next scan marks every killed run; with the flags of the last run
    // that recorded results, it parses and solves none of them again.
    let (run, _, i) = *kept
        .iter()
        .rev()
        .find(|(_, n, _)| *n > 0)
        .expect("no killed scan recorded a result");
    let (s, _) = t.scan(&[
        "--timeout-ms",
        &(10_000 + i).to_string(),
        "-D",
        &format!("SCAN_NUMBER={i}"),
    ]);
    assert_eq!(n(&s, "kernels"), 60);
    let store = Store::open_read_only(&db).unwrap();
    let runs = store.runs().unwrap();
    let last = runs.last().unwrap();
    assert_eq!(last.status, "finished");
    for r in &runs[..runs.len() - 1] {
        assert!(
            r.status == "interrupted" || r.status == "finished",
            "run {} left {}",
            r.id,
            r.status
        );
    }
    assert!(runs.iter().any(|r| r.status == "interrupted"));
    let recorded: std::collections::HashSet<(String, String)> = store
        .results(run)
        .unwrap()
        .into_iter()
        .map(|r| (r.path, r.kernel))
        .collect();
    let now = store.results(last.id).unwrap();
    for r in now
        .iter()
        .filter(|r| recorded.contains(&(r.path.clone(), r.kernel.clone())))
    {
        assert_eq!(r.solver_calls, 0, "{} solved twice", r.kernel);
        assert!(r.unit_cached, "{} parsed twice", r.path);
    }
    let listed = t.cmd_json(&["runs"]);
    assert!(listed
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["status"] == "interrupted"));
}

#[test]
fn concurrent_scans_of_one_database_both_complete() {
    let a = Tree::new(12);
    let b = Tree::new(12);
    let db = a.db();
    let spawn = |src: PathBuf| {
        bin()
            .args([
                "scan",
                src.to_str().unwrap(),
                "--db",
                db.to_str().unwrap(),
                "-j",
                "1",
                "--block-dim",
                "128",
                "--grid-dim",
                "64",
                "--format",
                "json",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (ca, cb) = (spawn(a.src()), spawn(b.src()));
    for child in [ca, cb] {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(n(&json(&out), "kernels"), 24);
    }
    let runs = a.cmd_json(&["runs"]);
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert!(
        runs.iter()
            .all(|r| r["status"] == "finished" && r["kernels"] == 24),
        "{runs:#?}"
    );
}

#[test]
fn the_git_commit_of_the_scanned_tree_is_recorded() {
    let t = Tree::new(1);
    let git = |args: &[&str]| {
        Command::new("git")
            .args([
                "-c",
                "user.name=drfscan",
                "-c",
                "user.email=drfscan@localhost",
            ])
            .args(args)
            .current_dir(t.src())
            .output()
    };
    git(&["init", "-q"]).unwrap();
    git(&["add", "."]).unwrap();
    git(&["commit", "-qm", "kernels"]).unwrap();
    let head = String::from_utf8(git(&["rev-parse", "HEAD"]).unwrap().stdout)
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(head.len(), 40);
    t.scan(&[]);
    let runs = t.cmd_json(&["runs"]);
    assert_eq!(runs[0]["git_commit"], head.as_str());
}

#[test]
fn warm_scans_reuse_whole_kernel_reports_with_the_same_races() {
    let t = Tree::new(3);
    // A racy file, so that reports carry races and witnesses.
    t.write_file(1, 3, false);
    let (cold, _) = t.scan(&[]);
    assert!(n(&cold, "races") > 0, "{cold:#}");
    let (warm, _) = t.scan(&[]);
    assert_eq!(n(&warm, "solver_calls"), 0, "{warm:#}");
    assert_eq!(warm["verdicts"], cold["verdicts"]);
    assert_eq!(warm["races"], cold["races"], "{warm:#}");
    let db = t.db();
    let db = db.to_str().unwrap();
    let cached = json(&run(
        &[
            "sql",
            "select count(*) as n from report_cache",
            "--db",
            db,
            "--format",
            "json",
        ],
        t.src().as_path(),
    ));
    assert!(
        cached.to_string().contains("\"n\":") && !cached.to_string().contains("\"n\":0"),
        "{cached}"
    );
    // The races of both runs are the same rows, witness for witness.
    let witnesses = |run: u64| {
        let sql = format!(
            "select x.identity, x.witness from races x join results r on r.id = x.result_id where r.run_id = {run} order by 1, 2"
        );
        json(&run_sql(&sql, db, t.src().as_path()))
    };
    assert_eq!(witnesses(n(&cold, "run_id")), witnesses(n(&warm, "run_id")));
}

fn run_sql(sql: &str, db: &str, cwd: &Path) -> Output {
    run(&["sql", sql, "--db", db, "--format", "json"], cwd)
}

#[test]
fn included_files_are_analysed_where_they_are_included_and_reported_once() {
    // The layout of many benchmark suites: kernels in a `.cu` file (and a
    // header) that only compile inside the `.cu` file that includes them,
    // which also launches them; a host-only file that does not compile.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("kernels.cu"),
        "__global__ void scale(real *a) {\n  __shared__ real s[TILE];\n  s[threadIdx.x % TILE] = a[blockIdx.x * TILE + threadIdx.x];\n}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("common.cuh"),
        "__global__ void zero(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n",
    )
    .unwrap();
    let main = "#define TILE 64\ntypedef float real;\n#include \"kernels.cu\"\n#include \"common.cuh\"\n\
        void run(real *a, int *b, int n) {\n  scale<<<n / TILE, TILE>>>(a);\n  zero<<<n, 32>>>(b);\n}\n";
    std::fs::write(src.join("main.cu"), main).unwrap();
    std::fs::write(
        src.join("other.cu"),
        "#include \"common.cuh\"\nvoid more(int *b) { zero<<<1, 32>>>(b); }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("host.cu"),
        "#include <GL/not_installed.h>\nint main() { return helper(); }\n",
    )
    .unwrap();
    let db = dir.path().join("h.db");
    let out = run(
        &[
            "scan",
            src.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
            "--format",
            "json",
        ],
        dir.path(),
    );
    let s = json(&out);
    assert_eq!(out.status.code(), Some(0), "{s:#}");
    // `scale` is DRF only at its launched width: with any block size the
    // modulo would make threads collide.
    assert_eq!(s["kernels"], 2, "{s:#}");
    assert_eq!(s["verdicts"]["drf"], 2, "{s:#}");
    assert_eq!(s["verdicts"]["error"], 0, "{s:#}");
    let rows = json(&run(
        &[
            "sql",
            "--db",
            db.to_str().unwrap(),
            "--format",
            "json",
            "SELECT k.path, k.name FROM kernels k ORDER BY k.name",
        ],
        dir.path(),
    ));
    let rows = rows.as_array().unwrap();
    assert!(
        rows[0]["path"].as_str().unwrap().ends_with("kernels.cu"),
        "{rows:?}"
    );
    assert!(
        rows[1]["path"].as_str().unwrap().ends_with("common.cuh"),
        "{rows:?}"
    );
    let warnings = s["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w["path"].as_str().unwrap().ends_with("host.cu")),
        "{warnings:?}"
    );
}

#[test]
fn includes_missing_from_the_include_path_are_found_in_the_scanned_tree() {
    // A suite's shared header, included with angle brackets and found by
    // its build's `-I ../common`: the scan finds it in the tree and says so.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("suite");
    std::fs::create_dir_all(src.join("common")).unwrap();
    std::fs::create_dir_all(src.join("app")).unwrap();
    std::fs::write(src.join("common/sizes.h"), "#define TILE 64\n").unwrap();
    std::fs::write(
        src.join("app/k.cu"),
        "#include <sizes.h>\n__global__ void k(int *a) {\n  __shared__ int s[TILE];\n  s[threadIdx.x % TILE] = a[threadIdx.x];\n}\nvoid run(int *a) { k<<<1, TILE>>>(a); }\n",
    )
    .unwrap();
    let db = dir.path().join("h.db");
    let args = [
        "scan",
        src.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--format",
        "json",
    ];
    let out = run(&args, dir.path());
    let s = json(&out);
    assert_eq!(s["verdicts"]["drf"], 1, "{s:#}");
    let warnings = s["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w["message"].as_str().unwrap().contains(&format!(
                "-I {}",
                src.join("common").canonicalize().unwrap().display()
            ))),
        "{warnings:?}"
    );
    // The second scan answers from the unit cache, with the same verdict.
    let s = json(&run(&args, dir.path()));
    assert_eq!(
        (s["verdicts"]["drf"].as_u64(), s["parsed_units"].as_u64()),
        (Some(1), Some(0)),
        "{s:#}"
    );
}

#[test]
fn gc_keeps_the_latest_runs_and_what_they_use() {
    let t = Tree::new(3);
    t.scan(&[]);
    t.write_file(0, 9, true); // new code: entries only the first run used
    t.scan(&[]);
    t.scan(&[]);
    let c = t.cmd_json(&["gc", "--keep", "1"]);
    assert_eq!(c["runs"], 2, "{c:#}");
    assert_eq!(c["kept_runs"], 1, "{c:#}");
    assert_eq!(c["oldest_kept"], 3, "{c:#}");
    assert!(c["results"].as_i64().unwrap() >= 12, "{c:#}");
    assert!(c["unit_cache"].as_i64().unwrap() >= 1, "{c:#}");
    assert!(c["bytes_after"].as_u64().unwrap() <= c["bytes_before"].as_u64().unwrap());
    let db = t.db();
    let store = Store::open_read_only(&db).unwrap();
    assert_eq!(store.runs().unwrap().len(), 1);
    assert_eq!(store.results(3).unwrap().len(), 6);
    drop(store);
    // What the kept run used is still there: a re-scan does no work.
    let (s, _) = t.scan(&[]);
    assert_eq!(n(&s, "parsed_units"), 0, "{s:#}");
    assert_eq!(n(&s, "solver_calls"), 0, "{s:#}");
    let text = t.cmd(&["gc", "--keep", "5"]);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("MiB before"));
    let out = run(&["gc", "--db", "missing.db"], t.dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.db"));
}

#[test]
fn readers_run_while_a_scan_writes() {
    let t = Tree::new(40);
    t.scan(&[]);
    t.write_file(1, 5, false);
    let src = t.src();
    let db = t.db();
    let mut scan = bin()
        .args([
            "scan",
            src.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
            "-j",
            "1",
        ])
        .args([
            "--block-dim",
            "128",
            "--grid-dim",
            "64",
            "--timeout-ms",
            "9999",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reads = 0;
    while scan.try_wait().unwrap().is_none() || reads < 4 {
        for cmd in [
            &["runs"][..],
            &["report"],
            &["diff", "1"],
            &["sql", "SELECT count(*) FROM results"],
            &["query", "latest_verdicts"],
        ] {
            let out = t.cmd(cmd);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{cmd:?} during a scan: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            reads += 1;
        }
    }
    let out = scan.wait_with_output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs = t.cmd_json(&["runs"]);
    assert_eq!(runs.as_array().unwrap().len(), 2);
    assert!(runs
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["status"] == "finished" && r["kernels"] == 80));
}

#[test]
fn a_builds_compile_commands_give_each_file_its_flags() {
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("proj");
    std::fs::create_dir_all(proj.join("build")).unwrap();
    // TILE comes only from the build's command line.
    std::fs::write(
        proj.join("k.cu"),
        "__global__ void tiled(float *a) {\n  __shared__ float s[TILE];\n  s[threadIdx.x % TILE] = a[threadIdx.x];\n}\n",
    )
    .unwrap();
    let db = dir.path().join("h.db");
    let scan = |extra: &[&str]| {
        let mut args = vec!["scan", proj.to_str().unwrap(), "--db", db.to_str().unwrap()];
        args.extend(extra);
        args.extend(["--format", "json"]);
        run(&args, dir.path())
    };
    let s = json(&scan(&[]));
    assert_eq!(s["verdicts"]["error"], 1, "{s:#}");
    let commands = format!(
        r#"[{{"directory": "{}", "file": "k.cu", "command": "nvcc -O3 --define-macro TILE=32 -arch sm_80 -c k.cu -o k.o"}}]"#,
        proj.display()
    );
    std::fs::write(proj.join("build/compile_commands.json"), commands).unwrap();
    let s = json(&scan(&[]));
    assert_eq!(s["verdicts"]["error"], 0, "{s:#}");
    assert_eq!(n(&s, "kernels"), 1, "{s:#}");
    // A command-line -D wins over the build's.
    let s = json(&scan(&["-D", "TILE=no_such_size"]));
    assert_eq!(s["verdicts"]["error"], 1, "{s:#}");
    // A database that is not one: a clear error naming it, nothing recorded.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "[{\"file\": 3}]").unwrap();
    let out = scan(&["--compile-commands", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json") && err.contains("not a compilation database"),
        "{err}"
    );
}

#[test]
fn a_makefile_gives_its_cuda_rules_flags_to_the_files_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("proj");
    std::fs::create_dir_all(proj.join("src")).unwrap();
    std::fs::create_dir_all(proj.join("inc")).unwrap();
    // The element type comes from a header the Makefile's -I finds, chosen
    // by a -D in a configuration the Makefile picks by default.
    std::fs::write(
        proj.join("inc/real.h"),
        "#if defined FLOAT\ntypedef float real_t;\n#endif\n",
    )
    .unwrap();
    std::fs::write(
        proj.join("src/k.cu"),
        "#include \"real.h\"\n__global__ void tiled(real_t *a) {\n  __shared__ real_t s[TILE];\n  if (threadIdx.x < TILE)\n    s[threadIdx.x] = a[threadIdx.x];\n}\n",
    )
    .unwrap();
    let makefile = "PREC ?= single\nifeq ($(PREC),single)\n  REAL = -DFLOAT\nendif\n\
                    CFLAGS := $(REAL) -DTILE=32 -Iinc -O3\n\
                    OBJS = $(patsubst %.cu,%.o,$(wildcard src/*.cu))\n\
                    %.o: %.cu\n\tnvcc $(CFLAGS) -c $< -o $@\n";
    std::fs::write(proj.join("Makefile"), makefile).unwrap();
    let db = dir.path().join("h.db");
    let scan = |extra: &[&str]| {
        let mut args = vec!["scan", proj.to_str().unwrap(), "--db", db.to_str().unwrap()];
        args.extend(extra);
        run(&args, dir.path())
    };
    let out = scan(&[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 drf"), "{text}");
    assert!(
        text.contains("Makefile flags: 1 files from 1 Makefiles"),
        "{text}"
    );
    let s = json(&scan(&["--format", "json", "--no-makefiles"]));
    assert_eq!(s["verdicts"]["error"], 1, "{s:#}");
    assert_eq!(s["makefile_files"], 0, "{s:#}");
    // The parse cache knows the Makefile's flags: another tile size parses again.
    std::fs::write(
        proj.join("Makefile"),
        makefile.replace("TILE=32", "TILE=bad size"),
    )
    .unwrap();
    let s = json(&scan(&["--format", "json"]));
    assert_eq!(s["verdicts"]["error"], 1, "{s:#}");
    assert_eq!(s["makefile_files"], 1, "{s:#}");
    // A compilation database wins over the Makefile for the files it lists.
    std::fs::write(
        proj.join("compile_commands.json"),
        format!(
            r#"[{{"directory": "{}", "file": "src/k.cu", "command": "nvcc -DFLOAT -DTILE=8 -Iinc -c src/k.cu"}}]"#,
            proj.display()
        ),
    )
    .unwrap();
    let s = json(&scan(&["--format", "json"]));
    assert_eq!(s["verdicts"]["drf"], 1, "{s:#}");
    assert_eq!(s["makefile_files"], 0, "{s:#}");
}

#[test]
fn launches_in_other_files_of_the_directory_fix_the_launch() {
    // Parboil's layout: the kernel in `kernels.cu`, its launch in `main.cu`
    // through a declaration. The kernel is DRF only at its launched width
    // (`s` has one cell per thread of a 64-wide block).
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("prog");
    let lib = dir.path().join("lib");
    for d in [&prog, &lib] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::write(
            d.join("kernels.cu"),
            "__global__ void tile(int *a) {\n  __shared__ int s[64];\n  s[threadIdx.x % 64] = a[threadIdx.x];\n  __syncthreads();\n  a[threadIdx.x] = s[(threadIdx.x + 1) % 64];\n}\n",
        )
        .unwrap();
    }
    std::fs::write(
        prog.join("main.cu"),
        "#define WIDTH 64\n__global__ void tile(int *a);\n\
         void run(int *a) {\n  dim3 block;\n  block.x = WIDTH;\n  tile<<<1, block>>>(a);\n}\n",
    )
    .unwrap();
    // In another directory, the same kernel's address escapes: it stays symbolic.
    std::fs::write(
        lib.join("main.cu"),
        "__global__ void tile(int *a);\nvoid (*table[])(int *) = {tile};\nvoid run(int *a) { tile<<<1, 64>>>(a); }\n",
    )
    .unwrap();
    let db = dir.path().join("h.db");
    let out = run(
        &[
            "scan",
            dir.path().to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
            "--format",
            "json",
        ],
        dir.path(),
    );
    let s = json(&out);
    assert_eq!(s["kernels"], 2, "{s:#}");
    let rows = json(&run_sql(
        "SELECT k.path, r.verdict, r.launches FROM results r JOIN kernels k ON k.id = r.kernel_id ORDER BY k.path",
        db.to_str().unwrap(),
        dir.path(),
    ));
    let rows = rows.as_array().unwrap();
    assert!(
        rows[0]["path"].as_str().unwrap().contains("/lib/"),
        "{rows:?}"
    );
    assert_eq!(rows[0]["verdict"], "racy", "{rows:?}");
    assert!(rows[0]["launches"].is_null(), "{rows:?}");
    assert!(
        rows[1]["path"].as_str().unwrap().contains("/prog/"),
        "{rows:?}"
    );
    assert_eq!(rows[1]["verdict"], "drf", "{rows:?}");
    let launches = rows[1]["launches"].as_str().unwrap();
    assert!(
        launches.contains("<<<(1, 1, 1), (64, 1, 1)>>>"),
        "{launches}"
    );
    assert!(launches.contains("main.cu:6:"), "{launches}");
    // The report shows the launch next to the verdicts of the run.
    let out = run(
        &["report", "--db", db.to_str().unwrap(), "--format", "json"],
        dir.path(),
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("(64, 1, 1)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn header_template_kernels_are_reported_in_their_header_once_per_launch_configuration() {
    // A kernel template of a project header, instantiated by several files:
    // reported at its definition, its race at the header's line; units
    // launching it alike share one analysis, one launching it otherwise
    // gets its own.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("tile.cuh"),
        "template <int N>\n__global__ void tile(float *a) {\n  __shared__ float s[N];\n  s[threadIdx.x % N] = a[threadIdx.x];\n}\n",
    )
    .unwrap();
    let launch = |block: u32| {
        format!(
            "#include \"tile.cuh\"\nvoid run(float *a, int n) {{ tile<64><<<n, {block}>>>(a); }}\n"
        )
    };
    std::fs::write(src.join("a.cu"), launch(64)).unwrap();
    std::fs::write(src.join("b.cu"), launch(64)).unwrap();
    std::fs::write(src.join("c.cu"), launch(128)).unwrap();
    let db = dir.path().join("t.db");
    let out = run(
        &[
            "scan",
            src.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
            "--format",
            "json",
        ],
        dir.path(),
    );
    let s = json(&out);
    assert_eq!(s["kernels"], 2, "{s:#}");
    assert_eq!(s["verdicts"]["drf"], 1, "{s:#}");
    assert_eq!(s["verdicts"]["racy"], 1, "{s:#}");
    let rows = json(&run(
        &[
            "sql",
            "--db",
            db.to_str().unwrap(),
            "--format",
            "json",
            "SELECT k.path, k.name, r.verdict, x.a_line, x.a_text FROM kernels k \
             JOIN results r ON r.kernel_id = k.id LEFT JOIN races x ON x.result_id = r.id \
             ORDER BY k.name",
        ],
        dir.path(),
    ));
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    for r in rows {
        assert!(
            r["path"].as_str().unwrap().ends_with("tile.cuh"),
            "{rows:?}"
        );
    }
    assert_eq!(rows[0]["name"], "tile<64>", "{rows:?}");
    assert_eq!(rows[0]["verdict"], "drf", "{rows:?}");
    assert_eq!(
        rows[1]["name"], "tile<64> (as c.cu launches it)",
        "{rows:?}"
    );
    assert_eq!(rows[1]["verdict"], "racy", "{rows:?}");
    assert_eq!(rows[1]["a_line"], 4, "{rows:?}");
    assert_eq!(
        rows[1]["a_text"], "s[threadIdx.x % N] = a[threadIdx.x];",
        "{rows:?}"
    );
}
