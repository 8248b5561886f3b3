//! CUDA front-end (DESIGN §1–2): libclang parses a `.cu` file in device mode
//! with a built-in prelude of stub headers; every `__global__` kernel is
//! lowered (through `imp`) to one memory access protocol per array.

mod clang;
pub mod commands;
pub mod label;
pub mod launch;
mod lower;
pub mod makefile;
mod precompiled;
pub mod prelude;
pub mod toolkit;

use crate::protocol::{builtin, Cond, Expr, Kernel, Loc, Rel};
use clang::{kind as K, Node, Tu};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What the user passes on the command line besides files.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FrontendOptions {
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`, as given.
    pub defines: Vec<String>,
    pub cuda_path: Option<PathBuf>,
    /// Which CUDA headers the parse uses, as the run's options show it:
    /// `built-in`, or the toolkit's version, root and how it was found.
    #[serde(default)]
    pub headers: String,
    /// `--block-dim`, `--grid-dim`: fixed launch dimensions, `[x, y, z]`.
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
    /// `--param NAME=VALUE`.
    pub params: Vec<(String, i64)>,
    /// `--warp-sync N`: see [`Kernel::warp_sync`].
    #[serde(default)]
    pub warp_sync: Option<u32>,
    /// Each file's flags from a build's `compile_commands.json`
    /// (`--compile-commands`, or found in the scanned directory).
    #[serde(default)]
    pub compile_commands: commands::CompileCommands,
    /// `--no-makefiles`: the Makefiles of the scanned tree are not read.
    #[serde(default)]
    pub no_makefiles: bool,
    /// The flags each scanned file's Makefile gives it, for files no
    /// compilation database lists. Part of the unit-cache key through
    /// [`FrontendOptions::build_flags`].
    #[serde(skip)]
    pub makefiles: makefile::Makefiles,
    /// Headers of the scanned tree: an `#include` that no include directory
    /// resolves is looked up among them (see [`tree_include_dirs`]). Part of
    /// the unit-cache key through [`TreeHeaders::digest`].
    #[serde(skip)]
    pub tree_headers: TreeHeaders,
}

impl FrontendOptions {
    /// The flags the build gives `file`: its compilation database's entry,
    /// else its Makefile's.
    pub fn build_flags(&self, file: &Path) -> Option<&commands::Flags> {
        self.compile_commands
            .flags(file)
            .or_else(|| self.makefiles.flags(file))
    }

    /// Reads the Makefiles of `files` (found under `roots`) that no
    /// compilation database lists, unless `--no-makefiles`.
    pub fn with_makefiles(self, files: &[PathBuf], roots: &[PathBuf]) -> FrontendOptions {
        if self.no_makefiles {
            return self;
        }
        let unlisted: Vec<PathBuf> = files
            .iter()
            .filter(|f| self.compile_commands.flags(f).is_none())
            .cloned()
            .collect();
        FrontendOptions {
            makefiles: makefile::Makefiles::find(&unlisted, roots),
            ..self
        }
    }
}

/// The headers of a scanned tree, with a digest of their paths taken once
/// (every file's cache key includes it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TreeHeaders {
    paths: std::sync::Arc<[PathBuf]>,
    digest: String,
}

impl TreeHeaders {
    pub fn new(paths: Vec<PathBuf>) -> TreeHeaders {
        let mut h = blake3::Hasher::new();
        for p in &paths {
            h.update(p.as_os_str().as_encoded_bytes());
            h.update(b"\0");
        }
        TreeHeaders {
            paths: paths.into(),
            digest: h.finalize().to_hex().to_string(),
        }
    }

    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    pub fn digest(&self) -> &str {
        &self.digest
    }
}

/// Whether `text` may define a kernel: some `__global__` is followed, past
/// its balanced parentheses, by a body `{` before any `;`. A file whose
/// kernels are only declared (prototypes of kernels defined elsewhere) has
/// none. Read from the text, because the question is asked when clang
/// could not parse the file.
pub fn defines_kernel(text: &str) -> bool {
    text.match_indices("__global__").any(|(at, word)| {
        let mut depth = 0i32;
        for c in text[at + word.len()..].chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ';' if depth <= 0 => return false,
                '{' if depth <= 0 => return true,
                _ => {}
            }
        }
        false
    })
}

/// Extensions of files an `#include` names in CUDA projects.
pub fn is_header_like(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e,
            "h" | "hh" | "hpp" | "hxx" | "cuh" | "inc" | "inl" | "cu" | "cpp" | "c"
        )
    })
}

/// The names of `#include`s clang could not find, from its diagnostics.
fn missing_includes(diagnostics: &[String]) -> Vec<String> {
    diagnostics
        .iter()
        .filter_map(|d| {
            let end = d.find("' file not found")?;
            let start = d[..end].rfind('\'')? + 1;
            Some(d[start..end].to_string())
        })
        .collect()
}

/// Makes each function of `sites` (file, byte range of its definition)
/// `__host__ __device__` in the text clang reads, with `_Pragma`s before and
/// after it: lines keep their numbers. `false` when it changed no file.
fn as_host_device(sites: &[(String, u32, u32)], unsaved: &mut Vec<(String, Vec<u8>)>) -> bool {
    const BEGIN: &[u8] = b"_Pragma(\"clang force_cuda_host_device begin\")";
    const END: &[u8] = b"_Pragma(\"clang force_cuda_host_device end\")";
    let mut files: Vec<&str> = sites.iter().map(|(f, _, _)| f.as_str()).collect();
    files.sort();
    files.dedup();
    let mut changed = false;
    for file in files {
        let at = unsaved.iter().position(|(n, _)| n == file);
        let text = match at {
            Some(i) => unsaved[i].1.clone(),
            None => match std::fs::read(file) {
                Ok(t) => t,
                Err(_) => continue,
            },
        };
        let mut cuts: Vec<(usize, &[u8])> = Vec::new();
        for (_, start, end) in sites.iter().filter(|(f, _, _)| f == file) {
            let (start, end) = (*start as usize, *end as usize);
            if start >= end || end > text.len() {
                continue;
            }
            cuts.push((start, BEGIN));
            cuts.push((end, END));
        }
        if cuts.is_empty() {
            continue;
        }
        // From the end, so that earlier offsets stay right; an end before
        // a begin at the same offset.
        cuts.sort_by(|a, b| b.0.cmp(&a.0).then((a.1 == END).cmp(&(b.1 == END))));
        let mut out = text;
        for (offset, pragma) in cuts {
            out.splice(offset..offset, pragma.iter().copied());
        }
        match at {
            Some(i) => unsaved[i].1 = out,
            None => unsaved.push((file.to_string(), out)),
        }
        changed = true;
    }
    changed
}

