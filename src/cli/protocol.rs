//! `check-protocol` and `gen`.

use super::Format;
use anyhow::Context;
use clap::Args;
use drfscan::analysis::{self, align, seq, split};
use drfscan::check::{self, Options, Verdict};
use drfscan::protocol::{gen, parse, print, wf, Kernel};
use drfscan::report::{self, FileReport, KernelEntry};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct CheckProtocolArgs {
    /// Protocol files in the text format.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Per-query solver timeout in milliseconds of the asking thread's processor time (0: none).
    #[arg(long, default_value_t = drfscan::options::DEFAULT_TIMEOUT_MS)]
    pub timeout_ms: u64,
    /// Check global arrays only between threads of one block.
    #[arg(long)]
    pub block_level: bool,
    /// Print an intermediate stage instead of verdicts.
    #[arg(long, value_enum)]
    pub show: Option<Stage>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// The parsed protocol, as the printer writes it.
    Protocol,
    /// Each array after the paper's barrier aligning (Fig. 6).
    Aligned,
    /// The barrier intervals.
    Split,
    /// The two-thread symbolic traces handed to the solver.
    Traces,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// accesses, barriers, conditionals, unsync-loops or sync-loops.
    pub family: gen::Family,
    /// How many times the pattern repeats (or nests).
    pub size: usize,
}

/// Reads and parses one protocol file; errors read `path: reason` or, for
/// parse errors, `path:line:column: reason` as compilers write them.
fn load(path: &PathBuf) -> Result<(String, Kernel), String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    let mut kernel = parse::parse_bytes(&bytes).map_err(|e| format!("{shown}:{e}"))?;
    kernel.name = path.display().to_string();
    Ok((String::from_utf8_lossy(&bytes).into_owned(), kernel))
}

pub fn check_protocol(args: CheckProtocolArgs) -> anyhow::Result<i32> {
    let opts = Options {
        timeout_ms: args.timeout_ms,
        block_level: args.block_level,
        ..Options::default()
    };
    if let Some(stage) = args.show {
        return show(&args.files, stage, &opts);
    }
    let mut files = Vec::new();
    for path in &args.files {
        let display = path.display().to_string();
        match load(path) {
            Err(error) => files.push(FileReport {
                path: display,
                source: None,
                error: Some(error),
                kernels: vec![],
            }),
            Ok((source, kernel)) => {
                let started = Instant::now();
                let report = check::check_kernel(&kernel, &opts);
                let ms = started.elapsed().as_secs_f64() * 1e3;
                let entry = KernelEntry::from_report(report, 1, ms, BTreeMap::new());
                files.push(FileReport {
                    path: display,
                    source: Some(source),
                    error: None,
                    kernels: vec![entry],
                });
            }
        }
    }
    match args.format {
        Format::Text => {
            let style = report::text::TextStyle {
                color: std::io::stdout().is_terminal(),
                protocol: true,
            };
            print!("{}", report::text::render(&files, style));
        }
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report::json::protocol_files(&files))?
        ),
        Format::Sarif => println!(
            "{}",
            serde_json::to_string_pretty(&report::sarif::render(&files))?
        ),
    }
    for f in &files {
        if let Some(e) = &f.error {
            eprintln!("drfscan: {e}");
        }
    }
    let code = report::exit_code(&files);
    // A protocol whose witness failed to replay is an internal error.
    let internal = files
        .iter()
        .flat_map(|f| &f.kernels)
        .any(|k| k.verdict == Verdict::Error);
    Ok(if internal && code == 0 { 2 } else { code })
}

fn show(paths: &[PathBuf], stage: Stage, opts: &Options) -> anyhow::Result<i32> {
    let mut code = 0;
    for path in paths {
        let (_, kernel) = match load(path) {
            Ok(k) => k,
            Err(e) => {
                eprintln!("drfscan: {e}");
                code = 2;
                continue;
            }
        };
        println!("# {}", path.display());
        if stage == Stage::Protocol {
            print!("{}", print::print(&kernel));
            continue;
        }
        for array in &kernel.arrays {
            println!("## array {}", array.name);
            let wf = match wf::well_formed(&kernel, array) {
                Ok(wf) => wf,
                Err(d) => {
                    println!("divergent: barrier at {}: {}", d.loc, d.reason);
                    continue;
                }
            };
            match stage {
                Stage::Protocol => unreachable!(),
                Stage::Aligned => print!("{}", align::print_aligned(&align::align(&wf))),
                Stage::Split => print!("{}", seq::print_intervals(&split::split(&wf))),
                Stage::Traces => match analysis::traces(&kernel, array, opts.block_level) {
                    Ok(traces) => traces
                        .iter()
                        .for_each(|t| print!("{}", seq::print_trace(t))),
                    Err(d) => println!("divergent: barrier at {}: {}", d.loc, d.reason),
                },
            }
        }
    }
    Ok(code)
}

pub fn gen(args: GenArgs) -> anyhow::Result<i32> {
    use std::io::Write;
    let text = gen::synthetic(args.family, args.size);
    std::io::stdout()
        .write_all(text.as_bytes())
        .context("writing the protocol")?;
    Ok(0)
}
