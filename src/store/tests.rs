use super::*;
use crate::check::{Confidence, RaceAccess, Witness};
use crate::protocol::Mode;
use std::collections::BTreeMap;

const SOURCE: &str = "__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n  int v = a[0];\n}\n";

fn meta(paths: &[&str]) -> RunMeta {
    RunMeta {
        tool_version: "test".into(),
        analysis_version: "1".into(),
        git_commit: None,
        options: serde_json::json!({"block_level": false}),
        label: Some("unit".into()),
        paths: paths.iter().map(|p| p.to_string()).collect(),
        owner: None,
    }
}

fn race(lines: (u32, u32), modes: (Mode, Mode)) -> Race {
    let mut t1 = BTreeMap::new();
    t1.insert("tid.x".to_string(), 0);
    let mut t2 = BTreeMap::new();
    t2.insert("tid.x".to_string(), 1);
    Race {
        array: "a".into(),
        accesses: [
            RaceAccess {
                id: 0,
                loc: Loc::new(lines.0, 3),
                mode: modes.0,
            },
            RaceAccess {
                id: 1,
                loc: Loc::new(lines.1, 11),
                mode: modes.1,
            },
        ],
        index: vec![0],
        confidence: Confidence::Confirmed,
        witness: Witness {
            globals: BTreeMap::new(),
            threads: [t1, t2],
        },
        precondition: None,
    }
}

fn result(
    path: &str,
    kernel: &str,
    verdict: Verdict,
    races: Vec<Race>,
    source: &str,
    ms: f64,
) -> KernelResult {
    KernelResult {
        path: path.into(),
        file_hash: blake3::hash(source.as_bytes()).to_hex().to_string(),
        kernel: kernel.into(),
        verdict,
        reason: (verdict == Verdict::Unsupported).then(|| "recursion".to_string()),
        loc: Some(Loc::new(1, 17)),
        parse_ms: 1.0,
        infer_ms: 0.0,
        solve_ms: ms,
        replay_ms: 0.0,
        solver_calls: 2,
        cache_hits: 0,
        unit_cached: false,
        races: races
            .into_iter()
            .map(|r| RaceRecord::new(path, kernel, source, r))
            .collect(),
        launches: Vec::new(),
    }
}

fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("drfscan.db");
    (dir, path)
}

#[test]
fn open_creates_and_reopens_at_the_latest_schema() {
    let (_d, path) = temp_db();
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    let ro = Store::open_read_only(&path).unwrap();
    assert!(ro.runs().unwrap().is_empty());
}

#[test]
fn garbage_and_foreign_files_are_refused_by_name() {
    let (_d, path) = temp_db();
    std::fs::write(&path, vec![0x42u8; 8192]).unwrap();
    let err = Store::open(&path).err().unwrap().to_string();
    assert!(
        err.contains("file is not a database") && err.contains("drfscan.db"),
        "{err}"
    );
    let err = Store::open_read_only(&path).err().unwrap().to_string();
    assert!(err.contains("file is not a database"), "{err}");

    std::fs::remove_file(&path).unwrap();
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE recipes (name TEXT);")
        .unwrap();
    drop(conn);
    let err = Store::open(&path).err().unwrap().to_string();
    assert!(err.contains("not a drfscan database"), "{err}");

    let missing = path.with_file_name("missing.db");
    let err = Store::open_read_only(&missing).err().unwrap().to_string();
    assert!(
        err.contains("missing.db") && err.contains("no such database"),
        "{err}"
    );
}

