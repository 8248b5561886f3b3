//! The batch engine (DESIGN "Incremental batch engine"): find the `.cu`
//! files of a tree, parse them and analyse every kernel in parallel through
//! the query graph of [`db`], and record the run in the [`Store`] as kernels
//! finish, so that a killed scan keeps what it committed.

pub mod db;
pub mod shard;
pub mod supervise;
pub mod walk;

use crate::check::{Stats, Verdict, ANALYSIS_VERSION};
use crate::cuda::launch::LaunchSite;
use crate::cuda::FrontendOptions;
use crate::store::{Caches, KernelResult, RaceRecord, RunMeta, RunStatus, Store, Warning};
use anyhow::{Context, Result};
use db::{Analysed, Config, KernelRef, Parsed, ScanDb, SourceFile};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
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
    /// Take only this shard of the files (see [`shard`]).
    pub shard: Option<shard::Shard>,
    /// A database whose caches answer what this one's do not; it is only read.
    pub cache_from: Option<PathBuf>,
    /// This process is a worker of [`supervise`]: it logs its items, skips
    /// those that crashed or outran a budget, and may continue a run.
    pub worker: Option<Arc<supervise::Worker>>,
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
    /// The share of the tree a sharded scan took.
    pub shard: Option<shard::Share>,
    /// Files that took their flags from a Makefile, and how many Makefiles.
    pub makefile_files: usize,
    pub makefiles: usize,
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
    let serial = opts.worker.as_ref().is_some_and(|w| w.serial);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(if serial { 1 } else { opts.jobs.unwrap_or(0) })
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
        owner: opts.worker.as_ref().and_then(|w| w.owner.clone()),
    };
    let run = match opts.worker.as_ref().and_then(|w| w.run) {
        Some(run) => store.resume_run(run)?,
        None => store.begin_run(&meta)?,
    };
    if let Some(w) = &opts.worker {
        w.run_started(run);
    }
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
        shard: None,
        makefile_files: 0,
        makefiles: 0,
    };
    let outcome = run_scan(paths, opts, &exclude, &pool, store, run, &mut summary);
    let before = opts
        .worker
        .as_ref()
        .map(|w| w.elapsed_before)
        .unwrap_or_default();
    summary.wall_ms = (before + started.elapsed()).as_secs_f64() * 1e3;
    match outcome {
        Ok(()) if opts.worker.as_ref().and_then(|w| w.run).is_some() => {
            // A worker continuing a run finds the kernels its predecessors
            // finished in the solver cache; what they asked the solver is
            // in their recorded results.
            let (calls, hits) = store.run_solver_totals(run)?;
            summary.solver_calls = calls;
            summary.solver_cache_hits = hits;
            store.finish_run(run, RunStatus::Finished)?;
            Ok(summary)
        }
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
    home: Home,
}

/// The file a result is recorded under: a scanned file, or a header that
/// defines kernels.
struct Home {
    path: String,
    text: String,
    hash: String,
}

