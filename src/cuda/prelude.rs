//! Stub headers shipped inside the binary and served to clang as unsaved
//! files under a virtual include directory.

/// The virtual include directory.
pub const DIR: &str = "/__drfscan__/include";

const PRELUDE: &str = include_str!("prelude/drfscan_prelude.h");
const ANNOTATIONS: &str = include_str!("prelude/drfscan_annotations.h");
const TOOLKIT: &str = include_str!("prelude/drfscan_toolkit.h");
const CACHE_HINTS: &str = include_str!("prelude/drfscan_cache_hints.h");
const DEVICE_RUNTIME: &str = include_str!("prelude/drfscan_device_runtime.h");
const SURFACES: &str = include_str!("prelude/drfscan_surfaces.h");
const ASSERT: &str = include_str!("prelude/assert.h");
const COOPERATIVE_GROUPS: &str = include_str!("prelude/cooperative_groups.h");
const CURAND_KERNEL: &str = include_str!("prelude/curand_kernel.h");
const CUDA_FP16: &str = include_str!("prelude/cuda_fp16.h");
const CUDA_BF16: &str = include_str!("prelude/cuda_bf16.h");
const CUDA_FP8: &str = include_str!("prelude/cuda_fp8.h");
const MATH_CONSTANTS: &str = include_str!("prelude/math_constants.h");
const CUFFT: &str = include_str!("prelude/cufft.h");
const CUBLAS: &str = include_str!("prelude/cublas_v2.h");
const MMA: &str = include_str!("prelude/mma.h");
const CUCOMPLEX: &str = include_str!("prelude/cuComplex.h");
const CUDA_PIPELINE: &str = include_str!("prelude/cuda_pipeline.h");
const CUDA_ATOMIC: &str = include_str!("prelude/cuda_atomic.h");
const CUB: &str = include_str!("prelude/cub.cuh");
const CUDA_STD: &str = include_str!("prelude/cuda_std.h");
/// Headers of the host's C library, searched after the system's own: what
/// host code around kernels needs on a system without them.
const HOST_FALLBACKS: &[(&str, &str)] = &[
    ("stdio.h", include_str!("prelude/fallback/stdio.h")),
    ("stdlib.h", include_str!("prelude/fallback/stdlib.h")),
    ("cstdio", include_str!("prelude/fallback/cstdio")),
    ("cstdlib", include_str!("prelude/fallback/cstdlib")),
    ("math.h", include_str!("prelude/fallback/math.h")),
    ("cmath", include_str!("prelude/fallback/cmath")),
];
/// The old SDK's utility headers, which no toolkit ships any more: searched
/// after every other directory, with the built-in headers or a toolkit's.
const SDK_FALLBACKS: &[(&str, &str)] = &[
    ("cutil.h", include_str!("prelude/fallback/cutil.h")),
    ("cutil_inline.h", include_str!("prelude/fallback/cutil.h")),
    (
        "cutil_math.h",
        include_str!("prelude/fallback/vector_math.h"),
    ),
    (
        "helper_math.h",
        include_str!("prelude/fallback/vector_math.h"),
    ),
];
/// GPUVerify's `cuda.h` also brings cooperative groups and cuRAND's device
/// API, which its kernels use without including them.
const CUDA_H: &str = "/* drfscan built-in stub: the prelude, with cooperative groups and cuRAND as GPUVerify declares them. */\n#include <cooperative_groups.h>\n#include <curand_kernel.h>\n";
/// Headers whose declarations the prelude already makes.
const EMPTY: &str = "/* drfscan built-in stub: everything it declares is in the prelude. */\n";
const STUBS: &[&str] = &[
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "vector_types.h",
    "sm_20_atomic_functions.h",
    "cuda_device_runtime_api.h",
    "driver_types.h",
    "texture_types.h",
    "surface_types.h",
    "texture_fetch_functions.h",
    "cuda_texture_types.h",
    "sm_35_atomic_functions.h",
    "sm_60_atomic_functions.h",
    "cuda_profiler_api.h",
    "curand_mtgp32_host.h",
    "curand_mtgp32_kernel.h",
    "curand_mtgp32dc_p_11213.h",
    "curand_philox4x32_x.h",
    "cuda/std/cstdint",
];

