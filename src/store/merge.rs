//! `drfscan merge`: fold the latest run of each shard database into one run
//! of a history database, as if one process had scanned the whole tree.
//!
//! The shards must agree on everything that decides a verdict (tool and
//! analysis version, options, scanned paths, commit, the tree's digest) and
//! together take each file once; anything else is refused before the
//! history is touched. The merge is one transaction: a killed merge leaves
//! the history as it was. The merged run records the uids of the shard runs
//! it folds, so merging the same shards again finds that run and does
//! nothing.

use super::{
    cache_columns, describe, insert_pending_row, retry_busy, RunRow, Store, INSERT_RACE,
    INSERT_RESULT, UPSERT_FILE, UPSERT_KERNEL,
};
use anyhow::{bail, Context, Result};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// One shard database and the run of it that is merged.
struct ShardRun {
    path: PathBuf,
    store: Store,
    run: RunRow,
    index: u32,
    count: u32,
    tree: Option<String>,
    tree_files: Option<u64>,
}

impl ShardRun {
    fn open(path: &Path) -> Result<ShardRun> {
        let store = Store::open_read_only(path)?;
        let id: Option<i64> = store
            .conn
            .query_row("SELECT max(id) FROM runs", [], |r| r.get(0))
            .map_err(|e| describe(path, e))?;
        let Some(id) = id else {
            bail!("{}: no run recorded", path.display());
        };
        let run = store
            .run(id)?
            .with_context(|| format!("{}: run {id} vanished", path.display()))?;
        if run.status != "finished" {
            bail!(
                "{}: its latest run ({id}) is `{}`, not finished; scan that shard again",
                path.display(),
                run.status
            );
        }
        let shard = run.shard.clone().unwrap_or(serde_json::Value::Null);
        let num = |k: &str| shard[k].as_u64();
        let (index, count) = match (num("index"), num("count")) {
            (Some(i), Some(n)) => (i as u32, n as u32),
            // An unsharded run is the one shard of its tree.
            _ => (1, 1),
        };
        Ok(ShardRun {
            path: path.to_path_buf(),
            tree: shard["tree"].as_str().map(str::to_string),
            tree_files: num("tree_files"),
            store,
            run,
            index,
            count,
        })
    }

    fn name(&self) -> String {
        format!("{} ({}/{})", self.path.display(), self.index, self.count)
    }
}

/// What a merge did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Merged {
    pub run_id: i64,
    /// The history already had this merge; nothing was written.
    pub already: bool,
    pub shards: usize,
}

/// Refuse shards that differ in `what`, naming each value's databases.
fn agree(shards: &[ShardRun], what: &str, value: impl Fn(&ShardRun) -> String) -> Result<()> {
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in shards {
        by.entry(value(s))
            .or_default()
            .push(s.path.display().to_string());
    }
    if by.len() > 1 {
        let parts: Vec<String> = by
            .iter()
            .map(|(v, dbs)| format!("{} in {}", v, dbs.join(", ")))
            .collect();
        bail!("the shards differ in {what}: {}", parts.join("; "));
    }
    Ok(())
}