/// How many kernels of a parse have clang's errors in them.
fn not_compiled(kernels: &[KernelUnit]) -> usize {
    kernels.iter().filter(|k| !k.errors.is_empty()).count()
}

/// For each missing include, the directory of the scanned tree that
/// provides it: among the headers whose path ends with the included name,
/// the one nearest to the including file (longest common ancestor), then
/// the shortest path. Projects build with `-I` flags drfscan does not see;
/// this recovers the common case of a header elsewhere in the same tree.
pub fn tree_include_dirs(main: &Path, missing: &[String], headers: &[PathBuf]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for name in missing {
        let wanted = Path::new(name);
        let best = headers
            .iter()
            .filter(|h| h.ends_with(wanted))
            .min_by_key(|h| {
                let shared = h
                    .components()
                    .zip(main.components())
                    .take_while(|(a, b)| a == b)
                    .count();
                (std::cmp::Reverse(shared), h.components().count())
            });
        let dir = best.map(|h| {
            let mut d = h.to_path_buf();
            for _ in wanted.components() {
                d.pop();
            }
            d
        });
        if let Some(d) = dir {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
    }
    dirs
}

/// The verdict a file's own header or label comment expects.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Expectation {
    /// `drf`, `racy`, `divergent`, `unsupported`, `error`, …
    pub verdict: String,
    pub block_dim: Option<[u64; 3]>,
    pub grid_dim: Option<[u64; 3]>,
    /// `// known false alarm: REASON` under a `drf` label: a limitation of
    /// drfscan the file documents. `eval` then accepts races that are only
    /// *possible*, never confirmed ones.
    #[serde(default)]
    pub known_false_alarm: Option<String>,
    /// `-D NAME[=VALUE]` of a GPUVerify command line: the file is parsed
    /// with them, before the user's own.
    #[serde(default)]
    pub defines: Vec<String>,
    /// `--warp-sync=N` of a GPUVerify command line.
    #[serde(default)]
    pub warp_sync: Option<u32>,
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
    /// Clang's errors inside the kernel: its verdict is `error`.
    #[serde(default)]
    pub errors: Vec<String>,
    /// The launches host code of the unit makes of the kernel, when they
    /// are all known (launch inference); empty otherwise.
    #[serde(default)]
    pub launches: Vec<launch::LaunchSite>,
    /// The protocol's name of each integer parameter, by argument
    /// position, for what launches in other files pass to it.
    #[serde(default)]
    pub args: Vec<Option<String>>,
    /// No launch dimension came from the command line, the file's header or
    /// host code of the unit: launches that other files of a scan make of
    /// the kernel may still say it (`launch::assumptions`).
    #[serde(default)]
    pub launch_free: bool,
    /// The file that defines the kernel when it is not the parsed file
    /// itself but a file of the project it includes (a header, or a `.cu`
    /// file included by another); `loc` is then in that file.
    #[serde(default)]
    pub file: Option<PathBuf>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unsupported {
    pub reason: String,
    pub loc: Loc,
    /// The file of the construct, when the front-end knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// Everything the front-end learnt from one translation unit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub kernels: Vec<KernelUnit>,
    /// Clang's errors; when non-empty and no kernel was found the file's
    /// verdict is `error`.
    pub diagnostics: Vec<String>,
    /// Every file the unit included, with its content hash (blake3, hex), for
    /// cache keys.
    pub includes: Vec<(PathBuf, String)>,
    pub expectation: Option<Expectation>,
    /// Microseconds spent inside clang (the rest of parsing is lowering).
    #[serde(default)]
    pub clang_us: u64,
    /// What the user should know about how the unit was parsed (include
    /// directories found in the tree); scans record them as warnings.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Launches of kernels this unit declares and another file defines.
    #[serde(default)]
    pub foreign_launches: Vec<launch::ForeignLaunches>,
}

/// Parses a file from disk; an unreadable file is a unit with one
/// diagnostic.
pub fn parse_file(path: &Path, opts: &FrontendOptions) -> Unit {
    match std::fs::read(path) {
        Ok(src) => parse_source(path, &src, opts),
        Err(e) => Unit {
            kernels: Vec::new(),
            diagnostics: vec![format!("{}: cannot read: {e}", path.display())],
            includes: Vec::new(),
            ..Unit::default()
        },
    }
}

/// Parses CUDA source text as if it were the file `path`, and lowers every
/// `__global__` kernel defined in it. Never panics: clang's errors become
/// diagnostics and a kernel that cannot be lowered gets `Unsupported`.
pub fn parse_source(path: &Path, src: &[u8], opts: &FrontendOptions) -> Unit {
    let text = String::from_utf8_lossy(src);
    let (expectation, label_params) = label::read(&text);
    let mut unit = Unit {
        kernels: Vec::new(),
        diagnostics: Vec::new(),
        includes: Vec::new(),
        expectation,
        clang_us: 0,
        notes: Vec::new(),
        foreign_launches: Vec::new(),
    };
    if src.contains(&0) {
        unit.diagnostics
            .push(format!("{}: not a text file", path.display()));
        return unit;
    }
    let launch = Launch {
        block_dim: opts
            .block_dim
            .or(unit.expectation.as_ref().and_then(|e| e.block_dim)),
        grid_dim: opts
            .grid_dim
            .or(unit.expectation.as_ref().and_then(|e| e.grid_dim)),
        params: label_params
            .into_iter()
            .chain(opts.params.iter().cloned())
            .collect(),
        block: [None; 3],
        grid: [None; 3],
    };
    let main = absolute(path);
    let main_str = main.to_string_lossy().into_owned();
    let Invocation {
        args,
        mut search,
        forced,
        mut unsaved,
    } = invocation(&main, src, unit.expectation.as_ref(), opts);
    let precompiled = precompiled::prelude(&forced, &args, &unsaved);
    let mut found_dirs: Vec<PathBuf> = Vec::new();
    // The first parse, kept while the unit is parsed again with the
    // host-only functions device code calls made `__host__ __device__`:
    // the one with fewer kernels clang refuses wins.
    let mut strict: Option<Parsed> = None;
    let mut host_device_rounds = 0;
    loop {
        // The prelude first (a build's own forced includes come after it);
        // the built-in headers' directory, among the language flags, is
        // searched before the unit's own.
        let pch = precompiled.as_ref().filter(|p| p.fits(&search));
        let mut all: Vec<String> = match pch {
            Some(p) => vec!["-include-pch".into(), p.path.clone()],
            None => vec!["-include".into(), forced.clone()],
        };
        all.extend(args.iter().cloned());
        all.extend(search.iter().cloned());
        let parsed = match parse_on_big_stack(&main_str, &all, &unsaved, &launch) {
            Ok(parsed) => parsed,
            Err(e) => {
                unit.diagnostics.push(format!("{}: {e}", path.display()));
                break;
            }
        };
        unit.clang_us += parsed.3;
        if host_device_rounds == 0 {
            // Includes clang could not find: retry once more with the
            // tree's directories that have them, as long as that finds new
            // ones.
            let missing = missing_includes(&parsed.1);
            let more: Vec<PathBuf> = tree_include_dirs(&main, &missing, opts.tree_headers.paths())
                .into_iter()
                .filter(|d| !found_dirs.contains(d) && !opts.include_dirs.contains(d))
                .collect();
            if !more.is_empty() && found_dirs.len() < 16 {
                for d in more {
                    search.push(format!("-I{}", d.display()));
                    found_dirs.push(d);
                }
                continue;
            }
        }
        // Code written for compilers that let device code call unmarked
        // inline functions (`operator*` on `float2`), which clang refuses
        // as host-only: those functions are made `__host__ __device__`, and
        // then the host-only functions they call in turn.
        if !parsed.5.is_empty() && host_device_rounds < 3 && as_host_device(&parsed.5, &mut unsaved)
        {
            host_device_rounds += 1;
            strict.get_or_insert(parsed);
            continue;
        }
        let (kernels, diagnostics, mut includes, _, foreign, _) = match strict.take() {
            Some(first) if not_compiled(&first.0) <= not_compiled(&parsed.0) => first,
            Some(_) => {
                unit.notes.push(
                    "device code calls functions declared for the host only: they were analysed as `__host__ __device__`"
                        .into(),
                );
                parsed
            }
            None => parsed,
        };
        unit.kernels = kernels;
        unit.foreign_launches = foreign;
        let warp_sync = opts
            .warp_sync
            .or(unit.expectation.as_ref().and_then(|e| e.warp_sync));
        for k in &mut unit.kernels {
            if let Ok(kernel) = &mut k.lowered {
                kernel.warp_sync = warp_sync;
                for v in &mut kernel.variants {
                    v.kernel.warp_sync = warp_sync;
                }
            }
        }
        unit.diagnostics.extend(diagnostics);
        // What the precompiled prelude read, the unit read too.
        if let Some(p) = pch {
            for input in &p.inputs {
                if !includes.iter().any(|(f, _)| *f == input.0) {
                    includes.push(input.clone());
                }
            }
        }
        unit.includes = includes;
        break;
    }
    if !found_dirs.is_empty() {
        let dirs: Vec<String> = found_dirs.iter().map(|d| d.display().to_string()).collect();
        unit.notes.push(format!(
            "includes not found on the include path were taken from the scanned tree: -I {} (pass -I to choose)",
            dirs.join(" -I ")
        ));
    }
    unit
}

/// How clang is asked to parse one file.
struct Invocation {
    /// Language flags: everything but the include directories and the
    /// forced prelude.
    args: Vec<String>,
    /// Include directories (`-I…`, `-isystem…`), in search order.
    search: Vec<String>,
    /// The forced prelude.
    forced: String,
    /// Files served from memory, the main file first.
    unsaved: Vec<(String, Vec<u8>)>,
}

fn invocation(
    main: &Path,
    src: &[u8],
    expectation: Option<&Expectation>,
    opts: &FrontendOptions,
) -> Invocation {
    let mut args: Vec<String> = [
        "-x",
        "cuda",
        "--cuda-device-only",
        "-nocudalib",
        // The device code GPUs run today: clang's default (sm_52) hides the
        // toolkit's warp matrix functions and half and bfloat16 arithmetic,
        // and picks the paths code keeps for GPUs before independent
        // thread scheduling (`#if __CUDA_ARCH__ >= 700`).
        "--cuda-gpu-arch=sm_80",
        "-std=c++17",
        "-fsyntax-only",
        "-w",
        // `"%d"FMT` (a macro right after a string) is how pre-C++11 code
        // builds format strings; nvcc accepts it.
        "-Wno-reserved-user-defined-literal",
        // `register` variables, an error in C++17 that nvcc accepts.
        "-Wno-register",
        // Narrowing in braces (`uchar4 v = {a >> 8, …}`), an error in clang
        // and a warning in nvcc.
        "-Wno-c++11-narrowing",
        // Host code that does not compile (a library's header missing)
        // must not stop clang before the launches after it: past its
        // error limit, clang builds no more of the unit.
        "-ferror-limit=0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut unsaved = vec![(main.to_string_lossy().into_owned(), as_clang_reads(src))];
    // A kernel file the main file includes from its own directory
    // (`#include "kernel.cu"`, or `<kernel.cu>` found there through the
    // main file's directory) is served rewritten too, when it needs it.
    if let Some(dir) = main.parent() {
        for name in quoted_includes(src) {
            let path = dir.join(&name);
            let Ok(text) = std::fs::read(&path) else {
                continue;
            };
            let rewritten = as_clang_reads(&text);
            if rewritten != text {
                unsaved.push((path.to_string_lossy().into_owned(), rewritten));
            }
        }
    }
    let forced = match &opts.cuda_path {
        Some(dir) => {
            args.push(format!("--cuda-path={}", dir.display()));
            args.push(format!("-idirafter{}", prelude::library_fallback_dir()));
            unsaved.extend(prelude::toolkit_files());
            prelude::forced_with_toolkit()
        }
        None => {
            args.push("-nocudainc".into());
            args.push(format!("-I{}", prelude::DIR));
            args.push(format!("-idirafter{}", prelude::host_fallback_dir()));
            unsaved.extend(prelude::files());
            prelude::forced()
        }
    };
    // The build's flags: its include directories after the user's, its
    // macros before the user's, which win.
    let built = opts.build_flags(&main);
    if let Some(flags) = built {
        args.extend(flags.others.iter().cloned());
    }
    let own = expectation.iter().flat_map(|e| e.defines.iter());
    for d in own.chain(&opts.defines) {
        args.push(format!("-D{d}"));
    }
    let mut search: Vec<String> = opts
        .include_dirs
        .iter()
        .map(|d| format!("-I{}", d.display()))
        .collect();
    if let Some(dir) = main.parent() {
        search.push(format!("-I{}", dir.display()));
    }
    if let Some(flags) = built {
        search.extend(flags.includes.iter().cloned());
    }
    Invocation {
        args,
        search,
        forced,
        unsaved,
    }
}

/// Source as clang reads what nvcc accepts, every position kept: see
/// `separate_linkage`, `join_spaced_launches` and `without_redundant_device`.
fn as_clang_reads(src: &[u8]) -> Vec<u8> {
    without_redundant_device(&join_spaced_launches(&separate_linkage(src)))
}

/// The files `#include "…"` (or `<…>`) names in `src`, as written.
fn quoted_includes(src: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(src)
        .lines()
        .filter_map(|l| {
            let l = l.trim_start().strip_prefix('#')?.trim_start();
            let rest = l.strip_prefix("include")?.trim_start();
            let (name, _) = match rest.strip_prefix('"') {
                Some(quoted) => quoted.split_once('"')?,
                None => rest.strip_prefix('<')?.split_once('>')?,
            };
            Some(name.to_string())
        })
        .collect()
}

/// `__global__ __device__ void k(…)`, which old nvcc took for a kernel and
/// clang refuses (the two attributes conflict), and `__device__ __shared__
/// float s[…];` inside a kernel, which old nvcc took for a shared array and
/// clang refuses on a local: the `__device__` is blanked, so that every
/// position stays (`__shared__` alone means the same at file scope).
fn without_redundant_device(src: &[u8]) -> Vec<u8> {
    const DEVICE: &[u8] = b"__device__";
    const PARTNERS: [&[u8]; 2] = [b"__global__", b"__shared__"];
    let mut out = src.to_vec();
    let is_space = |b: &u8| matches!(b, b' ' | b'\t');
    let word_at = |out: &[u8], at: usize, w: &[u8]| {
        out[at..].starts_with(w)
            && out
                .get(at + w.len())
                .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
    };
    let mut i = 0;
    while i + DEVICE.len() <= out.len() {
        let word = &out[i..i + DEVICE.len()];
        let first_is_device = word == DEVICE;
        if !first_is_device && !PARTNERS.contains(&word) {
            i += 1;
            continue;
        }
        let mut j = i + DEVICE.len();
        while j < out.len() && is_space(&out[j]) {
            j += 1;
        }
        let follows = if first_is_device {
            PARTNERS.iter().any(|p| word_at(&out, j, p))
        } else {
            word_at(&out, j, DEVICE)
        };
        if follows && j > i + DEVICE.len() {
            // Blank whichever of the two is `__device__`.
            let at = if first_is_device { i } else { j };
            out[at..at + DEVICE.len()].fill(b' ');
            i = j + DEVICE.len();
        } else {
            i += DEVICE.len();
        }
    }
    out
}

/// `extern "C"__global__` (no space) is one token in C++11, a string with a
/// user-defined suffix, which nvcc accepts and clang refuses. Written as
/// `extern"C" __global__`, of the same length so that every position stays.
fn separate_linkage(src: &[u8]) -> Vec<u8> {
    const GLUED: &[u8] = b"extern \"C\"__";
    let mut out = src.to_vec();
    let mut i = 0;
    while let Some(at) = out[i..].windows(GLUED.len()).position(|w| w == GLUED) {
        let at = i + at;
        out[at..at + GLUED.len()].copy_from_slice(b"extern\"C\" __");
        i = at + GLUED.len();
    }
    out
}

/// The note for a kernel that launches kernels itself.
const DEVICE_LAUNCH: &str = "the kernel launches kernels from device code (dynamic parallelism), which clang leaves out: what the launched kernels do is checked as their own kernels, not against this one";

/// The kernel a launch in device code names, from clang's error for it
/// (clang does not support dynamic parallelism, and drops the launch).
fn device_launch(text: &str) -> Option<&str> {
    let rest = text
        .split("error: reference to __global__ function '")
        .nth(1)?;
    let (name, tail) = rest.split_once('\'')?;
    tail.starts_with(" in __").then_some(name)
}

/// Whether clang's error is a plain global variable named in device code
/// (`int *buf;` read by a kernel): GPUVerify's front end, and code written
/// for it, takes such a variable for a `__device__` one, and so does the
/// lowering; the expression is in clang's tree all the same.
fn host_variable_in_device_code(text: &str) -> bool {
    text.split("error: reference to __host__ variable '")
        .nth(1)
        .and_then(|rest| rest.split_once('\''))
        .is_some_and(|(_, tail)| {
            tail.starts_with(" in __global__") || tail.starts_with(" in __device__")
        })
}

/// Whether clang's error is `extern __shared__` with a size
/// (`extern __shared__ float s[32][32];`), which nvcc takes for a shared
/// array of that size and clang refuses: the declaration is in clang's
/// tree all the same, with its type.
fn sized_extern_shared(text: &str) -> bool {
    text.split("error: __shared__ variable '")
        .nth(1)
        .and_then(|rest| rest.split_once('\''))
        .is_some_and(|(_, tail)| tail.starts_with(" cannot be 'extern'"))
}

/// `k << <grid, block >> > (…)`, the launch as some editors format it,
/// which nvcc reads as `<<<`/`>>>` and clang refuses. Joined in place (the
/// space moves behind the bracket), so that every position stays, and
/// only in pairs within one statement, so that a nested template's `>> >`
/// elsewhere is left alone.
fn join_spaced_launches(src: &[u8]) -> Vec<u8> {
    const OPEN: &[u8] = b"<< <";
    const CLOSE: &[u8] = b">> >";
    let mut out = src.to_vec();
    let mut i = 0;
    while let Some(at) = out[i..].windows(OPEN.len()).position(|w| w == OPEN) {
        let open = i + at;
        i = open + OPEN.len();
        let end = out[i..]
            .iter()
            .position(|&b| b == b';')
            .map_or(out.len(), |e| i + e);
        let Some(close) = out[i..end].windows(CLOSE.len()).position(|w| w == CLOSE) else {
            continue;
        };
        let close = i + close;
        out[open..open + OPEN.len()].copy_from_slice(b"<<< ");
        out[close..close + CLOSE.len()].copy_from_slice(b">>> ");
        i = close + CLOSE.len();
    }
    out
}

/// Parses on a thread of its own: the AST walks recurse as deep as the
/// code nests and need room.
fn parse_on_big_stack(
    main: &str,
    args: &[String],
    unsaved: &[(String, Vec<u8>)],
    launch: &Launch,
) -> Result<Parsed, String> {
    let parsed = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("drfscan-cuda".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || parse_tu(main, args, unsaved, launch))
            .map(|h| h.join())
    });
    match parsed {
        Ok(Ok(r)) => r,
        Ok(Err(_)) => Err("internal error while parsing".into()),
        Err(e) => Err(format!("cannot start the parser thread: {e}")),
    }
}

