//! `check` and `eval`: CUDA files in, verdicts out.

use super::{AnalysisArgs, Format};
use clap::Args;
use drfscan::check::{self, Confidence, Options, Verdict};
use drfscan::cuda::{
    self, commands::CompileCommands, label, launch::LaunchSite, FrontendOptions, Unit,
};
use drfscan::protocol::print;
use drfscan::report::{self, text::TextStyle, FileReport, KernelEntry};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tabled::{settings::Style, Table, Tabled};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// CUDA source files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Only the kernel with this name (repeatable).
    #[arg(long)]
    pub kernel: Vec<String>,
    /// Print each kernel's inferred protocols.
    #[arg(long)]
    pub show_protocol: bool,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Directories (searched recursively) or files of labelled kernels.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Files checked at once (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Keep the solver's answers in this database and take those it already
    /// holds (from `scan` or an earlier `eval` with the same solver options
    /// and analysis version); the verdicts are the same either way.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// The front-end options a command line asks for.
pub fn frontend_options(a: &AnalysisArgs) -> anyhow::Result<FrontendOptions> {
    let dim = |flag: &str, v: &Option<String>| -> anyhow::Result<Option<[u64; 3]>> {
        match v {
            None => Ok(None),
            Some(text) => label::parse_dim(text).map(Some).ok_or_else(|| {
                anyhow::anyhow!("{flag} {text}: expected X[,Y[,Z]] or [x,y,z], each at least 1")
            }),
        }
    };
    let mut params = Vec::new();
    for p in &a.params {
        let parsed = p
            .split_once('=')
            .and_then(|(n, v)| Some((n.trim().to_string(), v.trim().parse::<i64>().ok()?)));
        match parsed {
            Some(p) if !p.0.is_empty() => params.push(p),
            _ => anyhow::bail!("--param {p}: expected NAME=VALUE with an integer VALUE"),
        }
    }
    let toolkit = drfscan::cuda::toolkit::resolve(drfscan::cuda::toolkit::Request::from_flag(
        a.cuda_path.as_deref(),
    ))?;
    let headers = match &toolkit {
        None => "built-in".to_string(),
        Some(t) => format!(
            "CUDA {} at {} ({})",
            t.version.as_deref().unwrap_or("of unknown version"),
            t.root.display(),
            t.found_by
        ),
    };
    Ok(FrontendOptions {
        include_dirs: a.include_dirs.clone(),
        defines: a.defines.clone(),
        cuda_path: toolkit.map(|t| t.root),
        headers,
        block_dim: dim("--block-dim", &a.block_dim)?,
        grid_dim: dim("--grid-dim", &a.grid_dim)?,
        params,
        warp_sync: a.warp_sync,
        compile_commands: match &a.compile_commands {
            Some(path) => CompileCommands::load(path).map_err(anyhow::Error::msg)?,
            None => CompileCommands::default(),
        },
        no_makefiles: a.no_makefiles,
        ..FrontendOptions::default()
    })
}

/// Parses one file and analyses each of its kernels (or those named): one
/// report for the file, then one for each project header (or included `.cu`
/// file) that defines kernels it analysed.
fn check_file(
    path: &Path,
    fopts: &FrontendOptions,
    opts: &Options,
    only: &[String],
    show_protocol: bool,
) -> (Vec<FileReport>, Unit) {
    let (main, unit) = check_unit(path, fopts, opts, &check::NoCache, only, show_protocol);
    let mut reports = vec![main];
    let kernels = std::mem::take(&mut reports[0].kernels);
    let files = unit
        .kernels
        .iter()
        .filter(|k| only.is_empty() || only.contains(&k.name))
        .map(|k| k.file.clone());
    for (entry, file) in kernels.into_iter().zip(files) {
        let i = match file {
            None => 0,
            Some(f) => {
                let name = f.display().to_string();
                match reports.iter().position(|r| r.path == name) {
                    Some(i) => i,
                    None => {
                        let source = std::fs::read(&f)
                            .ok()
                            .map(|b| String::from_utf8_lossy(&b).into_owned());
                        reports.push(FileReport {
                            path: name,
                            source,
                            ..Default::default()
                        });
                        reports.len() - 1
                    }
                }
            }
        };
        reports[i].kernels.push(entry);
    }
    // A file whose kernels all live in its headers is reported by them.
    if reports.len() > 1 && reports[0].kernels.is_empty() && reports[0].error.is_none() {
        reports.remove(0);
    }
    (reports, unit)
}

fn check_unit(
    path: &Path,
    fopts: &FrontendOptions,
    opts: &Options,
    cache: &dyn check::TraceCache,
    only: &[String],
    show_protocol: bool,
) -> (FileReport, Unit) {
    let path_str = path.display().to_string();
    let source = std::fs::read(path);
    let mut report = FileReport {
        path: path_str.clone(),
        ..Default::default()
    };
    let bytes = match source {
        Ok(b) => b,
        Err(e) => {
            report.error = Some(format!("{path_str}: cannot read: {e}"));
            let unit = Unit {
                kernels: Vec::new(),
                diagnostics: Vec::new(),
                includes: Vec::new(),
                expectation: None,
                clang_us: 0,
                notes: Vec::new(),
                foreign_launches: Vec::new(),
            };
            return (report, unit);
        }
    };
    report.source = Some(String::from_utf8_lossy(&bytes).into_owned());
    let unit = cuda::parse_source(path, &bytes, fopts);
    for ku in unit
        .kernels
        .iter()
        .filter(|k| only.is_empty() || only.contains(&k.name))
    {
        let names: BTreeMap<String, String> = ku.display_names.iter().cloned().collect();
        let entry = match &ku.lowered {
            _ if !ku.errors.is_empty() => KernelEntry::failed(
                &ku.name,
                ku.loc.line,
                Verdict::Error,
                ku.errors.join("\n"),
                Some(ku.loc),
            ),
            Err(u) => KernelEntry::failed(
                &ku.name,
                ku.loc.line,
                Verdict::Unsupported,
                u.reason.clone(),
                Some(u.loc),
            ),
            Ok(kernel) => {
                if show_protocol {
                    emit(&format!(
                        "// {}: kernel {}\n{}\n",
                        path_str,
                        ku.name,
                        print::print(kernel)
                    ));
                }
                let start = Instant::now();
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    check::check_kernel_cached(kernel, opts, cache)
                }));
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                match r {
                    Ok(r) => {
                        let mut entry = KernelEntry::from_report(r, ku.loc.line, ms, names);
                        entry.launches = ku.launches.iter().map(LaunchSite::describe_at).collect();
                        entry
                    }
                    Err(_) => KernelEntry::failed(
                        &ku.name,
                        ku.loc.line,
                        Verdict::Error,
                        "internal error in the analysis".into(),
                        Some(ku.loc),
                    ),
                }
            }
        };
        report.kernels.push(entry);
    }
    if unit.kernels.is_empty() && !unit.diagnostics.is_empty() {
        report.error = Some(unit.diagnostics.join("\n"));
    }
    (report, unit)
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
fn emit(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

fn render(files: &[FileReport], format: Format) -> String {
    match format {
        Format::Text => report::text::render(
            files,
            TextStyle {
                color: std::io::stdout().is_terminal(),
                protocol: false,
            },
        ),
        Format::Json => format!("{:#}\n", report::json::cuda_files(files)),
        Format::Sarif => format!("{:#}\n", report::sarif::render(files)),
    }
}

pub fn check(args: CheckArgs) -> anyhow::Result<i32> {
    // A file named by itself takes the Makefile of its own directory.
    let fopts = frontend_options(&args.analysis)?.with_makefiles(&args.files, &[]);
    let opts = args.analysis.options();
    let mut files: Vec<FileReport> = Vec::new();
    let mut units: Vec<Option<Unit>> = Vec::new();
    for p in &args.files {
        let (reports, unit) = check_file(
            p,
            &fopts,
            &opts,
            &args.kernel,
            args.show_protocol && args.format == Format::Text,
        );
        let n = reports.len();
        files.extend(reports);
        units.push(Some(unit));
        units.extend((1..n).map(|_| None));
    }
    emit(&render(&files, args.format));
    if args.format == Format::Text {
        // Errors read `path: reason` (clang's as `path:line:column: …`).
        for e in files.iter().filter_map(|f| f.error.as_ref()) {
            eprintln!("drfscan: {e}");
        }
        // Clang's errors outside every kernel (a missing header, say) did
        // not stop the analysis, but the user should see them.
        for (f, u) in files.iter().zip(&units) {
            let Some(u) = u else { continue };
            if f.error.is_some() {
                continue;
            }
            let in_kernels: Vec<&String> = u.kernels.iter().flat_map(|k| k.errors.iter()).collect();
            for d in u
                .diagnostics
                .iter()
                .filter(|d| !in_kernels.contains(d))
                .take(5)
            {
                eprintln!("drfscan: warning: {d}");
            }
            for n in &u.notes {
                eprintln!("drfscan: note: {}: {n}", f.path);
            }
        }
    }
    Ok(report::exit_code(&files))
}

/// One labelled kernel's expected and actual verdicts.
#[derive(Tabled, Serialize)]
struct Row {
    path: String,
    kernel: String,
    expected: String,
    actual: String,
    ok: &'static str,
}

fn cu_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            out.push(p.clone());
            continue;
        }
        for e in walkdir::WalkDir::new(p)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
        {
            if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "cu") {
                out.push(e.into_path());
            }
        }
    }
    out
}

