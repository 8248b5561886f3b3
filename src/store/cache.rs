//! The content-keyed caches as analysis workers see them: reads go to the
//! database through a connection of their own, writes wait in memory until
//! the writer commits them with the results that produced them.

use rusqlite::{Connection, OptionalExtension};
use std::collections::HashMap;
use std::sync::Mutex;

pub struct Caches {
    conn: Mutex<Connection>,
    /// Another database consulted on a miss (`scan --cache-from`).
    fallback: Option<Mutex<Connection>>,
    pending: Mutex<Pending>,
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
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        self.solver.is_empty() && self.units.is_empty() && self.reports.is_empty()
    }
}

impl Caches {
    pub(super) fn new(conn: Connection, fallback: Option<Connection>) -> Caches {
        Caches {
            conn: Mutex::new(conn),
            fallback: fallback.map(Mutex::new),
            pending: Mutex::new(Pending::default()),
        }
    }

    fn lookup(&self, sql: &str, key: &str) -> Option<String> {
        let read = |conn: &Mutex<Connection>| {
            let conn = conn.lock().unwrap_or_else(|e| e.into_inner());
            // A failed read is a miss: the caller recomputes the answer.
            let mut stmt = conn.prepare_cached(sql).ok()?;
            let found = stmt
                .query_row([key], |r| r.get(0))
                .optional()
                .ok()
                .flatten();
            found
        };
        read(&self.conn).or_else(|| self.fallback.as_ref().and_then(read))
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn solver_get(&self, hash: &str) -> Option<String> {
        if let Some(v) = self.pending().solver.get(hash) {
            return Some(v.clone());
        }
        self.lookup("SELECT outcome FROM solver_cache WHERE hash = ?1", hash)
    }

    pub fn solver_put(&self, hash: &str, outcome: String) {
        self.pending().solver.insert(hash.to_string(), outcome);
    }

    pub fn unit_get(&self, key: &str) -> Option<String> {
        if let Some(v) = self.pending().units.get(key) {
            return Some(v.clone());
        }
        self.lookup("SELECT unit FROM unit_cache WHERE key = ?1", key)
    }

    pub fn unit_put(&self, key: &str, unit: String) {
        self.pending().units.insert(key.to_string(), unit);
    }

    pub fn report_get(&self, key: &str) -> Option<String> {
        if let Some(v) = self.pending().reports.get(key) {
            return Some(v.clone());
        }
        self.lookup("SELECT report FROM report_cache WHERE key = ?1", key)
    }

    pub fn report_put(&self, key: &str, report: String) {
        self.pending().reports.insert(key.to_string(), report);
    }

    /// Hand the entries collected so far to the writer.
    pub fn take_pending(&self) -> Pending {
        std::mem::take(&mut *self.pending())
    }
}