/// Clang errors kept per kernel.
const MAX_ERRORS: usize = 5;

/// Stack of the thread that parses and lowers one file.
const STACK_SIZE: usize = 512 << 20;

#[derive(Clone)]
struct Launch {
    block_dim: Option<[u64; 3]>,
    grid_dim: Option<[u64; 3]>,
    params: Vec<(String, i64)>,
    /// Per kernel: the sizes known of each axis.
    block: launch::Dims,
    grid: launch::Dims,
}

fn dims_of(d: Option<[u64; 3]>) -> launch::Dims {
    d.map_or([None; 3], |d| d.map(Some))
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    }
}

type Parsed = (
    Vec<KernelUnit>,
    Vec<String>,
    Vec<(PathBuf, String)>,
    u64,
    Vec<launch::ForeignLaunches>,
    Vec<(String, u32, u32)>,
);

/// The text of the file `path`: its unsaved contents when the parse has
/// them, else the file on disk.
fn source_text(path: &str, unsaved: &[(String, Vec<u8>)]) -> Option<String> {
    match unsaved.iter().find(|(n, _)| n == path) {
        Some((_, b)) => String::from_utf8(b.clone()).ok(),
        None => std::fs::read_to_string(path).ok(),
    }
}

/// The hash of a file a unit read: from disk, else (the built-in
/// headers) from memory.
fn content_hash(f: &Path, unsaved: &[(String, Vec<u8>)]) -> Option<String> {
    // A file on disk is hashed as it is there, though clang may have read
    // it rewritten: the unit cache compares with the disk's contents.
    let bytes = match std::fs::read(f) {
        Ok(b) => std::borrow::Cow::Owned(b),
        Err(_) => {
            let name = f.to_string_lossy();
            std::borrow::Cow::Borrowed(&unsaved.iter().find(|(n, _)| *n == name)?.1)
        }
    };
    Some(blake3::hash(&bytes).to_hex().to_string())
}

