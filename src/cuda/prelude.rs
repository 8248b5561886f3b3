//! Stub headers shipped inside the binary and served to clang as unsaved
//! files under a virtual include directory.

/// The virtual include directory.
pub const DIR: &str = "/__drfscan__/include";

const PRELUDE: &str = include_str!("prelude/drfscan_prelude.h");
const ASSERT: &str = include_str!("prelude/assert.h");
const COOPERATIVE_GROUPS: &str = include_str!("prelude/cooperative_groups.h");
/// Headers whose declarations the prelude already makes.
const EMPTY: &str = "/* drfscan built-in stub: everything it declares is in the prelude. */\n";
const STUBS: &[&str] = &[
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "vector_types.h",
    "sm_20_atomic_functions.h",
    "cuda_device_runtime_api.h",
    "stdio.h",
    "stdlib.h",
    "math.h",
    "cstdio",
    "cstdlib",
    "cmath",
];

/// The header included before the main file.
pub fn forced() -> String {
    format!("{DIR}/drfscan_prelude.h")
}

pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![
        (forced(), PRELUDE.as_bytes().to_vec()),
        (format!("{DIR}/assert.h"), ASSERT.as_bytes().to_vec()),
        (format!("{DIR}/cassert"), ASSERT.as_bytes().to_vec()),
        (format!("{DIR}/cooperative_groups.h"), COOPERATIVE_GROUPS.as_bytes().to_vec()),
    ];
    out.extend(STUBS.iter().map(|s| (format!("{DIR}/{s}"), EMPTY.as_bytes().to_vec())));
    out
}
