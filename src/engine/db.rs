//! The query graph of one scan (salsa). Inputs are the source files and the
//! configuration; `parse` lowers a file (answered from the unit cache when
//! the file, its includes, the flags and the analysis version are unchanged)
//! and `analyse` runs the protocol pipeline on one kernel with the solver
//! cache. Both are pure in their inputs, so salsa recomputes only what a
//! changed file or option touches; the SQLite caches carry that across runs.

use crate::check::{self, KernelReport, Options, Stats, TraceCache, Verdict, ANALYSIS_VERSION};
use crate::cuda::launch::LaunchSite;
use crate::cuda::{self, FrontendOptions, Unit};
use crate::protocol::Loc;
use crate::smt::Outcome;
use crate::store::Caches;
use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[salsa::input]
pub struct SourceFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub bytes: Arc<[u8]>,
    /// blake3 of the bytes, hex.
    #[returns(ref)]
    pub hash: String,
}

#[salsa::input]
pub struct Config {
    #[returns(ref)]
    pub frontend: FrontendOptions,
    #[returns(ref)]
    pub options: Options,
}

/// The `index`-th kernel of a file's unit.
#[salsa::interned]
pub struct KernelRef<'db> {
    pub file: SourceFile,
    pub index: usize,
    /// Launches other files of the scan make of a kernel whose own unit
    /// leaves its launch free; empty when there are none.
    #[returns(ref)]
    pub launches: Vec<LaunchSite>,
}

#[salsa::db]
pub trait Db: salsa::Database {
    fn caches(&self) -> &Caches;
}

#[salsa::db]
#[derive(Clone)]
pub struct ScanDb {
    storage: salsa::Storage<Self>,
    caches: Arc<Caches>,
}

impl ScanDb {
    pub fn new(caches: Arc<Caches>) -> ScanDb {
        ScanDb {
            storage: salsa::Storage::default(),
            caches,
        }
    }
}

#[salsa::db]
impl salsa::Database for ScanDb {}

#[salsa::db]
impl Db for ScanDb {
    fn caches(&self) -> &Caches {
        &self.caches
    }
}

/// A file's unit and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub unit: Arc<Unit>,
    /// The unit came from the unit cache: nothing was parsed.
    pub cached: bool,
    pub time: Duration,
}

/// A kernel that never reached the solver, or whose analysis failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub verdict: Verdict,
    pub reason: String,
    pub loc: Option<Loc>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysed {
    pub report: Result<KernelReport, Failure>,
    pub stats: Stats,
}

pub fn hash_bytes(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// The unit-cache key: everything a unit depends on except its includes,
/// which are checked against their recorded hashes on every hit.
fn unit_key(file: &str, hash: &str, frontend: &FrontendOptions) -> String {
    let flags = serde_json::to_string(frontend).unwrap_or_default();
    let built = frontend
        .build_flags(std::path::Path::new(file))
        .map(|f| format!("{:?}", (&f.includes, &f.others)))
        .unwrap_or_default();
    let mut h = blake3::Hasher::new();
    for part in [
        env!("CARGO_PKG_VERSION"),
        ANALYSIS_VERSION,
        file,
        hash,
        &flags,
        &built,
        frontend.tree_headers.digest(),
    ] {
        h.update(part.as_bytes());
        h.update(b"\x1e");
    }
    h.finalize().to_hex().to_string()
}

/// Headers built into the binary (under the front-end's virtual include
/// directory) change only with the tool version, which is part of the key.
fn includes_unchanged(unit: &Unit) -> bool {
    unit.includes.iter().all(|(path, hash)| {
        path.starts_with(crate::cuda::prelude::DIR)
            || current_hash(path).is_some_and(|h| h == *hash)
    })
}

/// A file's hash, computed once per process for each size and
/// modification time it has: every unit includes the same system headers.
fn current_hash(path: &std::path::Path) -> Option<String> {
    type Seen = std::collections::HashMap<(PathBuf, u64, std::time::SystemTime), String>;
    static SEEN: std::sync::OnceLock<std::sync::Mutex<Seen>> = std::sync::OnceLock::new();
    let meta = std::fs::metadata(path).ok()?;
    let key = (path.to_path_buf(), meta.len(), meta.modified().ok()?);
    let seen = SEEN.get_or_init(Default::default);
    if let Some(h) = seen.lock().ok().and_then(|s| s.get(&key).cloned()) {
        return Some(h);
    }
    let h = hash_bytes(&std::fs::read(path).ok()?);
    if let Ok(mut s) = seen.lock() {
        s.insert(key, h.clone());
    }
    Some(h)
}

pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn Db, file: SourceFile, config: Config) -> Parsed {
    let path = file.path(db);
    let key = unit_key(&path.to_string_lossy(), file.hash(db), config.frontend(db));
    if let Some(json) = db.caches().unit_get(&key) {
        if let Ok(unit) = serde_json::from_str::<Unit>(&json) {
            if includes_unchanged(&unit) {
                return Parsed {
                    unit: Arc::new(unit),
                    cached: true,
                    time: Duration::ZERO,
                };
            }
        }
    }
    let started = Instant::now();
    let unit = catch_unwind(AssertUnwindSafe(|| {
        cuda::parse_source(path, file.bytes(db), config.frontend(db))
    }));
    let time = started.elapsed();
    let unit = match unit {
        Ok(unit) => {
            if let Ok(json) = serde_json::to_string(&unit) {
                db.caches().unit_put(&key, json);
            }
            unit
        }
        // Not cached: a panic is a bug to fix, not an answer to remember.
        Err(p) => Unit {
            kernels: Vec::new(),
            diagnostics: vec![format!(
                "the front-end panicked: {}",
                panic_message(p.as_ref())
            )],
            includes: Vec::new(),
            expectation: None,
            clang_us: 0,
            notes: Vec::new(),
            foreign_launches: Vec::new(),
        },
    };
    Parsed {
        unit: Arc::new(unit),
        cached: false,
        time,
    }
}