fn parse_tu(
    main: &str,
    args: &[String],
    unsaved: &[(String, Vec<u8>)],
    launch: &Launch,
) -> Result<Parsed, String> {
    let started = std::time::Instant::now();
    let tu = Tu::parse(main, args, unsaved)?;
    let clang_us = started.elapsed().as_micros() as u64;
    let errors: Vec<clang::Diag> = tu
        .diagnostics()
        .into_iter()
        .filter(|d| {
            d.severity >= clang::DIAG_ERROR
                && !host_variable_in_device_code(&d.text)
                && !sized_extern_shared(&d.text)
        })
        .collect();
    let diagnostics: Vec<String> = errors.iter().map(|d| d.text.clone()).collect();
    let mut includes = Vec::new();
    for f in tu.inclusions() {
        let s = f.to_string_lossy().into_owned();
        if s == main || includes.iter().any(|(p, _): &(PathBuf, String)| *p == f) {
            continue;
        }
        if let Some(h) = content_hash(&f, unsaved) {
            includes.push((f, h));
        }
    }
    let mut templates = Vec::new();
    collect_kernels(&tu.root(), &mut templates);
    // Template kernels: one unit per instantiation the file makes (by a
    // launch or an explicit instantiation), or the template itself.
    let mut instances = Instances::default();
    instances.collect(&tu.root(), main, false);
    if let Some((_, src)) = unsaved.iter().find(|(n, _)| n == main) {
        instances.explicit(&tu.root(), src, &templates);
    }
    instances.bound_hosted();
    let Instances {
        mut specs,
        dependent,
        types: arg_types,
        ..
    } = instances;
    // A launch in a host template names an instantiation only in part
    // (`k<128>` with a type argument deduced): one that an instantiation of
    // the unit, or a fuller id of another launch, already covers adds
    // nothing.
    let covered = |(t, a, _): &Instantiation| {
        let covers = |(u, b, _): &Instantiation, longer: bool| {
            u == t
                && (b.len() > a.len() || (!longer && b.len() == a.len()))
                && a.iter().zip(b).all(|(x, y)| x.is_err() || x == y)
        };
        specs.iter().any(|s| covers(s, false)) || dependent.iter().any(|d| covers(d, true))
    };
    let kept: Vec<Instantiation> = dependent.iter().filter(|d| !covered(d)).cloned().collect();
    specs.extend(kept);
    // Each kernel to lower: its definition, template arguments, and where it
    // is launched when it lives in another file.
    let mut found: Vec<(Node, TemplateArgs, Option<Loc>)> = Vec::new();
    for f in templates {
        let in_main = f.pos().file == main;
        let mine: Vec<&Instantiation> = specs.iter().filter(|(t, _, _)| *t == f.id()).collect();
        if f.kind() == K::FUNCTION_TEMPLATE && !mine.is_empty() {
            // Template kernels of included headers count when this file
            // launches them. Those of the project's headers are reported
            // at their definition, as its other kernels there are; those of
            // libraries' system headers at the launch.
            let elsewhere = !in_main && !project_file(&f);
            found.extend(
                mine.into_iter()
                    .map(|(_, a, at)| (f, a.clone(), elsewhere.then_some(*at))),
            );
        } else if in_main || (f.kind() == K::FUNCTION && project_file(&f)) {
            // Kernels of the project's own headers (and of `.cu` files
            // included by others) are analysed in the context that includes
            // them and reported at their definition.
            found.push((f, Vec::new(), None));
        }
    }
    let launches = launch::Launches::collect(&tu.root(), &project_file);
    // Launches in device code (dynamic parallelism), read from the source
    // text since clang drops them: their sites by kernel name, and the
    // names of kernels with one whose sizes cannot be read.
    let mut device_sites: std::collections::HashMap<String, Vec<launch::LaunchSite>> =
        std::collections::HashMap::new();
    let mut device_unread: Vec<String> = Vec::new();
    // Each file a kernel is defined in, with its macros, for its
    // `__launch_bounds__`; the text comes from `sources`.
    let mut file_sources: std::collections::HashMap<String, std::sync::Arc<lower::Source>> =
        std::collections::HashMap::new();
    let mut sources: std::collections::HashMap<String, Option<String>> =
        std::collections::HashMap::new();
    for d in &errors {
        let Some(name) = device_launch(&d.text) else {
            continue;
        };
        let (base, templated) = match name.split_once('<') {
            Some((base, _)) => (base, true),
            None => (name, false),
        };
        let src = sources
            .entry(d.file.clone())
            .or_insert_with(|| source_text(&d.file, unsaved));
        let site = src
            .as_deref()
            .filter(|_| !templated)
            .and_then(|src| launch::device_site(src, &d.file, d.line, d.column));
        match site {
            Some(site) if site.block != [None; 3] => {
                device_sites.entry(base.to_string()).or_default().push(site)
            }
            _ => device_unread.push(base.to_string()),
        }
    }
    let defined: Vec<launch::KernelKey> = found
        .iter()
        .map(|(f, targs, _)| (f.id(), targs.clone()))
        .collect();
    let foreign = launches.foreign(&defined);
    let kernels = found
        .into_iter()
        .map(|(f, targs, site)| {
            // Launch dimensions: the command line's or the file's header's,
            // else what every launch in host code agrees on.
            // A kernel device code launches (dynamic parallelism) runs
            // with the sizes read there too, or with unknown ones.
            let key = (f.id(), targs.clone());
            // Sizes read from device code count for kernels that are not
            // templates: the text names no instantiation.
            let device = device_sites.get(&f.spelling());
            let from_device = device_unread.contains(&f.spelling())
                || (device.is_some() && !targs.is_empty());
            // A kernel whose address escapes has no sites from host code
            // (`Launches::of`), and none from device code either.
            let sites = if from_device || launches.escapes(&key) {
                Vec::new()
            } else {
                let mut sites = launches.of(&key).unwrap_or_default();
                sites.extend(device.into_iter().flatten().cloned());
                sites
            };
            let mut launch = Launch {
                block: dims_of(launch.block_dim),
                grid: dims_of(launch.grid_dim),
                ..launch.clone()
            };
            let free = (launch.block == [None; 3], launch.grid == [None; 3]);
            let launch_free = free == (true, true) && sites.is_empty();
            if !sites.is_empty() {
                let (block, grid) = launch::common(&sites);
                if free.0 {
                    launch.block = block;
                }
                if free.1 {
                    launch.grid = grid;
                }
            }
            let warp_is_block = launch
                .block
                .iter()
                .try_fold(1u64, |n, d| d.map(|d| n * d))
                .is_some_and(|n| n <= 32);
            let launch = &launch;
            let name = launch::kernel_name(&f.spelling(), &targs);
            let loc = site.unwrap_or_else(|| Loc::new(f.pos().line, f.pos().column));
            let (first, last) = if site.is_some() { (0, 0) } else { f.lines() };
            let def_file = f.pos().file;
            let home = if site.is_none() && def_file != main {
                def_file.as_str()
            } else {
                main
            };
            let file = (home != main).then(|| PathBuf::from(home));
            let all_errors: &[clang::Diag] = &errors;
            let own = |d: &&clang::Diag| d.file == home && (first..=last).contains(&d.line);
            let launches_kernels = errors
                .iter()
                .filter(own)
                .any(|d| device_launch(&d.text).is_some());
            let errors: Vec<String> = errors
                .iter()
                .filter(own)
                .filter(|d| device_launch(&d.text).is_none())
                .map(|d| d.text.clone())
                .collect();
            let not_compiled = |mut errors: Vec<String>| {
                if errors.len() > MAX_ERRORS {
                    let more = errors.len() - MAX_ERRORS;
                    errors.truncate(MAX_ERRORS);
                    errors.push(format!("({more} more errors)"));
                }
                KernelUnit {
                    name: name.clone(),
                    loc,
                    lowered: Err(Unsupported {
                        reason: "the kernel does not compile".into(),
                        loc,
                        file: None,
                    }),
                    display_names: display_names(),
                    errors,
                    launches: sites.clone(),
                    args: Vec::new(),
                    launch_free,
                    file: file.clone(),
                }
            };
            if !errors.is_empty() {
                return not_compiled(errors);
            }
            let mut args = Vec::new();
            let source = file_sources
                .entry(home.to_string())
                .or_insert_with(|| {
                    let text = sources
                        .entry(home.to_string())
                        .or_insert_with(|| source_text(home, unsaved))
                        .clone()
                        .unwrap_or_default();
                    let macros = launch::object_macros(&text)
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect();
                    std::sync::Arc::new(lower::Source { text, macros })
                })
                .clone();
            let lowered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // What the launch fixes is known while lowering, as the
                // command line's parameters are; what host code passes
                // counts only when the command line sets no size (`finish`).
                let mut named = launch_constants(launch, &[]);
                named.extend(launch.params.iter().cloned());
                let args = if free == (true, true) {
                    launch::constant_args(&sites)
                } else {
                    Vec::new()
                };
                lower::Lower::new(&name, warp_is_block, home, site)
                    .with_launch(named, args)
                    .with_source(source)
                    .with_instance_types({
                        let types = arg_types.get(&(f.id(), targs.clone())).cloned().unwrap_or_default();
                        (types.args, types.params, types.arity)
                    })
                    .kernel(&f, &targs)
            }))
            .unwrap_or_else(|_| {
                Err(Unsupported {
                    reason: "internal error while lowering".into(),
                    loc,
                    file: None,
                })
            });
            // Errors in the functions it inlines are the kernel's: clang
            // drops what it cannot compile (a `cub::BlockReduce` without
            // its header, and the barriers in it), so a protocol built from
            // the rest would describe another kernel.
            if let Ok(p) = &lowered {
                let in_callee = |d: &&clang::Diag| {
                    device_launch(&d.text).is_none()
                        && p.callees
                            .iter()
                            .any(|(file, a, b)| d.file == *file && (*a..=*b).contains(&d.line))
                };
                let callee_errors: Vec<String> =
                    all_errors.iter().filter(in_callee).map(|d| d.text.clone()).collect();
                if !callee_errors.is_empty() {
                    return not_compiled(callee_errors);
                }
            }
            // The protocol as analysed: launches, relations and the
            // approximations of how the kernel is launched.
            let finish = |mut p: crate::imp::Program| -> Kernel {
                // Known launch values go into the indices themselves: the
                // solver then sees constants where it would see products of
                // unknowns.
                for (name, v) in launch_constants(launch, &p.params) {
                    p.body = p
                        .body
                        .iter()
                        .map(|s| s.subst(&name, &Expr::Int(v)))
                        .collect();
                }
                let mut k = crate::imp::infer(&p);
                k.assumes.extend(launch_assumes(launch, &k));
                // Several launches, or sizes host code computes from the
                // arguments: one of the launches happens. A parameter the
                // command line fixes is not the host code's to say.
                let related = sites.iter().any(|s| !s.relations.is_empty());
                if free == (true, true) && (sites.len() > 1 || related) {
                    let names: Vec<Option<String>> = p
                        .args
                        .iter()
                        .map(|a| {
                            a.clone()
                                .filter(|n| !launch.params.iter().any(|(p, _)| p == n))
                        })
                        .collect();
                    let sites: Vec<launch::LaunchSite> = sites
                        .iter()
                        .map(|s| s.with_template_names(&p.template_args))
                        .collect();
                    launch::relate(&mut k, &sites, &names);
                }
                if launches_kernels {
                    k.approximations.push(DEVICE_LAUNCH.to_string());
                }
                if from_device && free.0 {
                    k.approximations.push(format!(
                        "`{}` is launched from device code, with sizes drfscan does not read, so a race's block may be one the program never launches",
                        f.spelling()
                    ));
                }
                if free.0 {
                    k.approximations.extend(launch::unread_block(&sites, &k));
                    launch::mark_unread_grid(&mut k, &sites);
                    if launches.escapes(&(f.id(), targs.clone())) {
                        k.approximations.push(launch::ESCAPED.to_string());
                    }
                }
                k
            };
            let lowered = lowered.map_err(|mut u| {
                // A construct in another file (a header's inlined function,
                // the toolkit's): named there, reported at the kernel.
                let elsewhere = u.file.take().filter(|other| *other != f.pos().file);
                if let Some(other) = elsewhere {
                    u.reason = format!("{} (at {other}:{})", u.reason, u.loc);
                    u.loc = loc;
                }
                u
            })
            .map(|mut p| {
                args = p.args.clone();
                let variants = std::mem::take(&mut p.variants);
                let mut k = finish(p);
                k.variants = variants
                    .into_iter()
                    .map(|(assumed, p)| crate::protocol::Variant {
                        assumed,
                        kernel: finish(*p),
                    })
                    .collect();
                k
            });
            KernelUnit {
                name,
                loc,
                lowered,
                display_names: display_names(),
                errors,
                launches: sites,
                args,
                launch_free,
                file,
            }
        })
        .collect();
    let host_only = tu.host_only_callees();
    Ok((kernels, diagnostics, includes, clang_us, foreign, host_only))
}

