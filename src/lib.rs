//! drfscan: proves CUDA kernels free of data races, or shows a concrete race,
//! with the memory access protocol analysis of Faial. See ARCHITECTURE.md.
//!
//! Modules in pipeline order: the front-end (`cuda`, `imp`) produces
//! protocols (`protocol`), which `analysis` cuts into traces that `smt`
//! solves; `check` turns outcomes into verdicts with replayed witnesses;
//! `engine` and `store` run and record whole scans; `report` renders.

pub mod analysis;
pub mod check;
pub mod cuda;
pub mod engine;
pub mod imp;
pub mod protocol;
pub mod report;
pub mod smt;
pub mod store;
