//! Command-line interface: one submodule per group of subcommands.

mod cuda;
mod history;
mod protocol;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "drfscan",
    version,
    about = "Proves CUDA kernels free of data races, or shows a concrete race"
)]
#[command(
    after_help = "Exit status: 0 no race or divergence, 1 race or divergence found, 2 drfscan could not run."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Analyse memory access protocols written in the text format.
    CheckProtocol(protocol::CheckProtocolArgs),
    /// Print a synthetic protocol of the paper's Fig. 17 families.
    Gen(protocol::GenArgs),
    /// Analyse every `__global__` kernel of CUDA files.
    Check(cuda::CheckArgs),
    /// Run labelled kernels and compare verdicts with their labels.
    Eval(cuda::EvalArgs),
    /// Scan trees of `.cu` files, record a run in the database.
    Scan(history::ScanArgs),
    /// Fold the latest runs of shard databases (`scan --shard`) into one run
    /// of a history database.
    Merge(history::MergeArgs),
    /// List recorded runs.
    Runs(history::RunsArgs),
    /// Keep the latest runs and drop what only older runs used; shrink the file.
    Gc(history::GcArgs),
    /// Show the verdicts of one run (default: the latest).
    Report(history::ReportArgs),
    /// Compare two runs (default: the last two).
    Diff(history::DiffArgs),
    /// Run a saved query from `queries/`.
    Query(history::QueryArgs),
    /// Run read-only SQL against the database.
    Sql(history::SqlArgs),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
    Sarif,
}

/// Options of the analysis shared by `check`, `eval` and `scan`.
#[derive(Args, Debug, Clone, Default)]
pub struct AnalysisArgs {
    /// Per-query solver timeout in milliseconds of the asking thread's processor time (0: none).
    #[arg(long, default_value_t = drfscan::options::DEFAULT_TIMEOUT_MS)]
    pub timeout_ms: u64,
    /// Wall-clock budget of one kernel, all its queries included, in
    /// seconds (0: none); a kernel past it ends `unknown` (time budget) and
    /// the scan goes on.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub kernel_timeout: f64,
    /// Check global arrays only between threads of one block.
    #[arg(long)]
    pub block_level: bool,
    /// Report two writes of provably equal values to one cell as a race
    /// (by default they are a benign race, listed but not counted).
    #[arg(long)]
    pub strict: bool,
    /// How many times its usual time (a fraction of a second per kernel)
    /// the search for a precondition that removes a kernel's races gets:
    /// raise it where a loaded machine cuts the search short.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub precondition_patience: u64,
    /// Fix the block dimensions: X[,Y[,Z]] or [x,y,z].
    #[arg(long, value_name = "X[,Y[,Z]]")]
    pub block_dim: Option<String>,
    /// Fix the grid dimensions: X[,Y[,Z]] or [x,y,z].
    #[arg(long, value_name = "X[,Y[,Z]]")]
    pub grid_dim: Option<String>,
    /// Warp-synchronous semantics: the lanes of each warp of N threads run
    /// in lockstep, as legacy warp-synchronous code assumes (GPUVerify's
    /// --warp-sync=N). Off by default: current GPUs do not guarantee it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub warp_sync: Option<u32>,
    /// Fix a kernel parameter: NAME=VALUE (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Add an include directory (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Define a macro: NAME[=VALUE] (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// CUDA headers: a toolkit's root, a directory of NVIDIA's header
    /// packages (pip's `nvidia/*/include`), or `builtin`. By default a
    /// toolkit is looked for in CUDA_PATH, CUDA_HOME, /usr/local/cuda, above
    /// `nvcc` on PATH and in python3's packages; else the built-in headers.
    #[arg(long, value_name = "DIR|builtin")]
    pub cuda_path: Option<PathBuf>,
    /// A build's compile_commands.json: each file listed gets its -I, -D,
    /// -U, -std, -include and -nostdinc (nvcc's spellings too). `scan` finds one in a
    /// scanned directory or its build/ by itself.
    #[arg(long, value_name = "FILE")]
    pub compile_commands: Option<PathBuf>,
    /// Do not read -D, -I, -U, -std and -include from the Makefiles of the
    /// scanned tree. By default a file no compilation database lists gets
    /// the flags of the first rule that compiles CUDA in the nearest
    /// Makefile at or above its directory (not above the scanned path).
    #[arg(long)]
    pub no_makefiles: bool,
}

impl AnalysisArgs {
    pub fn options(&self) -> drfscan::check::Options {
        drfscan::check::Options {
            timeout_ms: self.timeout_ms,
            block_level: self.block_level,
            strict: self.strict,
            kernel_timeout_ms: (self.kernel_timeout.max(0.0) * 1e3).round() as u64,
            first_attempt_ms: 0,
            precondition_patience: self.precondition_patience,
            ..Default::default()
        }
    }
}

pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::CheckProtocol(a) => protocol::check_protocol(a),
        Command::Gen(a) => protocol::gen(a),
        Command::Check(a) => cuda::check(a),
        Command::Eval(a) => cuda::eval(a),
        Command::Scan(a) => history::scan(a),
        Command::Merge(a) => history::merge(a),
        Command::Runs(a) => history::runs(a),
        Command::Gc(a) => history::gc(a),
        Command::Report(a) => history::report(a),
        Command::Diff(a) => history::diff(a),
        Command::Query(a) => history::query(a),
        Command::Sql(a) => history::sql(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("drfscan: {e:#}");
            2
        }
    }
}