/// A declaration in a file of the project being analysed: neither a system
/// header nor one of the built-in headers.
fn project_file(n: &Node) -> bool {
    let file = n.pos().file;
    !file.is_empty() && !file.starts_with(prelude::DIR) && !n.in_system_header()
}

/// `__global__` definitions, templates included.
fn collect_kernels<'a>(n: &Node<'a>, out: &mut Vec<Node<'a>>) {
    for c in n.children() {
        let k = c.kind();
        if k == K::NAMESPACE || k == K::LINKAGE_SPEC {
            collect_kernels(&c, out);
        } else if (k == K::FUNCTION || k == K::FUNCTION_TEMPLATE)
            && c.is_definition()
            && c.has_attr(K::CUDA_GLOBAL)
        {
            out.push(c);
        }
    }
}

/// Instantiations of function templates: `(template id, arguments)`, each
/// once, in order of appearance.
type TemplateArgs = Vec<Result<i64, String>>;
type Instantiation = (u32, TemplateArgs, Loc);

/// What an instantiation makes of its template's types: its type
/// arguments by position, and its parameters' types by name (`Acc<float>`
/// where the template reads `Acc<T>`).
#[derive(Clone, Default)]
struct InstanceTypes {
    args: Vec<Option<clang::Ty>>,
    params: Vec<(String, clang::Ty)>,
    /// How many parameters the instantiation has, a pack's expanded.
    arity: Option<usize>,
}

