//! The verdict database (DESIGN "The database"): one SQLite file in WAL mode
//! holding runs, kernels, verdicts, races with witnesses, timings, and the
//! content-keyed caches that make scans incremental across runs.
//!
//! Every write is a short `BEGIN IMMEDIATE` transaction retried while another
//! process holds the write lock, so concurrent scans of one database all
//! complete, and a scan killed at any point leaves the results it committed.

mod cache;
mod diff;
mod gc;
mod merge;
mod owner;
mod queries;

pub use cache::{Caches, Pending};
pub use diff::{diff_runs, RaceChange, RunDiff, Slowdown, VerdictChange};
pub use gc::Collected;
pub use merge::Merged;
pub use owner::this_process;
pub use queries::{saved_queries, SavedQuery};

use crate::check::{Confidence, Race, Verdict};
use crate::protocol::Loc;
use anyhow::{bail, Context, Result};
use rusqlite::{
    params, Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction, TransactionBehavior,
};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `PRAGMA application_id` of drfscan databases ("DRFS").
const APPLICATION_ID: i64 = 0x4452_4653;

/// Migrations in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    include_str!("../../schema/0001_init.sql"),
    include_str!("../../schema/0002_report_cache.sql"),
    include_str!("../../schema/0003_race_precondition.sql"),
    include_str!("../../schema/0004_shards.sql"),
    include_str!("../../schema/0005_result_launches.sql"),
];

/// How long a write waits for other writers before giving up.
const WRITE_PATIENCE: Duration = Duration::from_secs(300);

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// What a run records about itself when it starts.
#[derive(Clone, Debug, Serialize)]
pub struct RunMeta {
    pub tool_version: String,
    pub analysis_version: String,
    pub git_commit: Option<String>,
    pub options: serde_json::Value,
    pub label: Option<String>,
    pub paths: Vec<String>,
    /// The process the run belongs to, when not this one ([`owner`]).
    #[serde(skip)]
    pub owner: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    Running,
    Finished,
    Failed,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Finished => "finished",
            RunStatus::Failed => "failed",
        }
    }
}

/// One kernel's outcome in a run, as the engine hands it over.
#[derive(Clone, Debug)]
pub struct KernelResult {
    pub path: String,
    pub file_hash: String,
    pub kernel: String,
    pub verdict: Verdict,
    pub reason: Option<String>,
    pub loc: Option<Loc>,
    /// The file's front-end time (0 when the unit cache answered).
    pub parse_ms: f64,
    pub infer_ms: f64,
    pub solve_ms: f64,
    pub replay_ms: f64,
    pub solver_calls: u64,
    pub cache_hits: u64,
    pub unit_cached: bool,
    pub races: Vec<RaceRecord>,
    /// The launches the kernel was analysed under (launch inference).
    pub launches: Vec<String>,
}

/// A race with what the database needs besides the analysis' own record.
#[derive(Clone, Debug)]
pub struct RaceRecord {
    pub race: Race,
    /// The source lines of the two accesses, trimmed.
    pub texts: [String; 2],
    pub identity: String,
}

