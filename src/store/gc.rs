//! `drfscan gc`: keep the latest runs, drop everything only older runs
//! reached (their results, races, warnings, files, and the cache entries no
//! kept run wrote or used), then give the space back to the file system.

use super::{describe, retry_busy, Store};
use anyhow::Result;
use rusqlite::{params, TransactionBehavior};
use serde::Serialize;

/// What `gc` removed and the database's size around it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Collected {
    pub runs: i64,
    pub results: i64,
    pub races: i64,
    pub warnings: i64,
    pub kernels: i64,
    pub files: i64,
    pub solver_cache: i64,
    pub unit_cache: i64,
    pub report_cache: i64,
    /// Runs left, and the oldest of them.
    pub kept_runs: i64,
    pub oldest_kept: Option<i64>,
    pub bytes_before: u64,
    pub bytes_after: u64,
}

impl Store {
    /// The database file's size with its write-ahead log.
    fn bytes(&self) -> u64 {
        let size = |p: std::path::PathBuf| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        size(self.path.clone()) + size(wal.into())
    }

    /// Keep the latest `keep` runs (and any still running); remove the rest.
    pub fn gc(&mut self, keep: usize) -> Result<Collected> {
        let mut c = Collected {
            bytes_before: self.bytes(),
            ..Collected::default()
        };
        let path = self.path.clone();
        let conn = &mut self.conn;
        retry_busy(|| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute_batch(
                "CREATE TEMP TABLE IF NOT EXISTS gc_kept (id INTEGER PRIMARY KEY); DELETE FROM gc_kept;",
            )?;
            tx.execute(
                "INSERT INTO gc_kept SELECT id FROM runs WHERE status = 'running'
                 UNION SELECT id FROM (SELECT id FROM runs ORDER BY id DESC LIMIT ?1)",
                [keep as i64],
            )?;
            let count = |sql: &str| tx.query_row(sql, [], |r| r.get::<_, i64>(0));
            c.runs = count("SELECT count(*) FROM runs WHERE id NOT IN gc_kept")?;
            c.results = count("SELECT count(*) FROM results WHERE run_id NOT IN gc_kept")?;
            c.races = count(
                "SELECT count(*) FROM races WHERE result_id IN
                 (SELECT id FROM results WHERE run_id NOT IN gc_kept)",
            )?;
            c.warnings = count("SELECT count(*) FROM warnings WHERE run_id NOT IN gc_kept")?;
            tx.execute("DELETE FROM runs WHERE id NOT IN gc_kept", [])?;
            c.kernels = tx.execute(
                "DELETE FROM kernels WHERE id NOT IN (SELECT kernel_id FROM results)",
                [],
            )? as i64;
            c.files = tx.execute(
                "DELETE FROM files WHERE id NOT IN (SELECT file_id FROM results)",
                [],
            )? as i64;
            // Entries no kept run wrote or used.
            let oldest: Option<i64> = tx.query_row("SELECT min(id) FROM gc_kept", [], |r| r.get(0))?;
            let floor = oldest.unwrap_or(i64::MAX);
            c.solver_cache = tx.execute(
                "DELETE FROM solver_cache WHERE coalesce(last_run, 0) < ?1",
                params![floor],
            )? as i64;
            c.unit_cache = tx.execute(
                "DELETE FROM unit_cache WHERE coalesce(last_run, 0) < ?1",
                params![floor],
            )? as i64;
            c.report_cache = tx.execute(
                "DELETE FROM report_cache WHERE coalesce(last_run, 0) < ?1",
                params![floor],
            )? as i64;
            c.kept_runs = count("SELECT count(*) FROM runs")?;
            c.oldest_kept = oldest;
            tx.execute_batch("DROP TABLE gc_kept;")?;
            tx.commit()
        })
        .map_err(|e| describe(&path, e))?;
        // Give the space back: VACUUM rewrites the file, the checkpoint
        // empties the log.
        retry_busy(|| {
            self.conn
                .execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")
        })
        .map_err(|e| describe(&path, e))?;
        c.bytes_after = self.bytes();
        Ok(c)
    }
}