type ArgTypes = std::collections::HashMap<(u32, TemplateArgs), InstanceTypes>;

/// The instantiations of kernel templates a file makes.
#[derive(Default)]
struct Instances {
    /// Named whole: by a launch, an explicit instantiation, or a launch in
    /// the body of an instantiated host template.
    specs: Vec<Instantiation>,
    /// Named in part by a launch in a host template (`k<T, 64>`).
    dependent: Vec<Instantiation>,
    types: ArgTypes,
    /// Those of `specs` and `dependent` that only an instantiated host
    /// template's body names.
    hosted: std::collections::HashSet<(u32, TemplateArgs)>,
    /// Members of class template instantiations whose bodies were read.
    members: std::collections::HashSet<u32>,
}

/// Tokens read from `template` to the `;` of an explicit instantiation.
const MAX_INSTANTIATION_TOKENS: usize = 400;

/// More instantiations than this of one kernel template, named only by
/// host templates' instantiations (a dispatch over every quantization
/// type and column count), are not each analysed: the launch in the host
/// template stays one analysis of the template with those arguments open.
pub(crate) const MAX_HOSTED: usize = 16;

impl Instances {
    fn collect(&mut self, n: &Node, main: &str, hosted: bool) {
        for c in n.children() {
            let k = c.kind();
            let spec = if k == K::FUNCTION && c.pos().file == main {
                Some(c)
            } else if k == K::CALL || k == K::DECL_REF || k == K::UNEXPOSED {
                c.referenced()
                    .filter(|r| r.kind() == K::FUNCTION || r.kind() == K::METHOD)
            } else {
                None
            };
            if k == K::DECL_REF && spec.is_none() {
                // A launch in a host template: the arguments it fixes.
                if let Some((t, args)) = launch::dependent_kernel(&c) {
                    if !self
                        .dependent
                        .iter()
                        .any(|(id, a, _)| *id == t.id() && *a == args)
                    {
                        // In an instantiated host template's body the
                        // name may still be unresolved, its arguments
                        // now constants: an instantiation found there.
                        if hosted {
                            self.hosted.insert((t.id(), args.clone()));
                        }
                        let at = Loc::new(c.pos().line, c.pos().column);
                        self.dependent.push((t.id(), args, at));
                    }
                }
            }
            if let Some(s) = spec {
                if let Some(t) = s.specialized_template() {
                    if t.kind() == K::FUNCTION_TEMPLATE {
                        self.instantiation(&c, &s, &t, main, hosted);
                    } else if t.kind() == K::METHOD
                        && t.pos().file == main
                        && self.members.insert(s.id())
                    {
                        // A member of an instantiated class template
                        // (`Dispatch<T>()(…)`, a functor's `operator()`):
                        // its body is the host template's, with the
                        // class's arguments.
                        self.collect(&s, main, true);
                    }
                }
            }
            if c.pos().file == main {
                self.collect(&c, main, hosted);
            }
        }
    }