impl Home {
    fn read(path: &std::path::Path) -> Option<Home> {
        let bytes = std::fs::read(path).ok()?;
        Some(Home {
            path: path.display().to_string(),
            hash: db::hash_bytes(&bytes),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }
}

/// A path as the file system resolves it, for comparing the scanned files
/// with the files units include.
fn resolved(path: &std::path::Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
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
    let mut found = walk::find(paths, exclude);
    let caches = Arc::new(store.caches(opts.cache_from.as_deref())?);
    caches.stamp(run);
    let db = ScanDb::new(caches.clone());

    let mut read = Vec::with_capacity(found.files.len());
    for path in std::mem::take(&mut found.files) {
        match std::fs::read(&path) {
            Ok(bytes) => read.push((path, bytes)),
            Err(e) => found.skipped.push(Warning {
                path: path.display().to_string(),
                message: format!("cannot read: {e}"),
            }),
        }
    }
    if let Some(shard) = opts.shard {
        let roots: Vec<PathBuf> = paths.iter().map(|p| resolved(p)).collect();
        let part = shard::partition(
            &read,
            &roots,
            &found.headers,
            &opts.frontend.include_dirs,
            shard,
        );
        let mine: HashSet<PathBuf> = part.files.into_iter().collect();
        read.retain(|(p, _)| mine.contains(p));
        // What cannot be read belongs to one shard too, by its path.
        found.skipped.retain(|w| {
            let rel = shard::relative(std::path::Path::new(&w.path), &roots);
            shard::shard_of_path(&rel, shard.count) == shard.index
        });
        store.record_shard(run, &part.share)?;
        summary.shard = Some(part.share);
    }
    summary.warnings = found.skipped;
    let scanned: Vec<PathBuf> = read.iter().map(|(p, _)| p.clone()).collect();
    let frontend = FrontendOptions {
        tree_headers: crate::cuda::TreeHeaders::new(found.headers),
        ..opts.frontend.clone()
    }
    .with_makefiles(&scanned, paths);
    summary.makefile_files = frontend.makefiles.files;
    summary.makefiles = frontend.makefiles.makefiles;
    let config = Config::new(&db, frontend, opts.check.clone());

    let mut sources = Vec::new();
    for (path, bytes) in read {
        let hash = db::hash_bytes(&bytes);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let input = SourceFile::new(&db, path.clone(), Arc::from(bytes), hash.clone());
        sources.push(Source {
            input,
            home: Home {
                path: path.display().to_string(),
                text,
                hash,
            },
        });
    }
    let scanned_files: Vec<(String, String)> = sources
        .iter()
        .map(|s| (s.home.path.clone(), s.home.hash.clone()))
        .collect();
    store.record_run_files(run, &scanned_files)?;
    store.record_warnings(run, &summary.warnings)?;
    summary.files = sources.len();

    // A database handle is not shared between threads: each worker clones its own.
    let proto = std::sync::Mutex::new(db.clone());
    let handle = || proto.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let progress = progress_bar(opts.progress, sources.len() as u64, "parsing");
    // Parsed units are committed while parsing goes on, so that a scan
    // killed now does not parse them again.
    let parsed: Vec<Parsed> = std::thread::scope(|scope| -> Result<Vec<Parsed>> {
        let job = scope.spawn(|| {
            pool.install(|| {
                sources
                    .par_iter()
                    .map_init(handle, |db, s| {
                        let key = supervise::parse_key(s.input.path(db));
                        let worker = opts.worker.as_deref();
                        let p = if worker.is_some_and(|w| w.skipped(&key).is_some()) {
                            Parsed {
                                unit: Arc::default(),
                                cached: false,
                                time: Duration::ZERO,
                            }
                        } else {
                            worker.inspect(|w| w.start(&key));
                            let p = db::parse(db, s.input, config).clone();
                            worker.inspect(|w| w.done(&key));
                            p
                        };
                        progress.inc(1);
                        p
                    })
                    .collect::<Vec<Parsed>>()
            })
        });
        let mut flushed = Ok(());
        let mut last = Instant::now();
        while !job.is_finished() {
            std::thread::sleep(Duration::from_millis(20));
            if flushed.is_ok() && last.elapsed() >= FLUSH_EVERY {
                flushed = store.record_caches(&caches.take_pending());
                last = Instant::now();
            }
        }
        let parsed = job.join().map_err(|p| {
            anyhow::anyhow!(
                "a parser thread panicked: {}",
                db::panic_message(p.as_ref())
            )
        })?;
        flushed?;
        Ok(parsed)
    })?;
    progress.finish_and_clear();
    store.record_caches(&caches.take_pending())?;

    // A file that another scanned file includes (a header, or a `.cu` file
    // included by a `.cu` file) is analysed in the context that includes
    // it, not alone: its kernels come with that unit, once each.
    let mut resolve_cache: HashMap<PathBuf, PathBuf> = HashMap::new();
    let mut resolve = |p: &std::path::Path| {
        resolve_cache
            .entry(p.to_path_buf())
            .or_insert_with(|| resolved(p))
            .clone()
    };
    let scanned: HashMap<PathBuf, usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (resolve(s.input.path(&db)), i))
        .collect();
    let mut included: HashSet<usize> = HashSet::new();
    for (i, p) in parsed.iter().enumerate() {
        for (f, _) in &p.unit.includes {
            if let Some(&j) = scanned.get(&resolve(f)) {
                if j != i {
                    included.insert(j);
                }
            }
        }
    }
    // Launches host code makes of kernels other files define, by the
    // directory of the launching file and the kernel's name: one program's
    // `main.cu` and `kernels.cu` sit side by side. A kernel whose address
    // escapes anywhere there keeps its launch free.
    let mut foreign: HashMap<(PathBuf, &str), Option<Vec<LaunchSite>>> = HashMap::new();
    for (s, p) in sources.iter().zip(&parsed) {
        let dir = directory(&resolve(s.input.path(&db)));
        for f in &p.unit.foreign_launches {
            let entry = foreign
                .entry((dir.clone(), f.kernel.as_str()))
                .or_insert_with(|| Some(Vec::new()));
            match (entry.as_mut(), &f.sites) {
                (Some(all), Some(sites)) => all.extend(sites.iter().cloned()),
                _ => *entry = None,
            }
        }
    }

    // Homes of kernels defined outside the unit that found them.
    let mut homes: Vec<Home> = Vec::new();
    let mut home_of: HashMap<PathBuf, usize> = HashMap::new();
    // Kernels found outside their unit, by home, name and line: the
    // launches each analysis of them is under, and its task.
    let mut claimed: HashMap<(usize, String, u32), Vec<(Vec<LaunchSite>, usize)>> = HashMap::new();
    let mut host_failures = Vec::new();

    // Kernels to analyse, and files that failed as a whole.
    let mut tasks: Vec<Task> = Vec::new();
    let mut early = Vec::new();
    for (i, (s, p)) in sources.iter().zip(&parsed).enumerate() {
        if p.cached {
            summary.cached_units += 1;
        } else {
            summary.parsed_units += 1;
        }
        if included.contains(&i) {
            continue;
        }
        let skipped = opts
            .worker
            .as_ref()
            .and_then(|w| w.skipped(&supervise::parse_key(s.input.path(&db))));
        if let Some(skipped) = skipped {
            early.push(KernelResult {
                verdict: skipped.verdict,
                reason: Some(skipped.reason.clone()),
                ..file_failure(s, p)
            });
            continue;
        }
        let unit = &p.unit;
        host_failures.extend(unit.notes.iter().map(|n| Warning {
            path: s.home.path.clone(),
            message: n.clone(),
        }));
        if unit.kernels.is_empty() {
            if unit.diagnostics.is_empty() {
                continue;
            }
            if crate::cuda::defines_kernel(&s.home.text) || s.home.text.contains('\0') {
                // A kernel may be among what clang could not parse, or the
                // file is no source at all.
                early.push(file_failure(s, p));
            } else {
                host_failures.push(Warning {
                    path: s.home.path.clone(),
                    message: format!(
                        "host code does not compile (no kernel affected): {}",
                        first_line(&unit.diagnostics)
                    ),
                });
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
        let mut seen: HashMap<(Option<&PathBuf>, &str), usize> = HashMap::new();
        for (k, ku) in unit.kernels.iter().enumerate() {
            // Overloads and template instantiations share a name; number them.
            let n = seen
                .entry((ku.file.as_ref(), ku.name.as_str()))
                .or_default();
            *n += 1;
            let mut replaced = None;
            let mut name = if *n == 1 {
                ku.name.clone()
            } else {
                format!("{}#{n}", ku.name)
            };
            let home = match &ku.file {
                None => Some(HomeRef::Source),
                Some(f) => {
                    let f = resolve(f);
                    let h = match (scanned.get(&f), home_of.get(&f)) {
                        (Some(&j), _) => Some(HomeRef::Of(j)),
                        (None, Some(&h)) => Some(HomeRef::Header(h)),
                        (None, None) => Home::read(&f).map(|home| {
                            homes.push(home);
                            home_of.insert(f.clone(), homes.len() - 1);
                            HomeRef::Header(homes.len() - 1)
                        }),
                    };
                    // Reported by one unit that reaches it per launch
                    // configuration no other unit's covers (`claim`); a
                    // second configuration is named after its unit.
                    let key = match h {
                        Some(HomeRef::Of(j)) => (j, name.clone(), ku.loc.line),
                        Some(HomeRef::Header(h)) => (usize::MAX - h, name.clone(), ku.loc.line),
                        _ => continue,
                    };
                    let claims = claimed.entry(key).or_default();
                    match claim(claims, &ku.launches, tasks.len()) {
                        Claim::Covered => continue,
                        Claim::Replaces(task) => {
                            replaced = Some(task);
                            name = tasks[task].2.clone();
                        }
                        Claim::New if claims.len() > 1 => {
                            let unit = s.input.path(&db);
                            let unit = unit
                                .file_name()
                                .map(|f| f.to_string_lossy())
                                .unwrap_or_default();
                            name = format!("{name} (as {unit} launches it)");
                        }
                        Claim::New => {}
                    }
                    h
                }
            };
            let Some(home) = home else { continue };
            let launches = if ku.launch_free {
                let defined_in = match &ku.file {
                    Some(f) => resolve(f),
                    None => resolve(s.input.path(&db)),
                };
                // A declaration may leave its parameters unnamed: the
                // definition's names read in reports.
                foreign
                    .get(&(directory(&defined_in), ku.name.as_str()))
                    .cloned()
                    .flatten()
                    .unwrap_or_default()
                    .iter()
                    .map(|site| site.with_arg_names(&ku.args))
                    .collect()
            } else {
                Vec::new()
            };
            let task = (i, k, name, share, p.cached, home, launches);
            match replaced.take() {
                Some(at) => tasks[at] = task,
                None => tasks.push(task),
            }
        }
    }
    store.record_warnings(run, &host_failures)?;
    summary.warnings.extend(host_failures);

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
            let (handle, sources, progress, homes) = (&handle, &sources, &progress, &homes);
            // The writer stays outside the pool: it must not take a worker's place.
            move || {
                pool.install(|| {
                    tasks
                        .par_iter()
                        .map_init(handle, |db, (i, k, name, share, cached, home, launches)| {
                            let s = &sources[*i];
                            let loc = db::parse(db, s.input, config).unit.kernels[*k].loc;
                            let home = match home {
                                HomeRef::Source => &s.home,
                                HomeRef::Of(j) => &sources[*j].home,
                                HomeRef::Header(h) => &homes[*h],
                            };
                            let key = supervise::kernel_key(s.input.path(db), *k);
                            let worker = opts.worker.as_deref();
                            if let Some(skipped) = worker.and_then(|w| w.skipped(&key)) {
                                if skipped.reason.starts_with(crate::options::TIME_BUDGET) {
                                    let k = KernelRef::new(db, s.input, *k, launches.clone());
                                    db::remember_over_budget(db, k, config, &skipped.reason);
                                }
                                progress.inc(1);
                                return Done {
                                    result: skipped_result(home, name, loc, skipped),
                                    stats: Stats::default(),
                                };
                            }
                            worker.inspect(|w| w.start(&key));
                            let kernel = KernelRef::new(db, s.input, *k, launches.clone());
                            let a = db::analyse(db, kernel, config);
                            let mut result = kernel_result(home, name, loc, *share, *cached, a);
                            let unit = &db::parse(db, s.input, config).unit.kernels[*k];
                            let own = if launches.is_empty() {
                                &unit.launches
                            } else {
                                launches
                            };
                            result.launches = own.iter().map(LaunchSite::describe_at).collect();
                            worker.inspect(|w| w.done(&key));
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

/// Where a kernel's result is recorded.
#[derive(Clone, Copy)]
enum HomeRef {
    /// The file whose unit found it.
    Source,
    /// Another scanned file, which that unit includes.
    Of(usize),
    /// A header outside the scanned files.
    Header(usize),
}

/// The directory of a file, for matching launches to kernels.
fn directory(path: &std::path::Path) -> PathBuf {
    path.parent().map(PathBuf::from).unwrap_or_default()
}

fn first_line(diagnostics: &[String]) -> &str {
    diagnostics
        .first()
        .and_then(|d| d.lines().next())
        .unwrap_or("")
}

/// A kernel to analyse: its source and kernel index, the name it is
/// reported under, its share of the unit's front-end time (clang, the
/// rest), whether the unit came from the cache, its home, and the launches
/// other files make of it.
type Task = (
    usize,
    usize,
    String,
    (f64, f64),
    bool,
    HomeRef,
    Vec<LaunchSite>,
);

/// What a unit's analysis of a kernel found outside it adds to those
/// already claimed.
enum Claim {
    /// An analysis already covers its launches.
    Covered,
    /// It covers the launches of the claimed analysis whose task it is,
    /// and takes that task's place.
    Replaces(usize),
    /// A configuration no analysis covers: its own task, `task`.
    New,
}

/// Claims a kernel other units may reach too (a header's kernel, a
/// template's instantiation) for a unit that launches it with `sites`
/// (none: the unit does not launch it), whose task would be `task`. One
/// analysis whose launches cover another's is enough; a unit that does
/// not launch the kernel adds nothing once another does.
fn claim(claims: &mut Vec<(Vec<LaunchSite>, usize)>, sites: &[LaunchSite], task: usize) -> Claim {
    let covers = |by: &[LaunchSite], of: &[LaunchSite]| {
        !by.is_empty() && of.iter().all(|b| by.iter().any(|a| a.covers(b)))
    };
    if claims.iter().any(|(c, _)| covers(c, sites)) || (sites.is_empty() && !claims.is_empty()) {
        return Claim::Covered;
    }
    if let Some(c) = claims
        .iter_mut()
        .find(|(c, _)| c.is_empty() || covers(sites, c))
    {
        c.0 = sites.to_vec();
        return Claim::Replaces(c.1);
    }
    claims.push((sites.to_vec(), task));
    Claim::New
}

fn file_failure(s: &Source, p: &Parsed) -> KernelResult {
    KernelResult {
        path: s.home.path.clone(),
        file_hash: s.home.hash.clone(),
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
        launches: Vec::new(),
    }
}

/// The result of a kernel that crashed a worker or outran a budget.
fn skipped_result(
    s: &Home,
    name: &str,
    loc: crate::protocol::Loc,
    skipped: &supervise::Skipped,
) -> KernelResult {
    KernelResult {
        path: s.path.clone(),
        file_hash: s.hash.clone(),
        kernel: name.to_string(),
        verdict: skipped.verdict,
        reason: Some(skipped.reason.clone()),
        loc: Some(loc),
        parse_ms: 0.0,
        infer_ms: 0.0,
        solve_ms: 0.0,
        replay_ms: 0.0,
        solver_calls: 0,
        cache_hits: 0,
        unit_cached: false,
        races: Vec::new(),
        launches: Vec::new(),
    }
}

fn kernel_result(
    s: &Home,
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
        launches: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Loc;

    fn site(grid: Option<u64>, block: u64) -> LaunchSite {
        LaunchSite {
            grid: [grid, Some(1), Some(1)],
            block: [Some(block), Some(1), Some(1)],
            file: "a.cu".into(),
            loc: Loc::new(1, 1),
            relations: Vec::new(),
        }
    }

    #[test]
    fn one_analysis_serves_every_launch_it_covers() {
        let mut claims = Vec::new();
        // Not launched by the first unit: a placeholder the next takes.
        assert!(matches!(claim(&mut claims, &[], 0), Claim::New));
        assert!(matches!(
            claim(&mut claims, &[site(Some(4), 64)], 1),
            Claim::Replaces(0)
        ));
        // A launch with an unknown grid covers one with a known grid…
        assert!(matches!(
            claim(&mut claims, &[site(None, 64)], 2),
            Claim::Replaces(0)
        ));
        assert!(matches!(
            claim(&mut claims, &[site(Some(8), 64)], 3),
            Claim::Covered
        ));
        assert!(matches!(claim(&mut claims, &[], 4), Claim::Covered));
        // …but not another block size.
        assert!(matches!(
            claim(&mut claims, &[site(None, 128)], 5),
            Claim::New
        ));
        assert_eq!(claims.len(), 2);
    }
}