/// Whether an actual verdict meets an expectation.
fn meets(expected: &str, actual: &str) -> bool {
    match expected.strip_prefix("xfail:") {
        // GPUVerify expects some failure it does not name as a race.
        Some(_) => actual != "drf",
        None => expected == actual,
    }
}

pub fn eval(args: EvalArgs) -> anyhow::Result<i32> {
    // Includes the include path misses are looked up in the evaluated
    // trees, as `scan` does.
    let dirs: Vec<PathBuf> = args.paths.iter().filter(|p| p.is_dir()).cloned().collect();
    let found = drfscan::engine::walk::find(&dirs, &globset::GlobSet::empty());
    let fopts = FrontendOptions {
        tree_headers: drfscan::cuda::TreeHeaders::new(found.headers),
        ..frontend_options(&args.analysis)?
    }
    .with_makefiles(&found.files, &dirs);
    let opts = args.analysis.options();
    let store = args
        .db
        .as_deref()
        .map(drfscan::store::Store::open)
        .transpose()?;
    let caches = store.as_ref().map(|s| s.caches(None)).transpose()?;
    let solver_cache = caches
        .as_ref()
        .map(|c| drfscan::engine::db::SolverCache::new(c, &opts));
    let cache: &dyn check::TraceCache = match &solver_cache {
        Some(c) => c,
        None => &check::NoCache,
    };
    let mut rows = Vec::new();
    let (mut proved, mut found, mut false_alarms, mut missed, mut other) = (0, 0, 0, 0, 0);
    let mut known_alarms = 0;
    // Files are checked side by side and tallied in their order.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()?;
    let checked: Vec<(PathBuf, drfscan::cuda::Expectation, FileReport)> = pool.install(|| {
        cu_files(&args.paths)
            .into_par_iter()
            .filter_map(|path| {
                let bytes = std::fs::read(&path).ok()?;
                let expected = label::read(&String::from_utf8_lossy(&bytes)).0?;
                let (report, _) = check_unit(&path, &fopts, &opts, cache, &[], false);
                Some((path, expected, report))
            })
            .collect()
    });
    for (path, expected, report) in checked {
        // (kernel, verdict, whether every race is only possible)
        let mut results: Vec<(String, String, bool)> = report
            .kernels
            .iter()
            .map(|k| {
                let possible = k.races().all(|r| r.confidence == Confidence::Possible);
                (k.name.clone(), k.verdict.as_str().to_string(), possible)
            })
            .collect();
        if results.is_empty() {
            let actual = if report.error.is_some() {
                "error"
            } else {
                "none"
            };
            results.push(("-".into(), actual.into(), false));
        }
        for (kernel, actual, only_possible) in results {
            let known = expected.verdict == "drf" && expected.known_false_alarm.is_some();
            let actual_is_racy = actual == "racy";
            let ok =
                meets(&expected.verdict, &actual) || (known && actual_is_racy && only_possible);
            match (expected.verdict.as_str(), actual.as_str()) {
                ("drf", "drf") => proved += 1,
                ("racy", "racy") => found += 1,
                ("drf", "racy") if known && ok => known_alarms += 1,
                ("drf", "racy") => false_alarms += 1,
                ("racy", "drf") => missed += 1,
                _ if !ok => other += 1,
                _ => {}
            }
            rows.push(Row {
                path: path.display().to_string(),
                kernel,
                expected: expected.verdict.clone(),
                actual,
                ok: match (ok, known && actual_is_racy) {
                    (false, _) => "NO",
                    (true, true) => "known",
                    (true, false) => "yes",
                },
            });
        }
    }
    // The verdicts are shown whether or not their answers could be kept.
    if let (Some(mut store), Some(caches), Some(db)) = (store, caches, &args.db) {
        if let Err(e) = store.record_caches(&caches.take_pending()) {
            eprintln!(
                "drfscan: warning: {}: the solver's answers were not kept: {e:#}",
                db.display()
            );
        }
    }
    let mismatches = rows.iter().filter(|r| r.ok == "NO").count();
    match args.format {
        Format::Json | Format::Sarif => {
            let totals = serde_json::json!({
                "kernels": rows.len(), "drf_proved": proved, "races_found": found,
                "false_alarms": false_alarms, "known_false_alarms": known_alarms, "missed_races": missed, "other_mismatches": other,
            });
            emit(&format!(
                "{:#}\n",
                serde_json::json!({ "results": rows, "totals": totals })
            ));
        }
        Format::Text => {
            if !rows.is_empty() {
                emit(&format!("{}\n", Table::new(&rows).with(Style::sharp())));
            }
            emit(&format!(
                "{} kernels: {proved} DRF proved, {found} races found, {false_alarms} false alarms, {known_alarms} known false alarms, {missed} missed races, {other} other mismatches\n",
                rows.len()
            ));
        }
    }
    Ok(if mismatches > 0 { 1 } else { 0 })
}