/// The solver cache as the analysis sees it. Keys add the solver options
/// and the analysis version to the trace hash, so changing either misses.
pub struct SolverCache<'a> {
    caches: &'a Caches,
    prefix: String,
}

impl<'a> SolverCache<'a> {
    pub fn new(caches: &'a Caches, options: &Options) -> SolverCache<'a> {
        SolverCache {
            caches,
            prefix: format!("{ANALYSIS_VERSION}\x1f{}\x1f", options.solver_key()),
        }
    }

    fn key(&self, hash: &str) -> String {
        format!("{}{hash}", self.prefix)
    }
}

impl TraceCache for SolverCache<'_> {
    fn get(&self, hash: &str) -> Option<Outcome> {
        serde_json::from_str(&self.caches.solver_get(&self.key(hash))?).ok()
    }
    fn put(&self, hash: &str, outcome: &Outcome) {
        if let Ok(json) = serde_json::to_string(outcome) {
            self.caches.solver_put(&self.key(hash), json);
        }
    }
    fn search_tally(&self, key: &str) -> Option<check::SearchTally> {
        self.caches.search_tally(&self.key(key))
    }
    fn tally_search(&self, key: &str, futile: Option<bool>) {
        self.caches.tally_search(&self.key(key), futile);
    }
}

/// The report-cache key of a kernel: its protocols (with locations, so a
/// cached report's lines are right), the solver options and the analysis
/// version.
fn report_key(kernel: &crate::protocol::Kernel, options: &Options) -> Option<String> {
    let json = serde_json::to_string(kernel).ok()?;
    let mut h = blake3::Hasher::new();
    for part in [
        env!("CARGO_PKG_VERSION"),
        ANALYSIS_VERSION,
        &options.solver_key(),
        &json,
    ] {
        h.update(part.as_bytes());
        h.update(b"\x1e");
    }
    Some(h.finalize().to_hex().to_string())
}

/// The report-cache key of an answer cut short by the kernel's budget.
fn budget_key(key: &str, options: &Options) -> String {
    format!("{key}:budget={}", options.kernel_timeout_ms)
}

/// Remember that kernel `kernel` outran its budget in a worker the parent
/// had to stop (`engine::supervise`): the next scan with the same budget
/// answers `unknown` at once instead of hanging again.
pub fn remember_over_budget(db: &dyn Db, kernel: KernelRef<'_>, config: Config, reason: &str) {
    let parsed = parse(db, *kernel.file(db), config);
    let Some(unit) = parsed.unit.kernels.get(*kernel.index(db)) else {
        return;
    };
    let Ok(k) = &unit.lowered else {
        return;
    };
    let k = &*under_launches(k, kernel.launches(db), &unit.args);
    let options = config.options(db);
    let Some(key) = report_key(k, options) else {
        return;
    };
    let report = KernelReport {
        approximations: Vec::new(),
        name: k.name.clone(),
        arrays: vec![check::ArrayReport::empty(
            String::new(),
            Verdict::Unknown,
            Some(reason.to_string()),
        )],
    };
    if let Ok(json) = serde_json::to_string(&report) {
        db.caches().report_put(&budget_key(&key, options), json);
    }
}

/// The kernel as the scan analyses it: under the launches other files make
/// of it, when there are any.
fn under_launches<'k>(
    k: &'k crate::protocol::Kernel,
    sites: &[LaunchSite],
    args: &[Option<String>],
) -> Cow<'k, crate::protocol::Kernel> {
    if sites.is_empty() {
        return Cow::Borrowed(k);
    }
    let mut under = k.clone();
    cuda::launch::apply(&mut under, sites, args);
    for v in &mut under.variants {
        cuda::launch::apply(&mut v.kernel, sites, args);
    }
    Cow::Owned(under)
}