#[test]
fn a_run_is_readable_before_it_finishes() {
    let (_d, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let run = store.begin_run(&meta(&["/src"])).unwrap();
    let racy = result(
        "/src/k.cu",
        "k",
        Verdict::Racy,
        vec![race((2, 3), (Mode::Write, Mode::Read))],
        SOURCE,
        5.0,
    );
    store
        .record_batch(run, &[racy], &Pending::default())
        .unwrap();
    let warning = Warning {
        path: "/src/broken.cu".into(),
        message: "cannot read: permission denied".into(),
    };
    store.record_warnings(run, &[warning]).unwrap();

    // Another process reading now sees the committed kernel of a running run.
    let ro = Store::open_read_only(&path).unwrap();
    let row = ro.run(run).unwrap().unwrap();
    assert_eq!(row.status, "running");
    assert!(row.finished_at.is_none());
    assert_eq!(row.kernels, 1);
    assert_eq!(row.verdicts["racy"], 1);
    assert_eq!(row.warnings.len(), 1);
    let results = ro.results(run).unwrap();
    assert_eq!(results[0].races.len(), 1);
    let r = &results[0].races[0];
    assert_eq!(r.accesses[0].text, "a[threadIdx.x] = 1;");
    assert_eq!(r.accesses[1].mode, "read");
    assert_eq!(r.confidence, "confirmed");
    assert_eq!(r.witness["threads"][1]["tid.x"], 1);

    store.finish_run(run, RunStatus::Finished).unwrap();
    let row = ro.run(run).unwrap().unwrap();
    assert_eq!(row.status, "finished");
    assert!(row.finished_at.is_some());
    assert_eq!(
        ro.previous_finished_run(run + 1, &["/src".into()]).unwrap(),
        Some(run)
    );
    assert_eq!(
        ro.previous_finished_run(run + 1, &["/other".into()])
            .unwrap(),
        None
    );
}

#[test]
fn race_identity_survives_line_shifts_but_not_other_changes() {
    let shifted = format!("// a new comment\n\n{SOURCE}");
    let r = race((2, 3), (Mode::Write, Mode::Read));
    let a = RaceRecord::new("k.cu", "k", SOURCE, r.clone());
    let b = RaceRecord::new(
        "k.cu",
        "k",
        &shifted,
        race((4, 5), (Mode::Write, Mode::Read)),
    );
    assert_eq!(a.identity, b.identity);
    // The two accesses in the other order are the same race.
    let mut swapped = r.clone();
    swapped.accesses.swap(0, 1);
    assert_eq!(
        RaceRecord::new("k.cu", "k", SOURCE, swapped).identity,
        a.identity
    );
    // Another mode, kernel or array is another race.
    assert_ne!(
        RaceRecord::new(
            "k.cu",
            "k",
            SOURCE,
            race((2, 3), (Mode::Write, Mode::Write))
        )
        .identity,
        a.identity
    );
    assert_ne!(
        RaceRecord::new("k.cu", "k2", SOURCE, r.clone()).identity,
        a.identity
    );
    let mut other_array = r;
    other_array.array = "b".into();
    assert_ne!(
        RaceRecord::new("k.cu", "k", SOURCE, other_array).identity,
        a.identity
    );
}

#[test]
fn diff_matches_races_by_identity() {
    let (_d, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let old = race((2, 3), (Mode::Write, Mode::Read));
    let base = store.begin_run(&meta(&["/src"])).unwrap();
    store
        .record_batch(
            base,
            &[
                result(
                    "/src/k.cu",
                    "k",
                    Verdict::Racy,
                    vec![old.clone()],
                    SOURCE,
                    2.0,
                ),
                result(
                    "/src/k.cu",
                    "fixed",
                    Verdict::Racy,
                    vec![old.clone()],
                    SOURCE,
                    2.0,
                ),
                result("/src/k.cu", "slow", Verdict::Drf, vec![], SOURCE, 2.0),
                result(
                    "/src/k.cu",
                    "gone",
                    Verdict::Racy,
                    vec![old.clone()],
                    SOURCE,
                    2.0,
                ),
            ],
            &Pending::default(),
        )
        .unwrap();
    store.finish_run(base, RunStatus::Finished).unwrap();

    let shifted = format!("\n{SOURCE}");
    let head = store.begin_run(&meta(&["/src"])).unwrap();
    store
        .record_batch(
            head,
            &[
                // Same race, moved one line down, plus a new write/write race.
                result(
                    "/src/k.cu",
                    "k",
                    Verdict::Racy,
                    vec![
                        race((3, 4), (Mode::Write, Mode::Read)),
                        race((3, 3), (Mode::Write, Mode::Write)),
                    ],
                    &shifted,
                    2.0,
                ),
                result("/src/k.cu", "fixed", Verdict::Drf, vec![], &shifted, 2.0),
                result("/src/k.cu", "slow", Verdict::Drf, vec![], &shifted, 9.0),
                result(
                    "/src/k.cu",
                    "new",
                    Verdict::Divergent,
                    vec![],
                    &shifted,
                    1.0,
                ),
            ],
            &Pending::default(),
        )
        .unwrap();
    store.finish_run(head, RunStatus::Finished).unwrap();

    let d = diff_runs(
        base,
        &store.results(base).unwrap(),
        head,
        &store.results(head).unwrap(),
    );
    assert_eq!(d.new_races.len(), 1, "{d:#?}");
    assert_eq!(d.new_races[0].kernel, "k");
    assert_eq!(d.new_races[0].accesses[1].mode, "write");
    assert_eq!(d.fixed_races.len(), 1, "{d:#?}");
    assert_eq!(d.fixed_races[0].kernel, "fixed");
    let changes: Vec<_> = d
        .verdict_changes
        .iter()
        .map(|c| (c.kernel.as_str(), c.after.as_str(), c.worse))
        .collect();
    assert_eq!(
        changes,
        [("fixed", "drf", false), ("new", "divergent", true)]
    );
    assert_eq!(d.slower.len(), 1);
    assert_eq!(d.slower[0].kernel, "slow");
    assert_eq!(d.added_kernels, ["/src/k.cu:new"]);
    assert_eq!(d.removed_kernels, ["/src/k.cu:gone"]);
    assert_eq!(d.new_findings(), 2);

    // Against itself nothing changed.
    let same = diff_runs(
        head,
        &store.results(head).unwrap(),
        head,
        &store.results(head).unwrap(),
    );
    assert_eq!(same.new_findings(), 0);
    assert!(
        same.fixed_races.is_empty() && same.verdict_changes.is_empty() && same.slower.is_empty()
    );
}

#[test]
fn every_saved_query_runs_and_answers() {
    let (_d, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let mut runs = Vec::new();
    for (i, verdict) in [Verdict::Drf, Verdict::Racy].into_iter().enumerate() {
        let run = store.begin_run(&meta(&["/src"])).unwrap();
        let races = if verdict == Verdict::Racy {
            vec![race((2, 3), (Mode::Write, Mode::Read))]
        } else {
            vec![]
        };
        store
            .record_batch(
                run,
                &[
                    // The file did not change, the verdict did: flaky.
                    result("/src/k.cu", "k", verdict, races, SOURCE, 1.0 + i as f64),
                    result("/src/u.cu", "u", Verdict::Unsupported, vec![], "x", 3.0),
                ],
                &Pending::default(),
            )
            .unwrap();
        store.finish_run(run, RunStatus::Finished).unwrap();
        runs.push(run);
    }
    let ro = Store::open_read_only(&path).unwrap();
    let queries = saved_queries();
    assert_eq!(queries.len(), 6);
    for q in &queries {
        assert!(!q.description.is_empty(), "{} has no description", q.name);
        let args: Vec<String> = match q.name {
            "kernel_history" => vec!["k".into()],
            "new_races_since" => vec![runs[0].to_string()],
            _ => vec![],
        };
        let t = ro
            .query(q.sql, &args)
            .unwrap_or_else(|e| panic!("{}: {e:#}", q.name));
        assert!(!t.rows.is_empty(), "{} answered nothing", q.name);
    }
    let t = ro
        .query(SavedQuery::find("latest_verdicts").unwrap().sql, &[])
        .unwrap();
    let verdict = t.columns.iter().position(|c| c == "verdict").unwrap();
    assert_eq!(t.rows[0][verdict], "racy");
    let t = ro
        .query(
            SavedQuery::find("kernel_history").unwrap().sql,
            &["k".into()],
        )
        .unwrap();
    assert_eq!(t.rows.len(), 2);
    let t = ro
        .query(SavedQuery::find("flaky_verdicts").unwrap().sql, &[])
        .unwrap();
    assert_eq!(t.rows.len(), 1);
    let t = ro
        .query(
            SavedQuery::find("new_races_since").unwrap().sql,
            &[runs[1].to_string()],
        )
        .unwrap();
    assert!(t.rows.is_empty());
    let t = ro
        .query(SavedQuery::find("unsupported_reasons").unwrap().sql, &[])
        .unwrap();
    assert_eq!(t.rows[0][1], "recursion");
    assert!(ro
        .query(SavedQuery::find("kernel_history").unwrap().sql, &[])
        .is_err());
}

#[test]
fn queries_cannot_write() {
    let (_d, path) = temp_db();
    Store::open(&path).unwrap();
    let ro = Store::open_read_only(&path).unwrap();
    for sql in [
        "DELETE FROM runs",
        "DROP TABLE runs",
        "INSERT INTO files (path, hash) VALUES ('a', 'b')",
    ] {
        let err = ro.query(sql, &[]).err().unwrap().to_string();
        assert!(err.contains("read-only"), "{sql}: {err}");
    }
    // Even a writable store refuses writes through `query`.
    let rw = Store::open(&path).unwrap();
    assert!(rw.query("DELETE FROM runs", &[]).is_err());
    assert_eq!(
        ro.query("SELECT count(*) AS n FROM runs", &[])
            .unwrap()
            .rows,
        vec![vec![serde_json::json!(0)]]
    );
}

#[test]
fn caches_answer_from_pending_entries_and_from_the_database() {
    let (_d, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let caches = store.caches(None).unwrap();
    assert_eq!(caches.solver_get("h1"), None);
    caches.solver_put("h1", "{\"drf\":true}".into());
    caches.unit_put("u1", "{}".into());
    assert_eq!(caches.solver_get("h1").as_deref(), Some("{\"drf\":true}"));
    let pending = caches.take_pending();
    assert_eq!((pending.solver.len(), pending.units.len()), (1, 1));
    store.record_caches(&pending).unwrap();
    let fresh = store.caches(None).unwrap();
    assert_eq!(fresh.solver_get("h1").as_deref(), Some("{\"drf\":true}"));
    assert_eq!(fresh.unit_get("u1").as_deref(), Some("{}"));
    assert_eq!(fresh.unit_get("u2"), None);
}

#[test]
fn large_cache_values_are_stored_deflated_and_text_ones_still_read() {
    let (_d, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let caches = store.caches(None).unwrap();
    let unit = format!(
        "{{\"kernels\":[{}]}}",
        vec!["{\"name\":\"k\",\"body\":\"wr[tid.x]\"}"; 2000].join(",")
    );
    caches.unit_put("big", unit.clone());
    store.record_caches(&caches.take_pending()).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let (kind, bytes): (String, i64) = conn
        .query_row(
            "SELECT typeof(unit), length(unit) FROM unit_cache WHERE key = 'big'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(kind, "blob");
    assert!(
        (bytes as usize) * 10 < unit.len(),
        "{bytes} of {}",
        unit.len()
    );
    // Entries written as text by earlier versions read as they are.
    conn.execute(
        "INSERT INTO unit_cache (key, unit) VALUES ('old', '{\"kernels\":[]}')",
        [],
    )
    .unwrap();
    let fresh = store.caches(None).unwrap();
    assert_eq!(fresh.unit_get("big"), Some(unit));
    assert_eq!(fresh.unit_get("old").as_deref(), Some("{\"kernels\":[]}"));
}

#[test]
fn a_database_of_schema_3_is_upgraded_in_place_with_its_runs() {
    let (_d, path) = temp_db();
    {
        let conn = Connection::open(&path).unwrap();
        for sql in &MIGRATIONS[..3] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 3).unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        conn.execute(
            "INSERT INTO runs (started_at, tool_version, analysis_version, options, paths, status)
             VALUES ('2026-01-01T00:00:00Z', 'old', '2', '{}', '[\"/src\"]', 'finished')",
            [],
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    let run = store.run(1).unwrap().unwrap();
    assert_eq!(run.tool_version, "old");
    assert_eq!(
        run.uid.as_deref().map(str::len),
        Some(32),
        "old runs get a uid"
    );
    assert_eq!((run.shard, run.merged_from), (None, None));
}

#[test]
fn a_newer_database_is_refused_with_the_version_that_wrote_it() {
    let (_d, path) = temp_db();
    let mut store = Store::open(&path).unwrap();
    let mut m = meta(&["/src"]);
    m.tool_version = "9.1.0".into();
    store.begin_run(&m).unwrap();
    store.conn.pragma_update(None, "user_version", 99).unwrap();
    drop(store);
    for err in [
        Store::open(&path).err().unwrap(),
        Store::open_read_only(&path).err().unwrap(),
    ] {
        let err = format!("{err:#}");
        assert!(err.contains("schema version 99 is newer"), "{err}");
        assert!(err.contains("drfscan 9.1.0"), "{err}");
    }
}

#[test]
fn a_fallback_database_answers_what_the_own_one_does_not() {
    let (_d, own) = temp_db();
    let other = own.with_file_name("history.db");
    let mut history = Store::open(&other).unwrap();
    let mut pending = Pending::default();
    pending.solver.insert("h".into(), "outcome".into());
    pending.reports.insert("r".into(), "report".into());
    history.record_caches(&pending).unwrap();
    let mut store = Store::open(&own).unwrap();
    let mut mine = Pending::default();
    mine.reports.insert("r".into(), "newer".into());
    store.record_caches(&mine).unwrap();
    let caches = store.caches(Some(&other)).unwrap();
    assert_eq!(caches.solver_get("h").as_deref(), Some("outcome"));
    assert_eq!(
        caches.report_get("r").as_deref(),
        Some("newer"),
        "own entries first"
    );
    assert_eq!(caches.unit_get("u"), None);
    // Hits from the fallback are not copied into this database.
    assert!(caches.take_pending().is_empty());
    let err = store
        .caches(Some(&own.with_file_name("none.db")))
        .err()
        .unwrap();
    assert!(format!("{err:#}").contains("--cache-from"), "{err:#}");
}

#[test]
fn concurrent_writers_all_complete() {
    let (_d, path) = temp_db();
    Store::open(&path).unwrap();
    let workers: Vec<_> = (0..4)
        .map(|w| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut store = Store::open(&path).unwrap();
                let run = store.begin_run(&meta(&["/src"])).unwrap();
                for i in 0..25 {
                    let r = result(
                        &format!("/src/{w}.cu"),
                        &format!("k{i}"),
                        Verdict::Drf,
                        vec![],
                        SOURCE,
                        1.0,
                    );
                    let mut pending = Pending::default();
                    pending.solver.insert(format!("{w}-{i}"), "{}".into());
                    store.record_batch(run, &[r], &pending).unwrap();
                }
                store.finish_run(run, RunStatus::Finished).unwrap();
                run
            })
        })
        .collect();
    let runs: Vec<i64> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    let ro = Store::open_read_only(&path).unwrap();
    for run in runs {
        let row = ro.run(run).unwrap().unwrap();
        assert_eq!((row.status.as_str(), row.kernels), ("finished", 25));
    }
    let t = ro.query("SELECT count(*) FROM solver_cache", &[]).unwrap();
    assert_eq!(t.rows[0][0], 100);
}

#[test]
fn processes_creating_one_database_at_once_all_succeed() {
    let d = tempfile::tempdir().unwrap();
    for round in 0..10 {
        let path = d.path().join(format!("fresh{round}.db"));
        let openers: Vec<_> = (0..6)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || {
                    Store::open(&path)
                        .map(|s| s.schema_version().unwrap())
                        .map_err(|e| e.to_string())
                })
            })
            .collect();
        for o in openers {
            assert_eq!(o.join().unwrap(), Ok(MIGRATIONS.len() as i64));
        }
    }
}

#[test]
fn a_new_database_appears_whole_and_leaves_nothing_beside_it() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("history.db");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    drop(store);
    let names: Vec<String> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    assert_eq!(names, ["history.db"]);
    // Readers see the schema at once.
    assert!(Store::open_read_only(&path).is_ok());
}

