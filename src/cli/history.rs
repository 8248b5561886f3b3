//! `scan` and the commands that read the run history.

use super::{AnalysisArgs, Format};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

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
    #[command(flatten)]
    pub analysis: AnalysisArgs,
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

pub fn scan(_a: ScanArgs) -> anyhow::Result<i32> {
    anyhow::bail!("scan is not available in this build")
}
pub fn runs(_a: RunsArgs) -> anyhow::Result<i32> {
    anyhow::bail!("runs is not available in this build")
}
pub fn report(_a: ReportArgs) -> anyhow::Result<i32> {
    anyhow::bail!("report is not available in this build")
}
pub fn diff(_a: DiffArgs) -> anyhow::Result<i32> {
    anyhow::bail!("diff is not available in this build")
}
pub fn query(_a: QueryArgs) -> anyhow::Result<i32> {
    anyhow::bail!("query is not available in this build")
}
pub fn sql(_a: SqlArgs) -> anyhow::Result<i32> {
    anyhow::bail!("sql is not available in this build")
}