fn check(shards: &[ShardRun]) -> Result<()> {
    agree(shards, "tool version", |s| s.run.tool_version.clone())?;
    agree(shards, "analysis version", |s| {
        s.run.analysis_version.clone()
    })?;
    agree(shards, "options", |s| s.run.options.to_string())?;
    agree(shards, "scanned paths", |s| s.run.paths.join(" "))?;
    agree(shards, "git commit", |s| {
        s.run.git_commit.clone().unwrap_or_else(|| "none".into())
    })?;
    agree(shards, "shard count", |s| s.count.to_string())?;
    agree(
        shards,
        "the tree they saw (files or contents changed between shards)",
        |s| s.tree.clone().unwrap_or_else(|| "unsharded".into()),
    )?;
    let count = shards[0].count;
    let mut at: BTreeMap<u32, Vec<&ShardRun>> = BTreeMap::new();
    for s in shards {
        at.entry(s.index).or_default().push(s);
    }
    for (index, dbs) in &at {
        if dbs.len() > 1 {
            let names: Vec<String> = dbs.iter().map(|s| s.path.display().to_string()).collect();
            bail!("shard {index}/{count} is given twice: {}", names.join(", "));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !at.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        bail!("missing shard(s): {}", missing.join(", "));
    }
    // Each file on one shard.
    let mut owner: HashMap<String, usize> = HashMap::new();
    for (i, s) in shards.iter().enumerate() {
        let mut stmt = s
            .store
            .conn
            .prepare("SELECT path FROM run_files WHERE run_id = ?1")?;
        let paths = stmt.query_map([s.run.id], |r| r.get::<_, String>(0))?;
        for p in paths {
            let p = p?;
            if let Some(&j) = owner.get(&p) {
                bail!(
                    "{p} is on two shards: {} and {}",
                    shards[j].name(),
                    s.name()
                );
            }
            owner.insert(p, i);
        }
    }
    if let Some(n) = shards[0].tree_files {
        if owner.len() as u64 != n {
            bail!(
                "the shards scanned {} files of a tree of {n}; were they all scanned with the same paths and excludes?",
                owner.len()
            );
        }
    }
    Ok(())
}

impl Store {
    /// Fold the latest run of each database in `shards` into one run here.
    pub fn merge(&mut self, shards: &[PathBuf], label: Option<&str>) -> Result<Merged> {
        if shards.is_empty() {
            bail!("no shard database to merge");
        }
        let mut runs = Vec::new();
        for p in shards {
            runs.push(ShardRun::open(p)?);
        }
        if let Some(s) = runs
            .iter()
            .find(|s| s.path.canonicalize().ok() == self.path.canonicalize().ok())
        {
            bail!("{}: a shard cannot be merged into itself", s.path.display());
        }
        check(&runs)?;
        runs.sort_by_key(|s| s.index);

        let mut uids: Vec<String> = runs
            .iter()
            .map(|s| {
                s.run
                    .uid
                    .clone()
                    .unwrap_or_else(|| format!("{}#{}", s.path.display(), s.run.id))
            })
            .collect();
        uids.sort();
        let merged_from = serde_json::to_string(&uids)?;
        let existing: Option<i64> = self
            .conn
            .query_row(
                "SELECT id FROM runs WHERE merged_from = ?1",
                [&merged_from],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(run_id) = existing {
            return Ok(Merged {
                run_id,
                already: true,
                shards: runs.len(),
            });
        }

        let first = &runs[0].run;
        let started = runs.iter().map(|s| s.run.started_at.clone()).min();
        let finished = runs.iter().filter_map(|s| s.run.finished_at.clone()).max();
        let label = label.map(str::to_string).or_else(|| {
            let l = first.label.clone();
            runs.iter().all(|s| s.run.label == l).then_some(l).flatten()
        });
        let uid = blake3::hash(merged_from.as_bytes()).to_hex()[..32].to_string();
        let options = first.options.to_string();
        let paths = serde_json::to_string(&first.paths)?;
        let path = self.path.clone();
        let conn = &mut self.conn;
        let run_id = retry_busy(|| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO runs (started_at, finished_at, tool_version, analysis_version, git_commit, options, label,
                                   paths, status, uid, merged_from)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'finished', ?9, ?10)",
                params![
                    started,
                    finished,
                    first.tool_version,
                    first.analysis_version,
                    first.git_commit,
                    options,
                    label,
                    paths,
                    uid,
                    merged_from
                ],
            )?;
            let run = tx.last_insert_rowid();
            for s in &runs {
                copy_run(&s.store.conn, s.run.id, &tx, run)
                    .map_err(|e| MergeError::in_shard(&s.path, e))?;
            }
            tx.commit()?;
            Ok(run)
        })
        .map_err(|e| match e {
            rusqlite::Error::ToSqlConversionFailure(inner) => anyhow::anyhow!("{inner}"),
            e => describe(&path, e),
        })?;
        Ok(Merged {
            run_id,
            already: false,
            shards: runs.len(),
        })
    }
}

/// An error met while copying one shard, named after it.
#[derive(Debug)]
struct MergeError(String);

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MergeError {}

impl MergeError {
    fn in_shard(path: &Path, e: rusqlite::Error) -> rusqlite::Error {
        if matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        ) {
            return e;
        }
        let text = match &e {
            rusqlite::Error::ToSqlConversionFailure(inner) => inner.to_string(),
            e => e.to_string(),
        };
        rusqlite::Error::ToSqlConversionFailure(Box::new(MergeError(format!(
            "{}: {text}",
            path.display()
        ))))
    }
}

