//! drfscan: proves CUDA kernels free of data races, or shows a concrete race,
//! with the memory access protocol analysis of Faial. See ARCHITECTURE.md.
//!
//! Modules in pipeline order: the front-end (`cuda`, `imp`) produces
//! protocols (`protocol`), which `analysis` cuts into traces that `smt`
//! solves; `check` turns outcomes into verdicts with replayed witnesses;
//! `engine` and `store` run and record whole scans; `report` renders.

pub mod cuda;
pub mod imp;
pub mod protocol;
pub mod analysis;
pub mod smt;
pub mod check;
pub mod engine;
pub mod store;
pub mod report;