#[salsa::tracked(returns(ref))]
pub fn analyse<'db>(db: &'db dyn Db, kernel: KernelRef<'db>, config: Config) -> Analysed {
    let parsed = parse(db, *kernel.file(db), config);
    let Some(unit) = parsed.unit.kernels.get(*kernel.index(db)) else {
        let failure = Failure {
            verdict: Verdict::Error,
            reason: "no such kernel in the unit".into(),
            loc: None,
        };
        return Analysed {
            report: Err(failure),
            stats: Stats::default(),
        };
    };
    if !unit.errors.is_empty() {
        let failure = Failure {
            verdict: Verdict::Error,
            reason: unit.errors.join("\n"),
            loc: Some(unit.loc),
        };
        return Analysed {
            report: Err(failure),
            stats: Stats::default(),
        };
    }
    let k = match &unit.lowered {
        Ok(k) => k,
        Err(u) => {
            let failure = Failure {
                verdict: Verdict::Unsupported,
                reason: u.reason.clone(),
                loc: Some(u.loc),
            };
            return Analysed {
                report: Err(failure),
                stats: Stats::default(),
            };
        }
    };
    let k = &*under_launches(k, kernel.launches(db), &unit.args);
    let options = config.options(db);
    let key = report_key(k, options);
    // A whole answer first; else what this kernel's budget allowed before.
    let cached = key.as_deref().and_then(|key| {
        db.caches()
            .report_get(key)
            .or_else(|| db.caches().report_get(&budget_key(key, options)))
    });
    if let Some(report) = cached {
        if let Ok(report) = serde_json::from_str::<KernelReport>(&report) {
            // Every trace of the kernel is answered without the solver.
            let traces = report.arrays.iter().map(|a| a.intervals).sum();
            return Analysed {
                report: Ok(report),
                stats: Stats {
                    traces,
                    cache_hits: traces,
                    ..Stats::default()
                },
            };
        }
    }
    let cache = SolverCache::new(db.caches(), options);
    match catch_unwind(AssertUnwindSafe(|| {
        check::check_kernel_stats(k, options, &cache)
    })) {
        Ok((report, stats)) => {
            // An `unknown` is kept under its time limit, as in the solver
            // cache; an error may be a defect fixed by the next build.
            // A report the budget cut short is kept under the budget too: the
            // same budget would cut it again, a larger one asks anew.
            let settled = report.arrays.iter().all(|a| a.verdict != Verdict::Error);
            if let (Some(key), true) = (&key, settled) {
                if let Ok(json) = serde_json::to_string(&report) {
                    if stats.cut_short == 0 {
                        db.caches().report_put(key, json);
                    } else {
                        db.caches().report_put(&budget_key(key, options), json);
                    }
                }
            }
            Analysed {
                report: Ok(report),
                stats,
            }
        }
        Err(p) => Analysed {
            report: Err(Failure {
                verdict: Verdict::Error,
                reason: format!("the analysis panicked: {}", panic_message(p.as_ref())),
                loc: Some(unit.loc),
            }),
            stats: Stats::default(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(includes: Vec<(PathBuf, String)>) -> Unit {
        Unit {
            kernels: Vec::new(),
            diagnostics: Vec::new(),
            includes,
            expectation: None,
            clang_us: 0,
            notes: Vec::new(),
            foreign_launches: Vec::new(),
        }
    }

    #[test]
    fn unit_keys_change_with_path_content_and_flags() {
        let opts = FrontendOptions::default();
        let key = unit_key("/a.cu", "h1", &opts);
        assert_eq!(key, unit_key("/a.cu", "h1", &opts));
        assert_ne!(key, unit_key("/b.cu", "h1", &opts));
        assert_ne!(key, unit_key("/a.cu", "h2", &opts));
        let defined = FrontendOptions {
            defines: vec!["N=4".into()],
            ..FrontendOptions::default()
        };
        assert_ne!(key, unit_key("/a.cu", "h1", &defined));
        let dims = FrontendOptions {
            block_dim: Some([32, 1, 1]),
            ..FrontendOptions::default()
        };
        assert_ne!(key, unit_key("/a.cu", "h1", &dims));
    }

    #[test]
    fn solver_outcomes_are_kept_per_solver_options() {
        let d = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(&d.path().join("t.db")).unwrap();
        let caches = store.caches(None).unwrap();
        let base = Options::default();
        let block_level = Options {
            block_level: true,
            ..Options::default()
        };
        SolverCache::new(&caches, &base).put("trace", &Outcome::Drf);
        assert_eq!(
            SolverCache::new(&caches, &base).get("trace"),
            Some(Outcome::Drf)
        );
        assert_eq!(SolverCache::new(&caches, &block_level).get("trace"), None);
        assert_eq!(SolverCache::new(&caches, &base).get("other"), None);
    }

    #[test]
    fn a_unit_is_stale_when_an_include_changes_or_vanishes() {
        let d = tempfile::tempdir().unwrap();
        let header = d.path().join("h.h");
        std::fs::write(&header, "#define N 4\n").unwrap();
        let prelude = PathBuf::from(format!("{}/cuda.h", crate::cuda::prelude::DIR));
        let u = unit(vec![
            (header.clone(), hash_bytes(b"#define N 4\n")),
            (prelude, "built-in".into()),
        ]);
        assert!(includes_unchanged(&u));
        std::fs::write(&header, "#define N 8\n").unwrap();
        assert!(!includes_unchanged(&u));
        std::fs::remove_file(&header).unwrap();
        assert!(!includes_unchanged(&u));
    }
}
