//! The content-keyed caches as analysis workers see them: reads go to the
//! database through a connection of their own, writes wait in memory until
//! the writer commits them with the results that produced them.

use crate::check::SearchTally;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension};
use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Mutex;

pub struct Caches {
    conn: Mutex<Connection>,
    /// Another database consulted on a miss (`scan --cache-from`).
    fallback: Option<Mutex<Connection>>,
    pending: Mutex<Pending>,
    /// The run whose use of the caches is recorded (0: none).
    run: AtomicI64,
    /// How precondition searches went in this process, by the shape of
    /// their races: never stored, since a search that ran out of time may
    /// finish on an idle machine.
    searches: Mutex<HashMap<String, SearchTally>>,
}

/// Cache entries not yet in the database.
#[derive(Debug, Default)]
pub struct Pending {
    /// Trace hash → outcome JSON.
    pub solver: HashMap<String, String>,
    /// Unit key → unit JSON.
    pub units: HashMap<String, String>,
    /// Kernel key → kernel report JSON.
    pub reports: HashMap<String, String>,
    /// Entries of this database that were used: (table, key).
    pub touched: HashSet<(&'static str, String)>,
    /// The run that wrote or used them.
    pub run: Option<i64>,
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        self.solver.is_empty()
            && self.units.is_empty()
            && self.reports.is_empty()
            && self.touched.is_empty()
    }
}

/// A cache value as stored: large ones (lowered units, up to tens of
/// megabytes of JSON for one file) as deflated bytes, the rest as text.
pub(super) fn stored(value: &str) -> Value {
    if value.len() < COMPRESS_FROM {
        return Value::Text(value.to_string());
    }
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    match z.write_all(value.as_bytes()).and_then(|_| z.finish()) {
        Ok(bytes) => Value::Blob(bytes),
        Err(_) => Value::Text(value.to_string()),
    }
}

/// The text of a stored cache value; `None` (a miss) when it cannot be
/// read back.
pub(super) fn text_of(value: Value) -> Option<String> {
    match value {
        Value::Text(s) => Some(s),
        Value::Blob(b) => {
            let mut out = String::new();
            flate2::read::DeflateDecoder::new(&b[..])
                .read_to_string(&mut out)
                .ok()?;
            Some(out)
        }
        _ => None,
    }
}

/// Values at least this long are stored deflated.
const COMPRESS_FROM: usize = 4096;

impl Caches {
    pub(super) fn new(conn: Connection, fallback: Option<Connection>) -> Caches {
        Caches {
            conn: Mutex::new(conn),
            fallback: fallback.map(Mutex::new),
            run: AtomicI64::new(0),
            pending: Mutex::new(Pending::default()),
            searches: Mutex::new(HashMap::new()),
        }
    }

    /// How the precondition searches for races of the shape `key` went
    /// earlier in this process.
    pub fn search_tally(&self, key: &str) -> Option<SearchTally> {
        let searches = self.searches.lock().unwrap_or_else(|e| e.into_inner());
        searches.get(key).copied()
    }

    /// Counts a search for races of the shape `key` ([`SearchTally::count`]).
    pub fn tally_search(&self, key: &str, futile: Option<bool>) {
        let mut searches = self.searches.lock().unwrap_or_else(|e| e.into_inner());
        searches.entry(key.to_string()).or_default().count(futile);
    }

    /// Record from now on that run `run` uses the entries it reads.
    pub fn stamp(&self, run: i64) {
        self.run.store(run, Ordering::Relaxed);
    }

    fn lookup(&self, table: &'static str, sql: &str, key: &str) -> Option<String> {
        let read = |conn: &Mutex<Connection>| {
            let conn = conn.lock().unwrap_or_else(|e| e.into_inner());
            // A failed read is a miss: the caller recomputes the answer.
            let mut stmt = conn.prepare_cached(sql).ok()?;
            let found: Option<Value> = stmt
                .query_row([key], |r| r.get(0))
                .optional()
                .ok()
                .flatten();
            found.and_then(text_of)
        };
        if let Some(v) = read(&self.conn) {
            if self.run.load(Ordering::Relaxed) > 0 {
                self.pending().touched.insert((table, key.to_string()));
            }
            return Some(v);
        }
        self.fallback.as_ref().and_then(read)
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn solver_get(&self, hash: &str) -> Option<String> {
        if let Some(v) = self.pending().solver.get(hash) {
            return Some(v.clone());
        }
        self.lookup(
            "solver_cache",
            "SELECT outcome FROM solver_cache WHERE hash = ?1",
            hash,
        )
    }

    pub fn solver_put(&self, hash: &str, outcome: String) {
        self.pending().solver.insert(hash.to_string(), outcome);
    }

    pub fn unit_get(&self, key: &str) -> Option<String> {
        if let Some(v) = self.pending().units.get(key) {
            return Some(v.clone());
        }
        self.lookup(
            "unit_cache",
            "SELECT unit FROM unit_cache WHERE key = ?1",
            key,
        )
    }

    pub fn unit_put(&self, key: &str, unit: String) {
        self.pending().units.insert(key.to_string(), unit);
    }

    pub fn report_get(&self, key: &str) -> Option<String> {
        if let Some(v) = self.pending().reports.get(key) {
            return Some(v.clone());
        }
        self.lookup(
            "report_cache",
            "SELECT report FROM report_cache WHERE key = ?1",
            key,
        )
    }

    pub fn report_put(&self, key: &str, report: String) {
        self.pending().reports.insert(key.to_string(), report);
    }

    /// Hand the entries collected so far to the writer.
    pub fn take_pending(&self) -> Pending {
        let mut p = std::mem::take(&mut *self.pending());
        let run = self.run.load(Ordering::Relaxed);
        p.run = (run > 0).then_some(run);
        p
    }
}