    /// The instantiation `s` of the template `t`, named at `c`.
    fn instantiation(&mut self, c: &Node, s: &Node, t: &Node, main: &str, hosted: bool) {
        let args = s.template_args();
        let key = (t.id(), args.clone());
        if self
            .specs
            .iter()
            .any(|(id, a, _)| *id == key.0 && *a == args)
        {
            // Named whole outside host templates too: not only hosted.
            if !hosted {
                self.hosted.remove(&key);
            }
            return;
        }
        if args.is_empty() {
            return;
        }
        let params = s
            .args()
            .into_iter()
            .filter(|p| !p.spelling().is_empty())
            .map(|p| (p.spelling(), p.ty()))
            .collect();
        let types = InstanceTypes {
            args: s.template_arg_types(),
            params,
            arity: Some(s.args().len()),
        };
        self.types.insert(key.clone(), types);
        self.specs
            .push((t.id(), args, Loc::new(c.pos().line, c.pos().column)));
        // The template carries the attribute: an implicit instantiation may
        // not list it.
        let kernel = t.has_attr(K::CUDA_GLOBAL) || s.has_attr(K::CUDA_GLOBAL);
        if hosted && kernel {
            self.hosted.insert(key);
        }
        // A host template of this file instantiated here (`run<float>(…)`)
        // launches the instantiations its body names with these arguments
        // (`k<T><<<…>>>` becomes `k<float>`); each is read once.
        if !kernel && t.pos().file == main {
            self.collect(s, main, true);
        }
    }