#[test]
fn a_write_ahead_log_without_its_database_is_set_aside() {
    // A scan killed, then its database deleted: the log it left must not
    // be replayed into the next database of that name.
    let (d, path) = temp_db();
    let wal = path.with_file_name("drfscan.db-wal");
    let kept = d.path().join("kept-wal");
    {
        let store = Store::open(&path).unwrap();
        store
            .conn
            .execute_batch(
                "CREATE TABLE filler (x BLOB);
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
                 INSERT INTO filler SELECT randomblob(1000) FROM n;
                 PRAGMA wal_checkpoint(TRUNCATE);
                 DELETE FROM filler WHERE rowid % 2 = 0;
                 CREATE TABLE other (x BLOB);
                 INSERT INTO other SELECT x FROM filler;",
            )
            .unwrap();
        std::fs::copy(&wal, &kept).unwrap();
    }
    std::fs::remove_file(&path).unwrap();
    let _ = std::fs::remove_file(&wal);
    std::fs::copy(&kept, &wal).unwrap();

    for _ in 0..2 {
        let store = Store::open(&path).unwrap();
        store
            .conn
            .execute_batch("CREATE TABLE IF NOT EXISTS more (x BLOB); INSERT INTO more VALUES (randomblob(5000));")
            .unwrap();
        let check: String = store
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok");
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
    }
    let aside = std::fs::read_dir(d.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".drfscan.db-wal.orphan-")
        });
    assert!(aside, "the old log is kept aside");
}
