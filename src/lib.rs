//! drfscan: proves CUDA kernels free of data races, or shows a concrete race,
//! with the memory access protocol analysis of Faial. See ARCHITECTURE.md.

pub mod analysis;
pub mod check;
pub mod protocol;
pub mod smt;
pub mod cuda;
pub mod engine;
pub mod imp;
pub mod store;
pub mod report;
