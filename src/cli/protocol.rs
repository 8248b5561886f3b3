//! `check-protocol` and `gen`.

use super::Format;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CheckProtocolArgs {
    /// Protocol files in the text format.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Per-query solver timeout in milliseconds (0: none).
    #[arg(long, default_value_t = 10_000)]
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
    Protocol,
    Aligned,
    Split,
    Traces,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// accesses, barriers, conditionals, unsync-loops or sync-loops.
    pub family: String,
    /// How many times the pattern repeats (or nests).
    pub size: usize,
}

pub fn check_protocol(_args: CheckProtocolArgs) -> anyhow::Result<i32> {
    anyhow::bail!("check-protocol is not available in this build")
}

pub fn gen(_args: GenArgs) -> anyhow::Result<i32> {
    anyhow::bail!("gen is not available in this build")
}
