//! `check` and `eval`: CUDA files in, verdicts out.

use super::{AnalysisArgs, Format};
use clap::Args;
use std::path::PathBuf;

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
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

pub fn check(_args: CheckArgs) -> anyhow::Result<i32> {
    anyhow::bail!("check is not available in this build")
}

pub fn eval(_args: EvalArgs) -> anyhow::Result<i32> {
    anyhow::bail!("eval is not available in this build")
}
