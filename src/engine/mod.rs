//! The batch engine (DESIGN "Incremental batch engine"): find the `.cu`
//! files of a tree, parse them and analyse every kernel in parallel through
//! the query graph of [`db`], and record the run in the [`Store`] as kernels
//! finish, so that a killed scan keeps what it committed.

pub mod db;
pub mod walk;

use crate::check::{Stats, Verdict, ANALYSIS_VERSION};
use crate::cuda::FrontendOptions;
use crate::store::{Caches, KernelResult, RaceRecord, RunMeta, RunStatus, Store, Warning};
use anyhow::{Context, Result};
use db::{Analysed, Config, KernelRef, Parsed, ScanDb, SourceFile};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Results are committed at least this often, and in batches of at most
/// `BATCH` kernels.
const FLUSH_EVERY: Duration = Duration::from_millis(250);
const BATCH: usize = 64;

/// The name under which a file that yielded no kernel but errors is recorded.
pub const FILE_RESULT: &str = "(file)";

#[derive(Clone, Debug, Default)]
pub struct ScanOptions {
    pub frontend: FrontendOptions,
    pub check: crate::check::Options,
    /// Worker threads; `None`: one per core.
    pub jobs: Option<usize>,
    /// Globs of paths to skip.
    pub exclude: Vec<String>,
    pub label: Option<String>,
    /// Draw a progress bar when stderr is a terminal.
    pub progress: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    pub run_id: i64,
    pub paths: Vec<String>,
    pub files: usize,
    /// Results recorded: kernels, plus files that failed as a whole.
    pub kernels: usize,
    pub verdicts: BTreeMap<String, usize>,
    /// Files the front-end parsed; the others came from the unit cache.
    pub parsed_units: usize,
    pub cached_units: usize,
    pub solver_calls: usize,
    pub solver_cache_hits: usize,
    pub races: usize,
    pub warnings: Vec<Warning>,
    pub wall_ms: f64,
}

impl RunSummary {
    /// Kernels with a race or a barrier divergence.
    pub fn findings(&self) -> usize {
        ["racy", "divergent"]
            .iter()
            .map(|v| self.verdicts.get(*v).copied().unwrap_or(0))
            .sum()
    }
}

fn git_commit(paths: &[PathBuf]) -> Option<String> {
    let first = paths.first()?;
    let dir = if first.is_dir() {
        first.as_path()
    } else {
        first.parent()?
    };
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !commit.is_empty()).then_some(commit)
}

/// The scanned paths as recorded: absolute where they exist.
fn absolute(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            p.canonicalize()
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string()
        })
        .collect()
}

/// Scan `paths` and record one run in `store`.
pub fn scan(paths: &[PathBuf], opts: &ScanOptions, store: &mut Store) -> Result<RunSummary> {
    let started = Instant::now();
    let exclude = walk::exclude_set(&opts.exclude)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.unwrap_or(0))
        .thread_name(|i| format!("drfscan-worker-{i}"))
        .build()
        .context("cannot start the worker threads")?;
    let meta = RunMeta {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        analysis_version: ANALYSIS_VERSION.to_string(),
        git_commit: git_commit(paths),
        options: serde_json::json!({ "frontend": opts.frontend, "check": opts.check }),
        label: opts.label.clone(),
        paths: absolute(paths),
    };
    let run = store.begin_run(&meta)?;
    let mut summary = RunSummary {
        run_id: run,
        paths: meta.paths.clone(),
        files: 0,
        kernels: 0,
        verdicts: [
            "drf",
            "racy",
            "divergent",
            "unknown",
            "unsupported",
            "error",
        ]
        .iter()
        .map(|v| (v.to_string(), 0))
        .collect(),
        parsed_units: 0,
        cached_units: 0,
        solver_calls: 0,
        solver_cache_hits: 0,
        races: 0,
        warnings: Vec::new(),
        wall_ms: 0.0,
    };
    let outcome = run_scan(paths, opts, &exclude, &pool, store, run, &mut summary);
    summary.wall_ms = started.elapsed().as_secs_f64() * 1e3;
    match outcome {
        Ok(()) => {
            store.finish_run(run, RunStatus::Finished)?;
            Ok(summary)
        }
        Err(e) => {
            // The scan's own error is the one to report.
            let _ = store.finish_run(run, RunStatus::Failed);
            Err(e)
        }
    }
}