/// Copy run `from` of `src` into run `to` of `dst`: results with their
/// races, warnings, scanned files, and every cache entry.
fn copy_run(
    src: &Connection,
    from: i64,
    dst: &rusqlite::Transaction,
    to: i64,
) -> rusqlite::Result<()> {
    let mut results = src.prepare(
        "SELECT r.id, k.path, k.name, f.path, f.hash, r.verdict, r.reason, r.line, r.col, r.parse_ms, r.infer_ms,
                r.solve_ms, r.replay_ms, r.solver_calls, r.cache_hits, r.unit_cached, r.launches
         FROM results r JOIN kernels k ON k.id = r.kernel_id JOIN files f ON f.id = r.file_id
         WHERE r.run_id = ?1 ORDER BY r.id",
    )?;
    let mut kernel = dst.prepare_cached(UPSERT_KERNEL)?;
    let mut file = dst.prepare_cached(UPSERT_FILE)?;
    let mut result = dst.prepare_cached(INSERT_RESULT)?;
    let mut ids: HashMap<i64, i64> = HashMap::new();
    let mut rows = results.query([from])?;
    while let Some(r) = rows.next()? {
        let (kpath, kname): (String, String) = (r.get(1)?, r.get(2)?);
        let k: i64 = kernel.query_row(params![kpath, kname], |x| x.get(0))?;
        let f: i64 = file.query_row(
            params![r.get::<_, String>(3)?, r.get::<_, String>(4)?],
            |x| x.get(0),
        )?;
        let n = result.execute(params![
            to,
            k,
            f,
            r.get::<_, String>(5)?,
            r.get::<_, Option<String>>(6)?,
            r.get::<_, Option<i64>>(7)?,
            r.get::<_, Option<i64>>(8)?,
            r.get::<_, f64>(9)?,
            r.get::<_, f64>(10)?,
            r.get::<_, f64>(11)?,
            r.get::<_, f64>(12)?,
            r.get::<_, i64>(13)?,
            r.get::<_, i64>(14)?,
            r.get::<_, bool>(15)?,
            r.get::<_, Option<String>>(16)?,
        ])?;
        if n == 0 {
            return Err(rusqlite::Error::ToSqlConversionFailure(Box::new(
                MergeError(format!(
                    "kernel {kname} of {kpath} is also on another shard; the shards overlap"
                )),
            )));
        }
        ids.insert(r.get(0)?, dst.last_insert_rowid());
    }

    let mut races = src.prepare(
        "SELECT x.result_id, x.array_name, x.a_id, x.a_line, x.a_col, x.a_mode, x.a_text, x.b_id, x.b_line, x.b_col,
                x.b_mode, x.b_text, x.idx, x.confidence, x.witness, x.identity, x.precondition
         FROM races x JOIN results r ON r.id = x.result_id WHERE r.run_id = ?1 ORDER BY x.id",
    )?;
    let mut race = dst.prepare_cached(INSERT_RACE)?;
    let mut rows = races.query([from])?;
    while let Some(r) = rows.next()? {
        let Some(&result) = ids.get(&r.get::<_, i64>(0)?) else {
            continue;
        };
        let mut values: Vec<rusqlite::types::Value> = vec![result.into()];
        for i in 1..17 {
            values.push(r.get(i)?);
        }
        race.execute(rusqlite::params_from_iter(values))?;
    }

    let mut warnings =
        src.prepare("SELECT path, message FROM warnings WHERE run_id = ?1 ORDER BY id")?;
    let mut warning =
        dst.prepare_cached("INSERT INTO warnings (run_id, path, message) VALUES (?1, ?2, ?3)")?;
    let mut rows = warnings.query([from])?;
    while let Some(r) = rows.next()? {
        warning.execute(params![to, r.get::<_, String>(0)?, r.get::<_, String>(1)?])?;
    }

    let mut files = src.prepare("SELECT path, hash FROM run_files WHERE run_id = ?1")?;
    let mut run_file = dst.prepare_cached(
        "INSERT OR REPLACE INTO run_files (run_id, path, hash) VALUES (?1, ?2, ?3)",
    )?;
    let mut rows = files.query([from])?;
    while let Some(r) = rows.next()? {
        run_file.execute(params![to, r.get::<_, String>(0)?, r.get::<_, String>(1)?])?;
    }

    for table in ["solver_cache", "unit_cache", "report_cache"] {
        let (key, value) = cache_columns(table);
        let mut entries = src.prepare(&format!("SELECT {key}, {value} FROM {table}"))?;
        let mut rows = entries.query([])?;
        while let Some(r) = rows.next()? {
            insert_pending_row(
                dst,
                table,
                &r.get::<_, String>(0)?,
                // As stored: text, or deflated bytes.
                &r.get::<_, rusqlite::types::Value>(1)?,
                to,
            )?;
        }
    }
    Ok(())
}