impl RaceRecord {
    /// Attach the source lines and the identity of a race of `kernel` in the
    /// file at `path` whose text is `source`.
    pub fn new(path: &str, kernel: &str, source: &str, race: Race) -> RaceRecord {
        let line = |l: u32| {
            source
                .lines()
                .nth((l as usize).wrapping_sub(1))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let texts = [
            line(race.accesses[0].loc.line),
            line(race.accesses[1].loc.line),
        ];
        let identity = race_identity(path, kernel, &race, &texts);
        RaceRecord {
            race,
            texts,
            identity,
        }
    }
}

/// A race's identity: the same race keeps it when unrelated lines move, and
/// the order of the two accesses does not matter.
pub fn race_identity(path: &str, kernel: &str, race: &Race, texts: &[String; 2]) -> String {
    let mut sides = [
        format!("{}\u{1f}{}", race.accesses[0].mode.as_str(), texts[0]),
        format!("{}\u{1f}{}", race.accesses[1].mode.as_str(), texts[1]),
    ];
    sides.sort();
    let mut h = blake3::Hasher::new();
    for part in [path, kernel, &race.array, &sides[0], &sides[1]] {
        h.update(part.as_bytes());
        h.update(b"\x1e");
    }
    h.finalize().to_hex()[..32].to_string()
}

#[derive(Clone, Debug, Serialize)]
pub struct RunRow {
    pub id: i64,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub tool_version: String,
    pub analysis_version: String,
    pub git_commit: Option<String>,
    pub options: serde_json::Value,
    pub label: Option<String>,
    pub paths: Vec<String>,
    pub status: String,
    /// Names the run across databases.
    pub uid: Option<String>,
    /// The share of the tree a shard's run took.
    pub shard: Option<serde_json::Value>,
    /// The shard runs (uids) a merged run folds.
    pub merged_from: Option<Vec<String>>,
    pub kernels: i64,
    pub verdicts: HashMap<String, i64>,
    pub warnings: Vec<Warning>,
}

/// A file a run could not use, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub path: String,
    pub message: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ResultRow {
    pub run_id: i64,
    pub path: String,
    pub kernel: String,
    pub file_hash: String,
    pub verdict: String,
    pub reason: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub parse_ms: f64,
    pub infer_ms: f64,
    pub solve_ms: f64,
    pub replay_ms: f64,
    pub solver_calls: i64,
    pub cache_hits: i64,
    pub unit_cached: bool,
    pub races: Vec<RaceRow>,
    pub launches: Vec<String>,
}

impl ResultRow {
    pub fn total_ms(&self) -> f64 {
        self.parse_ms + self.infer_ms + self.solve_ms + self.replay_ms
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct RaceRow {
    pub array: String,
    pub accesses: [AccessRow; 2],
    pub index: serde_json::Value,
    pub confidence: String,
    pub witness: serde_json::Value,
    pub identity: String,
    pub precondition: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct AccessRow {
    pub id: u32,
    pub line: u32,
    pub column: u32,
    pub mode: String,
    pub text: String,
}

/// The answer to a query: column names and rows of JSON values.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<serde_json::Value>>,
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

/// Run `f` again while another connection holds the lock it needs.
fn retry_busy<T>(mut f: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let deadline = Instant::now() + WRITE_PATIENCE;
    let mut pause = Duration::from_millis(5);
    loop {
        match f() {
            Err(e) if is_busy(&e) && Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            r => return r,
        }
    }
}

/// Creates the database at `path` whole: set up under a temporary name
/// beside it and linked into place, so that a scan killed while creating
/// it leaves either no database or one with its schema, never an empty
/// file that readers refuse. A database another process created meanwhile
/// is kept.
fn create(path: &Path) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "drfscan.db".into());
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let fresh = path.with_file_name(format!(".{name}.new-{}-{serial}", std::process::id()));
    let _ = std::fs::remove_file(&fresh);
    set_aside_orphan_logs(path, &name);
    {
        let conn = Connection::open(&fresh).map_err(|e| describe(path, e))?;
        configure(&conn).map_err(|e| describe(path, e))?;
        let mut store = Store {
            conn,
            path: fresh.clone(),
        };
        store.migrate()?;
    }
    let linked = std::fs::hard_link(&fresh, path);
    let _ = std::fs::remove_file(&fresh);
    match linked {
        Ok(()) => Ok(()),
        Err(_) if path.exists() => Ok(()),
        Err(e) => bail!("{}: cannot create the database: {e}", path.display()),
    }
}

/// A write-ahead log left by a database that was deleted (a scan killed,
/// then the file removed) would be replayed into the new database and
/// corrupt it. It belongs to no database any more: it is moved aside, not
/// deleted, in case someone wants it.
fn set_aside_orphan_logs(path: &Path, name: &str) {
    for suffix in ["-wal", "-shm"] {
        let log = path.with_file_name(format!("{name}{suffix}"));
        if !log.exists() || path.exists() {
            continue;
        }
        let aside = path.with_file_name(format!(".{name}{suffix}.orphan-{}", std::process::id()));
        if std::fs::rename(&log, &aside).is_ok() && suffix == "-wal" {
            eprintln!(
                "drfscan: {}: write-ahead log of a database that no longer exists; moved to {}",
                log.display(),
                aside.display()
            );
        }
    }
}

/// An error on `path`, worded for people when SQLite says it is not a database.
fn describe(path: &Path, e: rusqlite::Error) -> anyhow::Error {
    if e.sqlite_error_code() == Some(ErrorCode::NotADatabase) {
        anyhow::anyhow!("{}: file is not a database", path.display())
    } else {
        anyhow::Error::new(e).context(format!("{}", path.display()))
    }
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

impl Store {
    /// Open `path` for writing, creating the database and applying pending
    /// migrations. A file that is not a drfscan database is an error.
    pub fn open(path: &Path) -> Result<Store> {
        if !path.exists() {
            create(path)?;
        }
        let conn = Connection::open(path).map_err(|e| describe(path, e))?;
        configure(&conn).map_err(|e| describe(path, e))?;
        check_identity(&conn, path)?;
        let mode: String =
            retry_busy(|| conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)))
                .map_err(|e| describe(path, e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            bail!(
                "{}: cannot switch the database to WAL mode (journal mode is {mode})",
                path.display()
            );
        }
        // In WAL mode a killed process loses nothing it committed; only a
        // power cut can lose the last commits, never consistency.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| describe(path, e))?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store.migrate()?;
        Ok(store)
    }

    /// Open an existing database for reading only.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        if !path.exists() {
            bail!(
                "{}: no such database (run `drfscan scan` first)",
                path.display()
            );
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| describe(path, e))?;
        configure(&conn).map_err(|e| describe(path, e))?;
        conn.pragma_update(None, "query_only", true)
            .map_err(|e| describe(path, e))?;
        check_identity(&conn, path)?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| describe(path, e))?;
        if version > MIGRATIONS.len() as i64 {
            bail!("{}", newer_schema(&conn, path, version));
        }
        if version != MIGRATIONS.len() as i64 {
            bail!(
                "{}: database schema version {version}, this drfscan reads version {} (a scan upgrades it)",
                path.display(),
                MIGRATIONS.len()
            );
        }
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    fn migrate(&mut self) -> Result<()> {
        let path = self.path.clone();
        let known = MIGRATIONS.len() as i64;
        let version = self.schema_version()?;
        if version > known {
            bail!("{}", newer_schema(&self.conn, &path, version));
        }
        if version == known {
            return Ok(());
        }
        // A migration may rebuild a table others refer to; foreign keys
        // cannot be switched inside a transaction, so they are off around it
        // and checked before it commits.
        self.conn
            .pragma_update(None, "foreign_keys", false)
            .map_err(|e| describe(&path, e))?;
        let migrated = self.write(|tx| {
            // Read again under the write lock: another scan may have migrated meanwhile.
            let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            for (i, sql) in MIGRATIONS
                .iter()
                .enumerate()
                .skip(version.clamp(0, known) as usize)
            {
                tx.execute_batch(sql)?;
                tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            }
            tx.pragma_update(None, "application_id", APPLICATION_ID)?;
            let broken: i64 =
                tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                    r.get(0)
                })?;
            if broken > 0 {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    format!("{broken} rows refer to rows that do not exist").into(),
                ));
            }
            Ok(())
        });
        self.conn
            .pragma_update(None, "foreign_keys", true)
            .map_err(|e| describe(&path, e))?;
        migrated.with_context(|| format!("{}: cannot prepare the database", path.display()))
    }

    /// Run `f` in an immediate transaction, again from the start while
    /// another writer holds the database.
    fn write<T>(&mut self, mut f: impl FnMut(&Transaction) -> rusqlite::Result<T>) -> Result<T> {
        let conn = &mut self.conn;
        let path = &self.path;
        retry_busy(|| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        })
        .map_err(|e| describe(path, e))
    }

    /// Record the start of a run; its status is `running` until
    /// [`Store::finish_run`]. Runs left `running` by processes that are gone
    /// are marked `interrupted` first.
    pub fn begin_run(&mut self, meta: &RunMeta) -> Result<i64> {
        self.mark_interrupted()?;
        let options = meta.options.to_string();
        let paths = serde_json::to_string(&meta.paths)?;
        let owner = meta.owner.clone().unwrap_or_else(owner::this_process);
        self.write(|tx| {
            tx.execute(
                "INSERT INTO runs (started_at, tool_version, analysis_version, git_commit, options, label, paths, status,
                                   uid, owner)
                 VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?1, ?2, ?3, ?4, ?5, ?6, 'running',
                         lower(hex(randomblob(16))), ?7)",
                params![meta.tool_version, meta.analysis_version, meta.git_commit, options, meta.label, paths, owner],
            )?;
            Ok(tx.last_insert_rowid())
        })
    }

    /// Continue run `run` (a worker after another crashed): it is `running`
    /// again, whatever a scan in between marked it.
    pub fn resume_run(&mut self, run: i64) -> Result<i64> {
        let changed = self.write(|tx| {
            tx.execute(
                "UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?1",
                [run],
            )
        })?;
        if changed == 0 {
            bail!("{}: no run {run} to continue", self.path.display());
        }
        Ok(run)
    }

    /// Mark `interrupted` the runs still `running` whose process is gone;
    /// the ids marked.
    pub fn mark_interrupted(&mut self) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, owner FROM runs WHERE status = 'running'")?;
        let gone: Vec<i64> = stmt
            .query_map([], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?))
            })?
            .filter_map(|r| r.ok())
            .filter(|(_, owner)| owner.as_deref().is_some_and(owner::is_gone))
            .map(|(id, _)| id)
            .collect();
        drop(stmt);
        if !gone.is_empty() {
            self.write(|tx| {
                for id in &gone {
                    tx.execute(
                        "UPDATE runs SET status = 'interrupted' WHERE id = ?1 AND status = 'running'",
                        [id],
                    )?;
                }
                Ok(())
            })?;
        }
        Ok(gone)
    }

    /// The solver calls and solver-cache answers recorded for `run`'s
    /// kernels, whichever worker analysed them.
    pub fn run_solver_totals(&self, run: i64) -> Result<(usize, usize)> {
        let (calls, hits): (i64, i64) = self.conn.query_row(
            "SELECT COALESCE(SUM(solver_calls), 0), COALESCE(SUM(cache_hits), 0) FROM results WHERE run_id = ?1",
            [run],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok((calls.max(0) as usize, hits.max(0) as usize))
    }

    pub fn finish_run(&mut self, run: i64, status: RunStatus) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE runs SET status = ?2, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
                params![run, status.as_str()],
            )?;
            Ok(())
        })
    }

    /// Record the share of the tree a sharded run took.
    pub fn record_shard(&mut self, run: i64, share: &crate::engine::shard::Share) -> Result<()> {
        let share = serde_json::to_string(share)?;
        self.write(|tx| {
            tx.execute(
                "UPDATE runs SET shard = ?2 WHERE id = ?1",
                params![run, share],
            )?;
            Ok(())
        })
    }

    /// Record the files a run scans, as (path, content hash).
    pub fn record_run_files(&mut self, run: i64, files: &[(String, String)]) -> Result<()> {
        self.write(|tx| {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO run_files (run_id, path, hash) VALUES (?1, ?2, ?3)",
            )?;
            for (path, hash) in files {
                stmt.execute(params![run, path, hash])?;
            }
            Ok(())
        })
    }

    /// Record the files a run could not use.
    pub fn record_warnings(&mut self, run: i64, warnings: &[Warning]) -> Result<()> {
        if warnings.is_empty() {
            return Ok(());
        }
        self.write(|tx| {
            // A worker that continues a run records its warnings again.
            let mut stmt = tx.prepare_cached(
                "INSERT INTO warnings (run_id, path, message)
                 SELECT ?1, ?2, ?3 WHERE NOT EXISTS
                     (SELECT 1 FROM warnings WHERE run_id = ?1 AND path = ?2 AND message = ?3)",
            )?;
            for w in warnings {
                stmt.execute(params![run, w.path, w.message])?;
            }
            Ok(())
        })
    }

    /// Commit finished kernels of a run together with the cache entries their
    /// analysis produced.
    pub fn record_batch(
        &mut self,
        run: i64,
        results: &[KernelResult],
        pending: &Pending,
    ) -> Result<()> {
        self.write(|tx| {
            for r in results {
                insert_result(tx, run, r)?;
            }
            insert_pending(tx, pending)
        })
    }

    /// Commit cache entries on their own.
    pub fn record_caches(&mut self, pending: &Pending) -> Result<()> {
        if pending.is_empty() {
            return Ok(());
        }
        self.write(|tx| insert_pending(tx, pending))
    }

    /// A second connection to the same file for the caches that analysis
    /// workers read while this one writes; misses are looked up in the
    /// database at `fallback` (`scan --cache-from`), which is only read.
    pub fn caches(&self, fallback: Option<&Path>) -> Result<Caches> {
        let conn = Connection::open(&self.path).map_err(|e| describe(&self.path, e))?;
        configure(&conn).map_err(|e| describe(&self.path, e))?;
        conn.pragma_update(None, "query_only", true)?;
        let fallback = match fallback {
            Some(p) => Some(Store::open_read_only(p).context("--cache-from")?.conn),
            None => None,
        };
        Ok(Caches::new(conn, fallback))
    }

    pub fn runs(&self) -> Result<Vec<RunRow>> {
        let mut stmt = self.conn.prepare("SELECT id FROM runs ORDER BY id")?;
        let ids = stmt
            .query_map([], |r| r.get::<_, i64>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        ids.into_iter()
            .map(|id| self.run(id)?.context("run vanished while reading"))
            .collect()
    }

    pub fn run(&self, id: i64) -> Result<Option<RunRow>> {
        let row = self
            .conn
            .query_row(
                "SELECT id, started_at, finished_at, tool_version, analysis_version, git_commit, options, label, paths, status,
                        uid, shard, merged_from
                 FROM runs WHERE id = ?1",
                [id],
                |r| {
                    Ok(RunRow {
                        id: r.get(0)?,
                        started_at: r.get(1)?,
                        finished_at: r.get(2)?,
                        tool_version: r.get(3)?,
                        analysis_version: r.get(4)?,
                        git_commit: r.get(5)?,
                        options: serde_json::from_str(&r.get::<_, String>(6)?).unwrap_or(serde_json::Value::Null),
                        label: r.get(7)?,
                        paths: serde_json::from_str(&r.get::<_, String>(8)?).unwrap_or_default(),
                        status: r.get(9)?,
                        uid: r.get(10)?,
                        shard: r
                            .get::<_, Option<String>>(11)?
                            .and_then(|s| serde_json::from_str(&s).ok()),
                        merged_from: r
                            .get::<_, Option<String>>(12)?
                            .and_then(|s| serde_json::from_str(&s).ok()),
                        kernels: 0,
                        verdicts: HashMap::new(),
                        warnings: Vec::new(),
                    })
                },
            )
            .optional()?;
        let Some(mut row) = row else { return Ok(None) };
        let mut stmt = self
            .conn
            .prepare("SELECT verdict, count(*) FROM results WHERE run_id = ?1 GROUP BY verdict")?;
        for v in stmt.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))? {
            let (verdict, n) = v?;
            row.kernels += n;
            row.verdicts.insert(verdict, n);
        }
        let mut stmt = self
            .conn
            .prepare("SELECT path, message FROM warnings WHERE run_id = ?1 ORDER BY id")?;
        row.warnings = stmt
            .query_map([id], |r| {
                Ok(Warning {
                    path: r.get(0)?,
                    message: r.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some(row))
    }

    /// The ids of the latest `n` runs, newest first.
    pub fn latest_runs(&self, n: usize) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM runs ORDER BY id DESC LIMIT ?1")?;
        let ids = stmt
            .query_map([n as i64], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(ids)
    }

    /// The latest finished run before `run` that scanned exactly `paths`.
    pub fn previous_finished_run(&self, run: i64, paths: &[String]) -> Result<Option<i64>> {
        let paths = serde_json::to_string(paths)?;
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM runs WHERE id < ?1 AND paths = ?2 AND status = 'finished' ORDER BY id DESC LIMIT 1",
                params![run, paths],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Every result of a run with its races, by path and kernel name.
    pub fn results(&self, run: i64) -> Result<Vec<ResultRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT r.id, k.path, k.name, f.hash, r.verdict, r.reason, r.line, r.col, r.parse_ms, r.infer_ms,
                    r.solve_ms, r.replay_ms, r.solver_calls, r.cache_hits, r.unit_cached, r.launches
             FROM results r JOIN kernels k ON k.id = r.kernel_id JOIN files f ON f.id = r.file_id
             WHERE r.run_id = ?1 ORDER BY k.path, k.name",
        )?;
        let mut rows = Vec::new();
        let mut by_id = HashMap::new();
        for row in stmt.query_map([run], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                ResultRow {
                    run_id: run,
                    path: r.get(1)?,
                    kernel: r.get(2)?,
                    file_hash: r.get(3)?,
                    verdict: r.get(4)?,
                    reason: r.get(5)?,
                    line: r.get(6)?,
                    column: r.get(7)?,
                    parse_ms: r.get(8)?,
                    infer_ms: r.get(9)?,
                    solve_ms: r.get(10)?,
                    replay_ms: r.get(11)?,
                    solver_calls: r.get(12)?,
                    cache_hits: r.get(13)?,
                    unit_cached: r.get(14)?,
                    races: Vec::new(),
                    launches: launches_from_column(r.get(15)?),
                },
            ))
        })? {
            let (id, row) = row?;
            by_id.insert(id, rows.len());
            rows.push(row);
        }
        let mut stmt = self.conn.prepare(
            "SELECT x.result_id, x.array_name, x.a_id, x.a_line, x.a_col, x.a_mode, x.a_text,
                    x.b_id, x.b_line, x.b_col, x.b_mode, x.b_text, x.idx, x.confidence, x.witness, x.identity,
                    x.precondition
             FROM races x JOIN results r ON r.id = x.result_id WHERE r.run_id = ?1 ORDER BY x.id",
        )?;
        for race in stmt.query_map([run], |r| {
            let access = |o: usize| -> rusqlite::Result<AccessRow> {
                Ok(AccessRow {
                    id: r.get(o)?,
                    line: r.get(o + 1)?,
                    column: r.get(o + 2)?,
                    mode: r.get(o + 3)?,
                    text: r.get(o + 4)?,
                })
            };
            Ok((
                r.get::<_, i64>(0)?,
                RaceRow {
                    array: r.get(1)?,
                    accesses: [access(2)?, access(7)?],
                    index: serde_json::from_str(&r.get::<_, String>(12)?).unwrap_or_default(),
                    confidence: r.get(13)?,
                    witness: serde_json::from_str(&r.get::<_, String>(14)?).unwrap_or_default(),
                    identity: r.get(15)?,
                    precondition: r.get(16)?,
                },
            ))
        })? {
            let (result, race) = race?;
            if let Some(&i) = by_id.get(&result) {
                rows[i].races.push(race);
            }
        }
        Ok(rows)
    }

    /// Run one statement with `args` bound to `?1`, `?2`, …; only
    /// statements that do not write are accepted.
    pub fn query(&self, sql: &str, args: &[String]) -> Result<Table> {
        let mut stmt = self
            .conn
            .prepare(sql)
            .with_context(|| format!("{}: cannot prepare the query", self.path.display()))?;
        if !stmt.readonly() {
            bail!("only read-only statements are allowed: the database is opened for reading");
        }
        let expected = stmt.parameter_count();
        if args.len() != expected {
            bail!(
                "the query takes {expected} argument(s), {} given",
                args.len()
            );
        }
        let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
        let mut rows = Vec::new();
        let mut q = stmt.query(rusqlite::params_from_iter(args.iter()))?;
        while let Some(r) = q.next()? {
            let mut row = Vec::with_capacity(columns.len());
            for i in 0..columns.len() {
                row.push(json_value(r.get_ref(i)?));
            }
            rows.push(row);
        }
        Ok(Table { columns, rows })
    }
}