/// One file of the scan, read.
struct Source {
    input: SourceFile,
    path: String,
    text: String,
    hash: String,
}

/// What the workers hand the writer.
struct Done {
    result: KernelResult,
    stats: Stats,
}

fn run_scan(
    paths: &[PathBuf],
    opts: &ScanOptions,
    exclude: &globset::GlobSet,
    pool: &rayon::ThreadPool,
    store: &mut Store,
    run: i64,
    summary: &mut RunSummary,
) -> Result<()> {
    let found = walk::find(paths, exclude);
    summary.warnings = found.skipped;
    let caches = Arc::new(store.caches()?);
    let db = ScanDb::new(caches.clone());
    let config = Config::new(&db, opts.frontend.clone(), opts.check.clone());

    let mut sources = Vec::new();
    for path in &found.files {
        match std::fs::read(path) {
            Ok(bytes) => {
                let hash = db::hash_bytes(&bytes);
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let input = SourceFile::new(&db, path.clone(), Arc::from(bytes), hash.clone());
                sources.push(Source {
                    input,
                    path: path.display().to_string(),
                    text,
                    hash,
                });
            }
            Err(e) => summary.warnings.push(Warning {
                path: path.display().to_string(),
                message: format!("cannot read: {e}"),
            }),
        }
    }
    store.record_warnings(run, &summary.warnings)?;
    summary.files = sources.len();

    // A database handle is not shared between threads: each worker clones its own.
    let proto = std::sync::Mutex::new(db.clone());
    let handle = || proto.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let progress = progress_bar(opts.progress, sources.len() as u64, "parsing");
    let parsed: Vec<Parsed> = pool.install(|| {
        sources
            .par_iter()
            .map_init(handle, |db, s| {
                let p = db::parse(db, s.input, config).clone();
                progress.inc(1);
                p
            })
            .collect()
    });
    progress.finish_and_clear();
    store.record_caches(&caches.take_pending())?;

    // Kernels to analyse, and files that failed as a whole.
    let mut tasks = Vec::new();
    let mut early = Vec::new();
    for (i, (s, p)) in sources.iter().zip(&parsed).enumerate() {
        if p.cached {
            summary.cached_units += 1;
        } else {
            summary.parsed_units += 1;
        }
        let unit = &p.unit;
        if unit.kernels.is_empty() {
            if !unit.diagnostics.is_empty() {
                early.push(file_failure(s, p));
            }
            continue;
        }
        // Parsing is clang's work; the rest of the front-end's time is
        // lowering and inference, and goes with the analysis. A cached unit
        // cost neither.
        let kernels = unit.kernels.len() as f64;
        let total = p.time.as_secs_f64() * 1e3;
        let clang = if p.cached {
            0.0
        } else {
            (unit.clang_us as f64 / 1e3).min(total)
        };
        let share = (clang / kernels, (total - clang) / kernels);
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (k, ku) in unit.kernels.iter().enumerate() {
            // Overloads and template instantiations share a name; number them.
            let n = seen.entry(ku.name.as_str()).or_default();
            *n += 1;
            let name = if *n == 1 {
                ku.name.clone()
            } else {
                format!("{}#{n}", ku.name)
            };
            tasks.push((i, k, name, share, p.cached));
        }
    }

    let progress = progress_bar(
        opts.progress,
        (tasks.len() + early.len()) as u64,
        "analysing",
    );
    let (tx, rx) = mpsc::channel::<Done>();
    for result in early {
        tx.send(Done {
            result,
            stats: Stats::default(),
        })
        .ok();
    }
    std::thread::scope(|scope| -> Result<()> {
        let workers = scope.spawn({
            let (handle, sources, progress) = (&handle, &sources, &progress);
            // The writer stays outside the pool: it must not take a worker's place.
            move || {
                pool.install(|| {
                    tasks
                        .par_iter()
                        .map_init(handle, |db, (i, k, name, share, cached)| {
                            let s = &sources[*i];
                            let a = db::analyse(db, KernelRef::new(db, s.input, *k), config);
                            let loc = db::parse(db, s.input, config).unit.kernels[*k].loc;
                            let result = kernel_result(s, name, loc, *share, *cached, a);
                            progress.inc(1);
                            Done {
                                result,
                                stats: a.stats,
                            }
                        })
                        .for_each_with(tx, |tx, done| {
                            // The writer only hangs up after an error it reports itself.
                            let _ = tx.send(done);
                        });
                })
            }
        });
        let written = write_results(store, run, &rx, &caches, summary);
        drop(rx);
        workers.join().map_err(|p| {
            anyhow::anyhow!(
                "a worker thread panicked: {}",
                db::panic_message(p.as_ref())
            )
        })?;
        written
    })?;
    progress.finish_and_clear();
    Ok(())
}

