//! The prelude, precompiled once per process and configuration.
//!
//! The forced header brings the system's `<cmath>`, `<cstdlib>` and
//! `<cstdio>` (or a real toolkit's runtime headers), which cost clang more
//! than most files that include them. It is parsed once per set of
//! language flags, saved as a precompiled header and loaded by every unit
//! with those flags (`-include-pch`). A unit gets the textual prelude when
//! no precompiled one could be built, or when one of its include
//! directories could shadow a header the precompiled prelude read (the
//! header would then be resolved differently than when it was built).
//!
//! The precompiled file is unlinked as soon as it is written and reached
//! through the process's descriptor for it (`/proc/self/fd`), so it never
//! outlives the process. Where there is no `/proc`, units get the textual
//! prelude.

use super::clang::{self, Tu};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

pub struct Precompiled {
    /// What units pass to clang: `-include-pch` and this path.
    pub path: String,
    /// Every file the prelude read, with its hash: a unit's cache entry
    /// depends on them as on its own includes.
    pub inputs: Vec<(PathBuf, String)>,
    /// Every tail of every input's path (`stdio.h`, `bits/types.h`,
    /// `x86_64-linux-gnu/bits/types.h`, …): an include spelled any of
    /// these ways would be found in an include directory holding it.
    tails: HashSet<PathBuf>,
    /// Include directories already looked at, and whether they fit.
    fitting: Mutex<HashMap<PathBuf, bool>>,
    _file: File,
}

impl Precompiled {
    /// Whether a unit searching `dirs` (clang's `-I…`/`-isystem…`
    /// arguments) would read the same headers as the prelude did.
    pub fn fits(&self, dirs: &[String]) -> bool {
        dirs.iter().all(|arg| {
            let dir = Path::new(
                arg.strip_prefix("-isystem")
                    .or_else(|| arg.strip_prefix("-I"))
                    .unwrap_or(arg),
            );
            if let Some(known) = self.fitting.lock().ok().and_then(|f| f.get(dir).copied()) {
                return known;
            }
            let names = entries(dir);
            let fits = !self.tails.iter().any(|tail| {
                tail.components()
                    .next()
                    .is_some_and(|c| names.contains(&*c.as_os_str().to_string_lossy()))
                    && dir.join(tail).exists()
            });
            if let Ok(mut f) = self.fitting.lock() {
                f.insert(dir.to_path_buf(), fits);
            }
            fits
        })
    }
}

type Slot = Arc<OnceLock<Option<Arc<Precompiled>>>>;

/// The precompiled prelude for units parsed with `args` (everything but
/// the main file, the include directories and the forced include), built
/// on first use; `None` when it cannot be.
pub fn prelude(
    forced: &str,
    args: &[String],
    unsaved: &[(String, Vec<u8>)],
) -> Option<Arc<Precompiled>> {
    static BUILT: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    if !Path::new("/proc/self/fd").is_dir() {
        return None;
    }
    // A build's own forced includes come after the prelude in each unit,
    // not inside it.
    let mut language: Vec<String> = Vec::with_capacity(args.len());
    let mut after_include = false;
    for a in args {
        if std::mem::take(&mut after_include) {
            continue;
        }
        if a == "-include" {
            after_include = true;
            continue;
        }
        language.push(a.clone());
    }
    let args = &language[..];
    let mut key = blake3::Hasher::new();
    for part in std::iter::once(forced).chain(args.iter().map(String::as_str)) {
        key.update(part.as_bytes());
        key.update(b"\x1e");
    }
    let key = key.finalize().to_hex().to_string();
    let slot = {
        let mut built = BUILT.get_or_init(Default::default).lock().ok()?;
        built.entry(key).or_default().clone()
    };
    slot.get_or_init(|| {
        // On a thread with the stack clang gets for every unit: the
        // caller may be a pool's worker with a small one.
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("drfscan-prelude".into())
                .stack_size(super::STACK_SIZE)
                .spawn_scoped(scope, || build(forced, args, unsaved).ok())
                .ok()
                .and_then(|h| h.join().ok())
                .flatten()
                .map(Arc::new)
        })
    })
    .clone()
}

fn build(
    forced: &str,
    args: &[String],
    unsaved: &[(String, Vec<u8>)],
) -> Result<Precompiled, String> {
    let tu = Tu::parse_header(forced, args, unsaved)?;
    if tu
        .diagnostics()
        .iter()
        .any(|d| d.severity >= clang::DIAG_ERROR)
    {
        return Err("the prelude does not compile with these flags".into());
    }
    let dir = tempfile::Builder::new()
        .prefix("drfscan-prelude")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let saved = dir.path().join("prelude.pch");
    tu.save(&saved.to_string_lossy())?;
    let file = File::open(&saved).map_err(|e| e.to_string())?;
    // The open descriptor keeps the file; the directory goes now.
    drop(dir);
    let mut inputs = Vec::new();
    let mut tails = HashSet::new();
    for f in tu.inclusions() {
        let text = f.to_string_lossy();
        if text == forced || inputs.iter().any(|(p, _): &(PathBuf, String)| *p == f) {
            continue;
        }
        // The built-in headers come first on the search path.
        if !f.starts_with(super::prelude::DIR) {
            let parts: Vec<_> = f.components().skip(1).collect();
            for i in 0..parts.len() {
                tails.insert(parts[i..].iter().collect::<PathBuf>());
            }
        }
        if let Some(h) = super::content_hash(&f, unsaved) {
            inputs.push((f, h));
        }
    }
    Ok(Precompiled {
        path: format!("/proc/self/fd/{}", file.as_raw_fd()),
        inputs,
        tails,
        fitting: Mutex::new(HashMap::new()),
        _file: file,
    })
}

/// The names directly in `dir`, read once per process.
fn entries(dir: &Path) -> Arc<HashSet<String>> {
    static READ: OnceLock<Mutex<HashMap<PathBuf, Arc<HashSet<String>>>>> = OnceLock::new();
    let read = READ.get_or_init(Default::default);
    if let Some(known) = read.lock().ok().and_then(|r| r.get(dir).cloned()) {
        return known;
    }
    let names: HashSet<String> = std::fs::read_dir(dir)
        .map(|it| {
            it.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let names = Arc::new(names);
    if let Ok(mut r) = read.lock() {
        r.insert(dir.to_path_buf(), names.clone());
    }
    names
}