fn json_value(v: rusqlite::types::ValueRef<'_>) -> serde_json::Value {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => serde_json::Value::Null,
        ValueRef::Integer(i) => i.into(),
        ValueRef::Real(f) => {
            serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into)
        }
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned().into(),
        ValueRef::Blob(b) => format!("<{} bytes>", b.len()).into(),
    }
}

/// Why a database of schema `version` is too new, and which drfscan wrote it.
fn newer_schema(conn: &Connection, path: &Path, version: i64) -> String {
    let writer: Option<String> = conn
        .query_row(
            "SELECT tool_version FROM runs ORDER BY id DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .ok();
    format!(
        "{}: database schema version {version} is newer than this drfscan ({}) reads ({}); {}",
        path.display(),
        env!("CARGO_PKG_VERSION"),
        MIGRATIONS.len(),
        match writer {
            Some(v) =>
                format!("its latest run is from drfscan {v}: use that version or a newer one"),
            None => "use a newer drfscan".to_string(),
        }
    )
}

/// Refuse files that SQLite cannot read and SQLite files of other programs.
fn check_identity(conn: &Connection, path: &Path) -> Result<()> {
    // One statement, one snapshot: another process may be creating the schema.
    let (app, tables): (i64, i64) = retry_busy(|| {
        conn.query_row(
            "SELECT (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_schema)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    })
    .map_err(|e| describe(path, e))?;
    if app == APPLICATION_ID || (app == 0 && tables == 0) {
        return Ok(());
    }
    bail!("{}: not a drfscan database", path.display())
}

/// The row of a kernel by path and name, created if new; returns its id.
const UPSERT_KERNEL: &str = "INSERT INTO kernels (path, name) VALUES (?1, ?2)
     ON CONFLICT (path, name) DO UPDATE SET name = excluded.name RETURNING id";
/// The row of a file's content by path and hash, created if new; returns its id.
const UPSERT_FILE: &str = "INSERT INTO files (path, hash) VALUES (?1, ?2)
     ON CONFLICT (path, hash) DO UPDATE SET hash = excluded.hash RETURNING id";
/// One kernel's result in a run; a second result for the kernel is ignored.
const INSERT_RESULT: &str =
    "INSERT INTO results (run_id, kernel_id, file_id, verdict, reason, line, col, parse_ms, infer_ms,
                          solve_ms, replay_ms, solver_calls, cache_hits, unit_cached, launches)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
     ON CONFLICT (run_id, kernel_id) DO NOTHING";
/// One race of a result.
const INSERT_RACE: &str =
    "INSERT INTO races (result_id, array_name, a_id, a_line, a_col, a_mode, a_text, b_id, b_line, b_col, b_mode,
                        b_text, idx, confidence, witness, identity, precondition)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)";

/// The `launches` column: NULL for none.
fn launches_column(launches: &[String]) -> Option<String> {
    (!launches.is_empty()).then(|| serde_json::to_string(launches).unwrap_or_default())
}

fn launches_from_column(text: Option<String>) -> Vec<String> {
    text.and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn insert_result(tx: &Transaction, run: i64, r: &KernelResult) -> rusqlite::Result<()> {
    let kernel: i64 = tx.query_row(UPSERT_KERNEL, params![r.path, r.kernel], |row| row.get(0))?;
    let file: i64 = tx.query_row(UPSERT_FILE, params![r.path, r.file_hash], |row| row.get(0))?;
    tx.execute(
        INSERT_RESULT,
        params![
            run,
            kernel,
            file,
            r.verdict.as_str(),
            r.reason,
            r.loc.map(|l| l.line),
            r.loc.map(|l| l.column),
            r.parse_ms,
            r.infer_ms,
            r.solve_ms,
            r.replay_ms,
            r.solver_calls as i64,
            r.cache_hits as i64,
            r.unit_cached,
            launches_column(&r.launches),
        ],
    )?;
    if tx.changes() == 0 {
        // Two kernels of one name in one file (overloads): the first is kept.
        return Ok(());
    }
    let result = tx.last_insert_rowid();
    let mut stmt = tx.prepare_cached(INSERT_RACE)?;
    for rec in &r.races {
        let race = &rec.race;
        let [a, b] = &race.accesses;
        stmt.execute(params![
            result,
            race.array,
            a.id,
            a.loc.line,
            a.loc.column,
            a.mode.as_str(),
            rec.texts[0],
            b.id,
            b.loc.line,
            b.loc.column,
            b.mode.as_str(),
            rec.texts[1],
            serde_json::to_string(&race.index).unwrap_or_default(),
            match race.confidence {
                Confidence::Confirmed => "confirmed",
                Confidence::Possible => "possible",
            },
            serde_json::to_string(&race.witness).unwrap_or_default(),
            rec.identity,
            race.precondition,
        ])?;
    }
    Ok(())
}

fn insert_pending(tx: &Transaction, pending: &Pending) -> rusqlite::Result<()> {
    for (table, entries) in [
        ("solver_cache", &pending.solver),
        ("unit_cache", &pending.units),
        ("report_cache", &pending.reports),
    ] {
        let (k, v) = cache_columns(table);
        let mut stmt = tx.prepare_cached(&format!(
            "INSERT OR REPLACE INTO {table} ({k}, {v}, last_run) VALUES (?1, ?2, ?3)"
        ))?;
        for (key, value) in entries {
            stmt.execute(params![key, cache::stored(value), pending.run])?;
        }
    }
    if let Some(run) = pending.run {
        for (table, key) in &pending.touched {
            let (k, _) = cache_columns(table);
            tx.prepare_cached(&format!(
                "UPDATE {table} SET last_run = ?2 WHERE {k} = ?1 AND (last_run IS NULL OR last_run < ?2)"
            ))?
            .execute(params![key, run])?;
        }
    }
    Ok(())
}

/// The key and value columns of a cache table.
fn cache_columns(table: &str) -> (&'static str, &'static str) {
    match table {
        "solver_cache" => ("hash", "outcome"),
        "unit_cache" => ("key", "unit"),
        _ => ("key", "report"),
    }
}

/// Add one cache entry, used by run `run`, unless the database has one for
/// `key` already (then only the stamp moves on).
fn insert_pending_row(
    tx: &Transaction,
    table: &str,
    key: &str,
    value: &rusqlite::types::Value,
    run: i64,
) -> rusqlite::Result<()> {
    let (k, v) = cache_columns(table);
    tx.prepare_cached(&format!(
        "INSERT INTO {table} ({k}, {v}, last_run) VALUES (?1, ?2, ?3)
         ON CONFLICT ({k}) DO UPDATE SET last_run = max(coalesce(last_run, 0), excluded.last_run)"
    ))?
    .execute(params![key, value, run])?;
    Ok(())
}

#[cfg(test)]
mod tests;
