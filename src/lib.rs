//! drfscan: proves CUDA kernels free of data races, or shows a concrete race,
//! with the memory access protocol analysis of Faial. See ARCHITECTURE.md.
//!
//! The pipeline: the front-end (`cuda`, `imp`) produces protocols
//! (`protocol`), which `analysis` cuts into traces that `smt` solves;
//! `check` turns outcomes into verdicts with replayed witnesses; `engine`
//! and `store` run and record whole scans; `report` renders. `options`
//! holds what the stages below `check` share.

pub mod analysis;
pub mod check;
pub mod cuda;
pub mod engine;
pub mod imp;
pub mod options;
pub mod protocol;
pub mod report;
pub mod smt;
pub mod store;