/// Commit results as they arrive, in batches, with the cache entries
/// produced so far.
fn write_results(
    store: &mut Store,
    run: i64,
    rx: &mpsc::Receiver<Done>,
    caches: &Caches,
    summary: &mut RunSummary,
) -> Result<()> {
    let mut batch = Vec::new();
    let mut last = Instant::now();
    loop {
        let next = rx.recv_timeout(FLUSH_EVERY);
        let closed = matches!(next, Err(mpsc::RecvTimeoutError::Disconnected));
        if let Ok(done) = next {
            summary.kernels += 1;
            *summary
                .verdicts
                .entry(done.result.verdict.as_str().to_string())
                .or_default() += 1;
            summary.solver_calls += done.stats.solver_calls;
            summary.solver_cache_hits += done.stats.cache_hits;
            summary.races += done.result.races.len();
            batch.push(done.result);
        }
        if closed || batch.len() >= BATCH || (!batch.is_empty() && last.elapsed() >= FLUSH_EVERY) {
            store.record_batch(run, &batch, &caches.take_pending())?;
            batch.clear();
            last = Instant::now();
        }
        if closed {
            return Ok(());
        }
    }
}

fn progress_bar(wanted: bool, len: u64, what: &'static str) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} [{elapsed_precise}]")
    {
        bar.set_style(style);
    }
    bar.set_message(what);
    bar
}

fn file_failure(s: &Source, p: &Parsed) -> KernelResult {
    KernelResult {
        path: s.path.clone(),
        file_hash: s.hash.clone(),
        kernel: FILE_RESULT.to_string(),
        verdict: Verdict::Error,
        reason: Some(p.unit.diagnostics.join("\n")),
        loc: None,
        parse_ms: p.time.as_secs_f64() * 1e3,
        infer_ms: 0.0,
        solve_ms: 0.0,
        replay_ms: 0.0,
        solver_calls: 0,
        cache_hits: 0,
        unit_cached: p.cached,
        races: Vec::new(),
    }
}

fn kernel_result(
    s: &Source,
    name: &str,
    loc: crate::protocol::Loc,
    (parse_ms, lower_ms): (f64, f64),
    cached: bool,
    a: &Analysed,
) -> KernelResult {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let (verdict, reason, loc, races) = match &a.report {
        Ok(report) => {
            let verdict = report.verdict();
            let worst = report.worst();
            let races = report
                .arrays
                .iter()
                .flat_map(|x| x.races.iter())
                .map(|r| RaceRecord::new(&s.path, name, &s.text, r.clone()))
                .collect();
            (
                verdict,
                worst.and_then(|x| x.reason.clone()),
                worst.and_then(|x| x.loc).or(Some(loc)),
                races,
            )
        }
        Err(f) => (
            f.verdict,
            Some(f.reason.clone()),
            f.loc.or(Some(loc)),
            Vec::new(),
        ),
    };
    KernelResult {
        path: s.path.clone(),
        file_hash: s.hash.clone(),
        kernel: name.to_string(),
        verdict,
        reason,
        loc,
        parse_ms,
        infer_ms: lower_ms + ms(a.stats.analysis),
        solve_ms: ms(a.stats.solve),
        replay_ms: ms(a.stats.replay),
        solver_calls: a.stats.solver_calls as u64,
        cache_hits: a.stats.cache_hits as u64,
        unit_cached: cached,
        races,
    }
}
