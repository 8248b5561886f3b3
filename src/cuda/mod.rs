//! CUDA front-end (DESIGN §1–2): libclang parses a `.cu` file in device mode
//! with a built-in prelude of stub headers; every `__global__` kernel is
//! lowered (through `imp`) to one memory access protocol per array.

use crate::protocol::{Kernel, Loc};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What the user passes on the command line besides files.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FrontendOptions {
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`, as given.
    pub defines: Vec<String>,
    pub cuda_path: Option<PathBuf>,
    /// `--block-dim`, `--grid-dim`: fixed launch dimensions, `[x, y, z]`.
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
    /// `--param NAME=VALUE`.
    pub params: Vec<(String, i64)>,
}

/// The verdict a file's own header or label comment expects.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Expectation {
    /// `drf`, `racy`, `divergent`, `unsupported`, `error`, …
    pub verdict: String,
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
}

/// One `__global__` kernel (or template instantiation) found in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelUnit {
    pub name: String,
    pub loc: Loc,
    pub lowered: Result<Kernel, Unsupported>,
    /// How the protocol's variable names read in CUDA (`tid.x` →
    /// `threadIdx.x`), for witnesses.
    pub display_names: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unsupported {
    pub reason: String,
    pub loc: Loc,
}

/// Everything the front-end learnt from one translation unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub kernels: Vec<KernelUnit>,
    /// Clang's errors; when non-empty and no kernel was found the file's
    /// verdict is `error`.
    pub diagnostics: Vec<String>,
    /// Every file the unit included, with its content hash (blake3, hex), for
    /// cache keys.
    pub includes: Vec<(PathBuf, String)>,
    pub expectation: Option<Expectation>,
}