/// The header included before the main file.
pub fn forced() -> String {
    format!("{DIR}/drfscan_prelude.h")
}

/// The header included before the main file when a real CUDA toolkit's
/// headers are used.
pub fn forced_with_toolkit() -> String {
    format!("{DIR}/drfscan_toolkit.h")
}

/// Where headers of CUDA's libraries live for a toolkit that lacks them
/// (NVIDIA's header packages bring no cuFFT or cuBLAS): searched after
/// every other directory, so that a toolkit's own win.
pub fn library_fallback_dir() -> String {
    format!("{DIR}/libraries")
}

/// Where the built-in headers put their fallbacks for the host's C library
/// (`stdio.h`, `math.h`, …): searched after the system's directories, so
/// that the system's win and the prelude's device functions overload them.
pub fn host_fallback_dir() -> String {
    format!("{DIR}/fallback")
}

/// The built-in headers of CUDA's libraries, by name.
const LIBRARIES: &[(&str, &str)] = &[
    ("cufft.h", CUFFT),
    ("cublas_v2.h", CUBLAS),
    ("cublas.h", CUBLAS),
    ("cub/cub.cuh", CUB),
    ("cub/block/block_reduce.cuh", CUB),
    ("cub/block/block_scan.cuh", CUB),
    ("cub/block/block_load.cuh", CUB),
    ("cub/block/block_store.cuh", CUB),
    ("cub/block/block_radix_sort.cuh", CUB),
    ("cub/block/block_exchange.cuh", CUB),
    ("cub/warp/warp_reduce.cuh", CUB),
    ("cub/warp/warp_scan.cuh", CUB),
    ("cub/device/device_reduce.cuh", CUB),
    ("cub/device/device_scan.cuh", CUB),
    ("cub/device/device_select.cuh", CUB),
    ("cub/device/device_radix_sort.cuh", CUB),
    ("cub/device/device_histogram.cuh", CUB),
    ("cub/device/device_segmented_reduce.cuh", CUB),
    ("cub/util_type.cuh", CUB),
    ("cub/util_allocator.cuh", CUB),
];

/// The files [`forced_with_toolkit`] needs, and the libraries' headers (and
/// the old SDK's `cutil.h`) in
/// [`library_fallback_dir`]; nothing else of the built-in headers, which
/// would hide the toolkit's.
pub fn toolkit_files() -> Vec<(String, Vec<u8>)> {
    let libraries = LIBRARIES.iter().map(|(name, text)| {
        (
            format!("{}/{name}", library_fallback_dir()),
            text.as_bytes().to_vec(),
        )
    });
    let mut out = vec![
        (forced_with_toolkit(), TOOLKIT.as_bytes().to_vec()),
        (
            format!("{DIR}/drfscan_annotations.h"),
            ANNOTATIONS.as_bytes().to_vec(),
        ),
        (
            format!("{DIR}/drfscan_cache_hints.h"),
            CACHE_HINTS.as_bytes().to_vec(),
        ),
        (
            format!("{DIR}/drfscan_device_runtime.h"),
            DEVICE_RUNTIME.as_bytes().to_vec(),
        ),
        (
            format!("{DIR}/drfscan_surfaces.h"),
            SURFACES.as_bytes().to_vec(),
        ),
    ];
    out.extend(libraries);
    out.extend(SDK_FALLBACKS.iter().map(|(name, text)| {
        (
            format!("{}/{name}", library_fallback_dir()),
            text.as_bytes().to_vec(),
        )
    }));
    out
}

pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![
        (forced(), PRELUDE.as_bytes().to_vec()),
        (
            format!("{DIR}/drfscan_annotations.h"),
            ANNOTATIONS.as_bytes().to_vec(),
        ),
        (
            format!("{DIR}/drfscan_cache_hints.h"),
            CACHE_HINTS.as_bytes().to_vec(),
        ),
        (
            format!("{DIR}/drfscan_device_runtime.h"),
            DEVICE_RUNTIME.as_bytes().to_vec(),
        ),
        (
            format!("{DIR}/drfscan_surfaces.h"),
            SURFACES.as_bytes().to_vec(),
        ),
        (format!("{DIR}/assert.h"), ASSERT.as_bytes().to_vec()),
        (format!("{DIR}/cassert"), ASSERT.as_bytes().to_vec()),
        (
            format!("{DIR}/cooperative_groups.h"),
            COOPERATIVE_GROUPS.as_bytes().to_vec(),
        ),
        // `cg::reduce` has its own header in the toolkit; the built-in
        // `cooperative_groups.h` declares it.
        (
            format!("{DIR}/cooperative_groups/reduce.h"),
            b"/* drfscan built-in stub: cg::reduce is in cooperative_groups.h. */\n#include <cooperative_groups.h>\n".to_vec(),
        ),
        (
            format!("{DIR}/cooperative_groups/memcpy_async.h"),
            b"/* drfscan built-in stub: cg::memcpy_async is in cooperative_groups.h. */\n#include <cooperative_groups.h>\n".to_vec(),
        ),
        (
            format!("{DIR}/cooperative_groups/scan.h"),
            b"/* drfscan built-in stub: cg's scans are in cooperative_groups.h. */\n#include <cooperative_groups.h>\n".to_vec(),
        ),
        (
            format!("{DIR}/curand_kernel.h"),
            CURAND_KERNEL.as_bytes().to_vec(),
        ),
        (format!("{DIR}/curand.h"), CURAND_KERNEL.as_bytes().to_vec()),
        (format!("{DIR}/cuda_fp16.h"), CUDA_FP16.as_bytes().to_vec()),
        (format!("{DIR}/cuda_bf16.h"), CUDA_BF16.as_bytes().to_vec()),
        (format!("{DIR}/cuda_fp8.h"), CUDA_FP8.as_bytes().to_vec()),
        (
            format!("{DIR}/math_constants.h"),
            MATH_CONSTANTS.as_bytes().to_vec(),
        ),
        (format!("{DIR}/cuda.h"), CUDA_H.as_bytes().to_vec()),
        (format!("{DIR}/mma.h"), MMA.as_bytes().to_vec()),
        (format!("{DIR}/cuComplex.h"), CUCOMPLEX.as_bytes().to_vec()),
    ];
    // One stub serves the asynchronous copy headers, libcu++'s and the
    // runtime's primitives.
    for name in [
        "cuda/pipeline",
        "cuda/barrier",
        "cuda/std/barrier",
        "cuda_pipeline.h",
        "cuda_pipeline_primitives.h",
    ] {
        out.push((format!("{DIR}/{name}"), CUDA_PIPELINE.as_bytes().to_vec()));
    }
    for name in ["cuda/atomic", "cuda/std/atomic"] {
        out.push((format!("{DIR}/{name}"), CUDA_ATOMIC.as_bytes().to_vec()));
    }
    for name in [
        "cuda/std/functional",
        "cuda/std/limits",
        "cuda/std/type_traits",
        "cuda/std/utility",
        "cuda/std/array",
        "cuda/std/tuple",
        "cuda/std/cstddef",
        "cuda/functional",
        "cuda/cmath",
    ] {
        out.push((format!("{DIR}/{name}"), CUDA_STD.as_bytes().to_vec()));
    }
    out.extend(
        HOST_FALLBACKS
            .iter()
            .chain(SDK_FALLBACKS)
            .map(|(name, text)| {
                (
                    format!("{}/{name}", host_fallback_dir()),
                    text.as_bytes().to_vec(),
                )
            }),
    );
    out.extend(
        LIBRARIES
            .iter()
            .map(|(name, text)| (format!("{DIR}/{name}"), text.as_bytes().to_vec())),
    );
    out.extend(
        STUBS
            .iter()
            .map(|s| (format!("{DIR}/{s}"), EMPTY.as_bytes().to_vec())),
    );
    out
}
