//! `scan` and the commands that read the run history.

use super::{AnalysisArgs, Format};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use drfscan::check::{ArrayReport, Confidence, Race, RaceAccess, Verdict};
use drfscan::cuda::commands::CompileCommands;
use drfscan::engine::{self, ScanOptions};
use drfscan::protocol::{Loc, Mode};
use drfscan::report::{sarif, FileReport, KernelEntry};
use drfscan::store::{
    diff_runs, saved_queries, AccessRow, RaceChange, ResultRow, RunDiff, RunRow, SavedQuery, Store,
    Table,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use tabled::builder::Builder;
use tabled::settings::Style;

#[derive(Args, Debug)]
pub struct DbArgs {
    /// The database file.
    #[arg(long, default_value = ".drfscan/drfscan.db")]
    pub db: PathBuf,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Exit 1 on any race or divergence.
    Any,
    /// Exit 1 only on races or divergences the previous run of the same paths did not have.
    New,
}

#[derive(Args, Debug)]
pub struct ScanArgs {
    /// Files or directories to scan for `.cu` files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Skip paths matching this glob (repeatable).
    #[arg(long)]
    pub exclude: Vec<String>,
    /// A label stored with the run (e.g. a branch or a nightly tag).
    #[arg(long)]
    pub label: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[arg(long, value_enum, default_value_t = FailOn::Any)]
    pub fail_on: FailOn,
    /// Scan only shard K of N of the files (K from 1), for one worker of a
    /// batch engine; `auto` reads it from DRFSCAN_SHARD, GitLab's
    /// CI_NODE_INDEX/CI_NODE_TOTAL, Slurm's SLURM_ARRAY_TASK_ID/COUNT or a
    /// Kubernetes JOB_COMPLETION_INDEX with DRFSCAN_SHARD_COUNT. Fold the
    /// shards' databases with `drfscan merge`.
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<String>,
    /// Start warm from another database's caches (e.g. last night's merged
    /// history), which is only read. With `--fail-on new`, its latest run of
    /// the same paths is the baseline.
    #[arg(long, value_name = "DB")]
    pub cache_from: Option<PathBuf>,
    /// Memory budget of one kernel or file in MiB (0: none): the scan's
    /// worker process is watched, and a kernel or file past it ends
    /// `unknown` (memory budget).
    #[arg(long, value_name = "MiB", default_value_t = 4096)]
    pub kernel_memory: u64,
    /// Run the analysis in this process rather than in a watched worker
    /// process: a crash in libclang or Z3 then ends the scan, and a parse
    /// that never ends is not stopped.
    #[arg(long)]
    pub no_isolation: bool,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard databases; the latest run of each is merged.
    #[arg(required = true, value_name = "SHARD.db")]
    pub shards: Vec<PathBuf>,
    /// The history database that receives the merged run (created if missing).
    #[arg(long, value_name = "HISTORY.db")]
    pub into: PathBuf,
    /// A label for the merged run (default: the shards' common label).
    #[arg(long)]
    pub label: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Exit 1 on races or divergences in the merged run: any, or those the
    /// history's previous run of the same paths did not have. Without it,
    /// a merge that succeeds exits 0.
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
}

#[derive(Args, Debug)]
pub struct GcArgs {
    /// How many of the latest runs to keep (runs still going are kept too).
    #[arg(long, default_value_t = 30)]
    pub keep: usize,
    #[command(flatten)]
    pub db: DbArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct RunsArgs {
    #[command(flatten)]
    pub db: DbArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run id (default: the latest run).
    pub run: Option<i64>,
    #[command(flatten)]
    pub db: DbArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// Base run id (default: the second latest).
    pub base: Option<i64>,
    /// Head run id (default: the latest).
    pub head: Option<i64>,
    #[command(flatten)]
    pub db: DbArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// A saved query (file name in `queries/` without `.sql`); `list` shows them.
    pub name: String,
    /// Values for the query's parameters, in order.
    pub args: Vec<String>,
    #[command(flatten)]
    pub db: DbArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct SqlArgs {
    /// A read-only SQL statement.
    pub sql: String,
    #[command(flatten)]
    pub db: DbArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `println!` for a reader that may stop reading (`| head`): a closed pipe
/// ends the output, not the program.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// Exit status: no race or divergence found.
const EXIT_CLEAN: i32 = 0;

/// Exit status: a race or a barrier divergence was found.
const EXIT_FOUND: i32 = 1;

/// Create the directory a database file goes in.
fn database_dir(db: &std::path::Path) -> Result<()> {
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the database directory", dir.display()))?;
    }
    Ok(())
}

/// The findings of run `run` (its `results`) that its baseline did not
/// have, and that baseline: the latest finished run of the same paths in
/// `store` before run `before`.
fn new_findings(
    store: &Store,
    before: i64,
    run: i64,
    paths: &[String],
    results: &[ResultRow],
) -> Result<(usize, Option<i64>)> {
    let previous = store.previous_finished_run(before, paths)?;
    let n = match previous {
        Some(base) => diff_runs(base, &store.results(base)?, run, results).new_findings(),
        None => diff_runs(0, &[], run, results).new_findings(),
    };
    Ok((n, previous))
}

pub fn scan(a: ScanArgs) -> Result<i32> {
    let worker = engine::supervise::Worker::from_env()?;
    if worker.is_none() && !a.no_isolation {
        // This process watches; a worker process scans.
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        let positive = |x: f64| (x > 0.0).then_some(x);
        let budgets = engine::supervise::Budgets {
            time: positive(a.analysis.kernel_timeout).map(std::time::Duration::from_secs_f64),
            memory_mib: (a.kernel_memory > 0).then_some(a.kernel_memory),
            jobs: a.jobs.unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map(|n| n.get())
                    .unwrap_or(1)
            }),
        };
        return engine::supervise::supervise(&args, budgets);
    }
    let shard = match a.shard.as_deref() {
        None => None,
        Some("auto") => Some(engine::shard::Shard::from_env(|k| std::env::var(k).ok())?),
        Some(s) => Some(s.parse().context("--shard")?),
    };
    // The first night has no history yet: start cold rather than fail.
    let cache_from = a.cache_from.clone().filter(|p| {
        let exists = p.exists();
        if !exists {
            eprintln!(
                "drfscan: warning: --cache-from {}: no such database; starting cold",
                p.display()
            );
        }
        exists
    });
    let mut frontend = super::cuda::frontend_options(&a.analysis)?;
    if frontend.compile_commands.source.is_none() {
        let found = a.paths.iter().find_map(|p| CompileCommands::find(p));
        if let Some(path) = found {
            frontend.compile_commands = CompileCommands::load(&path).map_err(anyhow::Error::msg)?;
        }
    }
    let opts = ScanOptions {
        frontend,
        check: a.analysis.options(),
        jobs: a.jobs,
        exclude: a.exclude.clone(),
        label: a.label.clone(),
        progress: true,
        shard,
        cache_from: cache_from.clone(),
        worker: worker.map(std::sync::Arc::new),
    };
    database_dir(&a.db.db)?;
    let mut store = Store::open(&a.db.db)?;
    let summary = engine::scan(&a.paths, &opts, &mut store)?;
    for w in &summary.warnings {
        eprintln!("drfscan: warning: {}: {}", shown(&w.path), w.message);
    }
    let results = store.results(summary.run_id)?;
    // Findings that fail the scan: all of them, or those the baseline did not
    // have. A worker started from a history compares with that history.
    let history = match &cache_from {
        Some(p) => Some(Store::open_read_only(p)?),
        None => None,
    };
    let (baseline, before) = match &history {
        Some(h) => (h, i64::MAX),
        None => (&store, summary.run_id),
    };
    let (new_findings, previous) =
        new_findings(baseline, before, summary.run_id, &summary.paths, &results)?;
    let failing = match a.fail_on {
        FailOn::Any => summary.findings(),
        FailOn::New => new_findings,
    };
    match a.format {
        Format::Json => {
            let mut v = serde_json::to_value(&summary)?;
            v["db"] = store.path().display().to_string().into();
            v["previous_run"] = previous.into();
            if let Some(h) = &history {
                v["previous_run_db"] = h.path().display().to_string().into();
            }
            v["new_findings"] = new_findings.into();
            print_json(&v)?;
        }
        Format::Sarif => print_json(&sarif::render(&file_reports(&results)?))?,
        Format::Text => {
            let shown: Vec<ResultRow> = results
                .into_iter()
                .filter(|r| !matches!(r.verdict.as_str(), "drf"))
                .collect();
            if !shown.is_empty() {
                print_results(&shown);
                outln!();
            }
            let verdicts: Vec<String> = summary
                .verdicts
                .iter()
                .filter(|(_, n)| **n > 0)
                .map(|(v, n)| format!("{n} {v}"))
                .collect();
            outln!(
                "run {}: {} kernels in {} files ({}), {} races; parsed {} files ({} from cache), {} solver calls ({} cache hits), {:.0} ms",
                summary.run_id,
                summary.kernels,
                summary.files,
                if verdicts.is_empty() { "none".to_string() } else { verdicts.join(", ") },
                summary.races,
                summary.parsed_units,
                summary.cached_units,
                summary.solver_calls,
                summary.solver_cache_hits,
                summary.wall_ms
            );
            outln!("CUDA headers: {}", opts.frontend.headers);
            let commands = &opts.frontend.compile_commands;
            if let Some(source) = &commands.source {
                outln!(
                    "compile commands: {} ({} files)",
                    source.display(),
                    commands.files
                );
            }
            if summary.makefile_files > 0 {
                outln!(
                    "Makefile flags: {} files from {} Makefiles (--no-makefiles to ignore them)",
                    summary.makefile_files,
                    summary.makefiles
                );
            }
            if let Some(share) = &summary.shard {
                outln!(
                    "shard {}/{}: {} of the tree's {} files; fold the shards with `drfscan merge`",
                    share.index,
                    share.count,
                    share.files,
                    share.tree_files
                );
            }
            if let Some(base) = previous {
                let db = history
                    .as_ref()
                    .map(|h| format!(" of {}", h.path().display()));
                outln!(
                    "{new_findings} new race(s) or divergence(s) since run {base}{}",
                    db.unwrap_or_default()
                );
            }
        }
    }
    Ok(if failing > 0 { EXIT_FOUND } else { EXIT_CLEAN })
}

/// A recorded (absolute) path as the user would type it from here.
fn shown(path: &str) -> String {
    let p = std::path::Path::new(path);
    std::env::current_dir()
        .ok()
        .and_then(|cwd| p.strip_prefix(cwd).ok().map(|r| r.display().to_string()))
        .unwrap_or_else(|| path.to_string())
}

fn open_read(db: &DbArgs) -> Result<Store> {
    Store::open_read_only(&db.db)
}

fn print_json(v: &impl Serialize) -> Result<()> {
    outln!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn render_table(header: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut b = Builder::default();
    b.push_record(header.iter().map(|h| h.to_string()));
    for r in rows {
        b.push_record(r);
    }
    b.build().with(Style::psql()).to_string()
}

/// Longest cell of a text table; JSON output keeps everything.
const CELL_CHARS: usize = 100;

fn clip(text: String) -> String {
    let first = text.lines().next().unwrap_or("");
    if first.chars().count() > CELL_CHARS || first.len() < text.len() {
        format!("{}…", first.chars().take(CELL_CHARS).collect::<String>())
    } else {
        text
    }
}

fn print_query_table(t: &Table) {
    let header: Vec<&str> = t.columns.iter().map(String::as_str).collect();
    outln!(
        "{}",
        render_table(
            &header,
            t.rows
                .iter()
                .map(|r| r.iter().map(|v| clip(cell(v))).collect())
        )
    );
    outln!(
        "({} row{})",
        t.rows.len(),
        if t.rows.len() == 1 { "" } else { "s" }
    );
}

fn short(commit: &Option<String>) -> String {
    commit
        .as_deref()
        .map(|c| c.chars().take(10).collect())
        .unwrap_or_default()
}

fn run_counts(r: &RunRow) -> [String; 3] {
    let n = |v: &str| r.verdicts.get(v).copied().unwrap_or(0);
    [
        n("drf").to_string(),
        n("racy").to_string(),
        n("divergent").to_string(),
    ]
}

pub fn runs(a: RunsArgs) -> Result<i32> {
    let store = open_read(&a.db)?;
    let runs = store.runs()?;
    if a.format == Format::Json {
        print_json(&runs)?;
        return Ok(EXIT_CLEAN);
    }
    let rows = runs.iter().map(|r| {
        let [drf, racy, divergent] = run_counts(r);
        let other = r.kernels
            - r.verdicts
                .iter()
                .filter(|(v, _)| matches!(v.as_str(), "drf" | "racy" | "divergent"))
                .map(|(_, n)| n)
                .sum::<i64>();
        // A shard's run shows its share; a merged run how many it folds.
        let part = match (&r.shard, &r.merged_from) {
            (Some(s), _) => format!("shard {}/{}", s["index"], s["count"]),
            (None, Some(m)) => format!("merged {}", m.len()),
            _ => String::new(),
        };
        vec![
            r.id.to_string(),
            r.started_at.clone(),
            r.status.clone(),
            part,
            r.label.clone().unwrap_or_default(),
            r.kernels.to_string(),
            drf,
            racy,
            divergent,
            other.to_string(),
            short(&r.git_commit),
            r.paths.join(" "),
        ]
    });
    outln!(
        "{}",
        render_table(
            &[
                "run",
                "started",
                "status",
                "sharding",
                "label",
                "kernels",
                "drf",
                "racy",
                "divergent",
                "other",
                "commit",
                "paths"
            ],
            rows
        )
    );
    Ok(EXIT_CLEAN)
}

/// The run `id`, or the latest one.
fn pick_run(store: &Store, id: Option<i64>) -> Result<RunRow> {
    let id = match id {
        Some(id) => id,
        None => *store
            .latest_runs(1)?
            .first()
            .with_context(|| format!("{}: no runs recorded yet", store.path().display()))?,
    };
    store
        .run(id)?
        .with_context(|| format!("{}: no run {id}", store.path().display()))
}

fn parse_verdict(s: &str) -> Result<Verdict> {
    serde_json::from_value(serde_json::Value::String(s.into()))
        .with_context(|| format!("unknown verdict `{s}` in the database"))
}

/// The recorded results of a run as the report module's files, for SARIF.
fn file_reports(rows: &[ResultRow]) -> Result<Vec<FileReport>> {
    let mut files: BTreeMap<&str, FileReport> = BTreeMap::new();
    for r in rows {
        let mut arrays: BTreeMap<&str, ArrayReport> = BTreeMap::new();
        for x in &r.races {
            let access = |a: &AccessRow| -> Result<RaceAccess> {
                let mode = match a.mode.as_str() {
                    "read" => Mode::Read,
                    "write" => Mode::Write,
                    "atomic" => Mode::Atomic,
                    m => bail!("unknown access mode `{m}` in the database"),
                };
                Ok(RaceAccess {
                    id: a.id,
                    loc: Loc::new(a.line, a.column),
                    mode,
                })
            };
            let race = Race {
                array: x.array.clone(),
                accesses: [access(&x.accesses[0])?, access(&x.accesses[1])?],
                index: serde_json::from_value(x.index.clone()).unwrap_or_default(),
                confidence: if x.confidence == "confirmed" {
                    Confidence::Confirmed
                } else {
                    Confidence::Possible
                },
                witness: serde_json::from_value(x.witness.clone()).unwrap_or_default(),
                precondition: x.precondition.clone(),
            };
            arrays
                .entry(x.array.as_str())
                .or_insert_with(|| ArrayReport::empty(&x.array, Verdict::Racy, None))
                .races
                .push(race);
        }
        let file = files.entry(r.path.as_str()).or_insert_with(|| FileReport {
            path: r.path.clone(),
            source: std::fs::read_to_string(&r.path).ok(),
            ..FileReport::default()
        });
        file.kernels.push(KernelEntry {
            name: r.kernel.clone(),
            line: r.line.unwrap_or(0),
            verdict: parse_verdict(&r.verdict)?,
            reason: r.reason.clone(),
            loc: r.line.zip(r.column).map(|(l, c)| Loc::new(l, c)),
            arrays: arrays.into_values().collect(),
            time_ms: r.total_ms(),
            names: BTreeMap::new(),
            launches: r.launches.clone(),
            approximations: Vec::new(),
        });
    }
    Ok(files.into_values().collect())
}

fn print_results(rows: &[ResultRow]) {
    let table = rows.iter().map(|r| {
        vec![
            format!("{}:{}", shown(&r.path), r.line.unwrap_or(0)),
            r.kernel.clone(),
            r.verdict.clone(),
            r.races.len().to_string(),
            format!("{:.1}", r.total_ms()),
            clip(r.reason.clone().unwrap_or_default()),
        ]
    });
    outln!(
        "{}",
        render_table(
            &["file", "kernel", "verdict", "races", "ms", "reason"],
            table
        )
    );
    for r in rows.iter().filter(|r| !r.races.is_empty()) {
        outln!("\n{} in {}:", r.kernel, shown(&r.path));
        for x in &r.races {
            let [a, b] = &x.accesses;
            outln!(
                "  {} race on `{}`: {} at {}:{} `{}` / {} at {}:{} `{}`",
                x.confidence,
                x.array,
                a.mode,
                a.line,
                a.column,
                a.text,
                b.mode,
                b.line,
                b.column,
                b.text
            );
        }
    }
}

pub fn report(a: ReportArgs) -> Result<i32> {
    let store = open_read(&a.db)?;
    let run = pick_run(&store, a.run)?;
    let rows = store.results(run.id)?;
    match a.format {
        Format::Json => print_json(&serde_json::json!({ "run": run, "results": rows }))?,
        Format::Sarif => print_json(&sarif::render(&file_reports(&rows)?))?,
        Format::Text => {
            outln!(
                "run {} ({}, started {}{}), {} kernels",
                run.id,
                run.status,
                run.started_at,
                run.label
                    .as_deref()
                    .map(|l| format!(", label {l}"))
                    .unwrap_or_default(),
                run.kernels
            );
            for w in &run.warnings {
                outln!("warning: {}: {}", shown(&w.path), w.message);
            }
            print_results(&rows);
        }
    }
    Ok(EXIT_CLEAN)
}

fn print_diff(d: &RunDiff) {
    outln!("run {} → run {}", d.base, d.head);
    let races = |title: &str, list: &[RaceChange]| {
        outln!("\n{title}: {}", list.len());
        for x in list {
            let [a, b] = &x.accesses;
            outln!(
                "  {}:{} `{}`: {} at line {} / {} at line {} ({})",
                shown(&x.path),
                x.kernel,
                x.array,
                a.mode,
                a.line,
                b.mode,
                b.line,
                x.confidence
            );
        }
    };
    races("new races", &d.new_races);
    races("fixed races", &d.fixed_races);
    outln!("\nverdict changes: {}", d.verdict_changes.len());
    for c in &d.verdict_changes {
        outln!(
            "  {}:{}: {} → {}{}",
            shown(&c.path),
            c.kernel,
            c.before,
            c.after,
            if c.worse { " (worse)" } else { "" }
        );
    }
    outln!("\nslower kernels (more than 2×): {}", d.slower.len());
    for s in &d.slower {
        outln!(
            "  {}:{}: {:.1} ms → {:.1} ms",
            shown(&s.path),
            s.kernel,
            s.before_ms,
            s.after_ms
        );
    }
    if !d.added_kernels.is_empty() || !d.removed_kernels.is_empty() {
        outln!(
            "\nkernels added: {}, removed: {}",
            d.added_kernels.len(),
            d.removed_kernels.len()
        );
    }
}

pub fn diff(a: DiffArgs) -> Result<i32> {
    let store = open_read(&a.db)?;
    let latest = store.latest_runs(2)?;
    let (base, head) = match (a.base, a.head) {
        (Some(b), Some(h)) => (b, h),
        (Some(b), None) => (b, *latest.first().context("no runs recorded yet")?),
        (None, _) => match latest.as_slice() {
            [h, b] => (*b, *h),
            _ => bail!(
                "{}: diff needs two runs, {} recorded",
                store.path().display(),
                latest.len()
            ),
        },
    };
    for id in [base, head] {
        store
            .run(id)?
            .with_context(|| format!("{}: no run {id}", store.path().display()))?;
    }
    let d = diff_runs(base, &store.results(base)?, head, &store.results(head)?);
    match a.format {
        Format::Json => print_json(&d)?,
        _ => print_diff(&d),
    }
    Ok(EXIT_CLEAN)
}

pub fn query(a: QueryArgs) -> Result<i32> {
    if a.name == "list" {
        let queries = saved_queries();
        if a.format == Format::Json {
            let list: Vec<_> = queries
                .iter()
                .map(|q| serde_json::json!({ "name": q.name, "description": q.description, "sql": q.sql }))
                .collect();
            print_json(&list)?;
        } else {
            outln!(
                "{}",
                render_table(
                    &["query", "description"],
                    queries
                        .iter()
                        .map(|q| vec![q.name.into(), q.description.into()])
                )
            );
        }
        return Ok(EXIT_CLEAN);
    }
    let q = SavedQuery::find(&a.name).with_context(|| {
        let names: Vec<_> = saved_queries().iter().map(|q| q.name).collect();
        format!("no saved query `{}` (known: {})", a.name, names.join(", "))
    })?;
    let store = open_read(&a.db)?;
    let t = store
        .query(q.sql, &a.args)
        .with_context(|| format!("query `{}`", q.name))?;
    show_table(&t, a.format)
}

fn show_table(t: &Table, format: Format) -> Result<i32> {
    match format {
        Format::Json => {
            let rows: Vec<serde_json::Map<String, serde_json::Value>> = t
                .rows
                .iter()
                .map(|r| t.columns.iter().cloned().zip(r.iter().cloned()).collect())
                .collect();
            print_json(&rows)?;
        }
        _ => print_query_table(t),
    }
    Ok(EXIT_CLEAN)
}

pub fn sql(a: SqlArgs) -> Result<i32> {
    let store = open_read(&a.db)?;
    let t = store.query(&a.sql, &[])?;
    show_table(&t, a.format)
}

pub fn merge(a: MergeArgs) -> Result<i32> {
    database_dir(&a.into)?;
    let mut store = Store::open(&a.into)?;
    let merged = store.merge(&a.shards, a.label.as_deref())?;
    let run = store
        .run(merged.run_id)?
        .context("the merged run vanished")?;
    let results = store.results(merged.run_id)?;
    let (new, previous) = new_findings(&store, run.id, run.id, &run.paths, &results)?;
    let races: usize = results.iter().map(|r| r.races.len()).sum();
    let findings = results
        .iter()
        .filter(|r| matches!(r.verdict.as_str(), "racy" | "divergent"))
        .count();
    match a.format {
        Format::Json => {
            let mut v = serde_json::to_value(&merged)?;
            v["db"] = store.path().display().to_string().into();
            v["kernels"] = run.kernels.into();
            v["verdicts"] = serde_json::to_value(&run.verdicts)?;
            v["races"] = races.into();
            v["warnings"] = serde_json::to_value(&run.warnings)?;
            v["previous_run"] = previous.into();
            v["new_findings"] = new.into();
            print_json(&v)?;
        }
        _ => {
            if merged.already {
                outln!(
                    "these {} shard(s) are already merged as run {} of {}; nothing changed",
                    merged.shards,
                    merged.run_id,
                    store.path().display()
                );
            }
            let mut verdicts: Vec<(&String, &i64)> = run.verdicts.iter().collect();
            verdicts.sort();
            let verdicts: Vec<String> = verdicts.iter().map(|(v, n)| format!("{n} {v}")).collect();
            outln!(
                "run {}: {} kernels from {} shard(s) ({}), {} races",
                run.id,
                run.kernels,
                merged.shards,
                if verdicts.is_empty() {
                    "none".to_string()
                } else {
                    verdicts.join(", ")
                },
                races
            );
            if let Some(base) = previous {
                outln!("{new} new race(s) or divergence(s) since run {base}");
            }
        }
    }
    let failing = match a.fail_on {
        None => 0,
        Some(FailOn::Any) => findings,
        Some(FailOn::New) => new,
    };
    Ok(if failing > 0 { EXIT_FOUND } else { EXIT_CLEAN })
}

pub fn gc(a: GcArgs) -> Result<i32> {
    if !a.db.db.exists() {
        bail!("{}: no such database", a.db.db.display());
    }
    let mut store = Store::open(&a.db.db)?;
    let c = store.gc(a.keep)?;
    if a.format == Format::Json {
        print_json(&c)?;
        return Ok(EXIT_CLEAN);
    }
    let rows = [
        ("runs", c.runs),
        ("results", c.results),
        ("races", c.races),
        ("warnings", c.warnings),
        ("kernels", c.kernels),
        ("files", c.files),
        ("solver cache entries", c.solver_cache),
        ("unit cache entries", c.unit_cache),
        ("report cache entries", c.report_cache),
    ]
    .map(|(what, n)| vec![what.to_string(), n.to_string()]);
    outln!("{}", render_table(&["removed", "rows"], rows));
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    outln!(
        "kept {} run(s){}; {}: {:.1} MiB before, {:.1} MiB after",
        c.kept_runs,
        c.oldest_kept
            .map(|r| format!(" from run {r} on"))
            .unwrap_or_default(),
        store.path().display(),
        mib(c.bytes_before),
        mib(c.bytes_after)
    );
    Ok(EXIT_CLEAN)
}