    /// The explicit instantiations of kernel templates the main file writes
    /// (`template __global__ void k<float, 256>(const float *, int);`),
    /// which libclang does not show as cursors: read from the tokens, with
    /// each argument a type, an integer literal or a macro of one. One the
    /// reading cannot give whole (a macro writes it, an argument is an
    /// expression, arguments are deduced) is left to the launches.
    fn explicit(&mut self, root: &Node, src: &[u8], kernels: &[Node]) {
        let mut templates: std::collections::HashMap<String, Vec<&Node>> = Default::default();
        for k in kernels.iter().filter(|k| k.kind() == K::FUNCTION_TEMPLATE) {
            templates.entry(k.spelling()).or_default().push(k);
        }
        if templates.is_empty() {
            return;
        }
        let toks = root.tokens();
        let text = String::from_utf8_lossy(src);
        let macros = launch::object_macros(&text);
        for (i, (t, _)) in toks.iter().enumerate() {
            let after = toks.get(i + 1).map(|(n, _)| n.as_str());
            // `x.template f<…>` names a member template.
            let before = i.checked_sub(1).map(|j| toks[j].0.as_str());
            if t != "template" || after == Some("<") || matches!(before, Some("." | "->" | "::")) {
                continue;
            }
            let Some(end) = toks[i..]
                .iter()
                .take(MAX_INSTANTIATION_TOKENS)
                .position(|(n, _)| n == ";" || n == "{")
                .map(|p| i + p)
            else {
                continue;
            };
            if toks[end].0 != ";" {
                continue;
            }
            let named = (i + 1..end).find_map(|k| {
                let [template] = templates.get(&toks[k].0)?.as_slice() else {
                    return None;
                };
                (toks.get(k + 1)?.0 == "<").then_some((k, *template))
            });
            let Some((k, template)) = named else {
                continue;
            };
            let Some(args) =
                launch::written_args(&toks[k + 2..end], &template.template_params(), &macros)
            else {
                continue;
            };
            let key = (template.id(), args);
            if self
                .specs
                .iter()
                .chain(&self.dependent)
                .any(|(t, a, _)| (*t, a) == (key.0, &key.1))
            {
                continue;
            }
            let before = &src[..(toks[k].1 as usize).min(src.len())];
            let line = before.iter().filter(|&&b| b == b'\n').count();
            let column = before.len()
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
            self.dependent
                .push((key.0, key.1, Loc::new(line as u32 + 1, column as u32 + 1)));
        }
    }

    /// Drops the hosted instantiations of every kernel template that has
    /// more than [`MAX_HOSTED`] of them.
    fn bound_hosted(&mut self) {
        let mut per_template: std::collections::HashMap<u32, usize> = Default::default();
        for (t, _) in &self.hosted {
            *per_template.entry(*t).or_default() += 1;
        }
        let hosted = &self.hosted;
        let keep = |(t, a, _): &Instantiation| {
            per_template.get(t).is_none_or(|&n| n <= MAX_HOSTED)
                || !hosted.contains(&(*t, a.clone()))
        };
        self.dependent.retain(keep);
        self.specs.retain(keep);
    }
}

/// The variables a launch configuration fixes, with their values.
fn launch_constants(launch: &Launch, params: &[String]) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    let dims = [
        (launch.block, builtin::BLOCK_DIM, builtin::TID),
        (launch.grid, builtin::GRID_DIM, builtin::BID),
    ];
    for (dim, names, ids) in dims {
        for ((v, n), id) in dim.iter().zip(names).zip(ids) {
            if let Some(v) = v {
                out.push((n.to_string(), *v as i64));
                // The one index along an axis of size 1: linearised
                // thread ranks (`tid.x + tid.y * 256`) lose their terms.
                if *v == 1 {
                    out.push((id.to_string(), 0));
                }
            }
        }
    }
    for (name, v) in &launch.params {
        // Parameters are natural numbers in protocols: a negative argument
        // (`-1` for "none") leaves the parameter open.
        if *v >= 0 && params.iter().any(|p| p == name) {
            out.push((name.clone(), *v));
        }
    }
    out
}

fn launch_assumes(launch: &Launch, k: &Kernel) -> Vec<Cond> {
    // An index along an axis of size 1 is 0 by the bounds of ids already.
    launch_constants(launch, &k.params)
        .into_iter()
        .filter(|(n, _)| !builtin::TID.contains(&n.as_str()) && !builtin::BID.contains(&n.as_str()))
        .map(|(n, v)| Cond::cmp(Rel::Eq, Expr::Var(n), Expr::Int(v)))
        .collect()
}

/// How built-in variables read in CUDA.
pub fn display_names() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in ["x", "y", "z"] {
        out.push((format!("tid.{d}"), format!("threadIdx.{d}")));
        out.push((format!("bid.{d}"), format!("blockIdx.{d}")));
        out.push((format!("blockDim.{d}"), format!("blockDim.{d}")));
        out.push((format!("gridDim.{d}"), format!("gridDim.{d}")));
    }
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod linkage_tests {
    #[test]
    fn spaced_launch_brackets_are_joined_in_place() {
        let src = b"k << <g, b >> > (a);\nstd::vector<std::vector<V<int>> > v;\n";
        let out = super::join_spaced_launches(src);
        assert_eq!(
            out,
            b"k <<< g, b >>>  (a);\nstd::vector<std::vector<V<int>> > v;\n".to_vec()
        );
    }

    #[test]
    fn a_kernel_declared_device_too_is_a_kernel() {
        let src = b"__global__  __device__ void k();\n__device__ __global__ void j();\n__device__ void f();\n__global__ __device__x;\n";
        let out = super::without_redundant_device(src);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "__global__             void k();\n           __global__ void j();\n__device__ void f();\n__global__ __device__x;\n"
        );
        let src = b"  __device__ __shared__ float s[4];\n__shared__ __device__ int t;\n__device__ __shared__x;\n";
        let out = super::without_redundant_device(src);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "             __shared__ float s[4];\n__shared__            int t;\n__device__ __shared__x;\n"
        );
        let includes = super::quoted_includes(
            b"#include \"kernel.cu\"\n  # include <stdio.h>\n#include \"a/b.h\" // x\n",
        );
        assert_eq!(includes, ["kernel.cu", "stdio.h", "a/b.h"]);
    }

    #[test]
    fn glued_linkage_is_separated_in_place() {
        let src = b"extern \"C\"__global__ void k() {}\nextern \"C\" int f();\n";
        let out = super::separate_linkage(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "extern\"C\" __global__ void k() {}\nextern \"C\" int f();\n"
        );
    }
}
