//! The prelude, precompiled once per configuration and kept across runs.
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
//! The precompiled file is kept in the cache directory
//! (`prelude/<key>/`), keyed by libclang's version, the language flags and
//! the prelude's text, next to the list of files it read with their
//! hashes, sizes and modification times. A process takes a kept file when
//! every one of those files is unchanged and clang loads it for an empty
//! unit, and otherwise builds it anew and replaces the entry. Each process
//! reaches the file through its own descriptor (`/proc/self/fd`), so a
//! later replacement or pruning never pulls it away; where the cache
//! directory cannot be written, the file is a temporary one, unlinked as
//! soon as it is open. Where there is no `/proc`, units get the textual
//! prelude.

use super::clang::{self, Tu};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

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
    let store = super::toolkit::cache_dir().join("prelude");
    build_in(&store, forced, args, unsaved)
}

/// The precompiled prelude kept in `store`, built and kept there first
/// when there is none or it is stale.
pub(super) fn build_in(
    store: &Path,
    forced: &str,
    args: &[String],
    unsaved: &[(String, Vec<u8>)],
) -> Result<Precompiled, String> {
    let key = key(forced, args, unsaved);
    if let Some(kept) = reuse(&store.join(&key), args, unsaved) {
        return Ok(kept);
    }
    let tu = Tu::parse_header(forced, args, unsaved)?;
    if tu
        .diagnostics()
        .iter()
        .any(|d| d.severity >= clang::DIAG_ERROR)
    {
        return Err("the prelude does not compile with these flags".into());
    }
    // A header included twice is read and hashed once.
    let mut read: Vec<PathBuf> = Vec::new();
    for f in tu.inclusions() {
        if f.to_string_lossy() != forced && !read.contains(&f) {
            read.push(f);
        }
    }
    let inputs: Vec<Input> = read
        .into_iter()
        .filter_map(|f| Input::now(f, unsaved))
        .collect();
    let file = match keep(&tu, store, &key, &inputs) {
        Ok(file) => file,
        // A cache directory that cannot be written: this process's own.
        Err(_) => {
            let dir = tempfile::Builder::new()
                .prefix("drfscan-prelude")
                .tempdir()
                .map_err(|e| e.to_string())?;
            let saved = dir.path().join("prelude.pch");
            tu.save(&saved.to_string_lossy())?;
            // The open descriptor keeps the file; the directory goes now.
            File::open(&saved).map_err(|e| e.to_string())?
        }
    };
    Ok(Precompiled::new(file, inputs))
}

impl Precompiled {
    fn new(file: File, inputs: Vec<Input>) -> Precompiled {
        let mut tails = HashSet::new();
        for i in &inputs {
            // The built-in headers come first on the search path.
            if !i.path.starts_with(super::prelude::DIR) {
                let parts: Vec<_> = i.path.components().skip(1).collect();
                for k in 0..parts.len() {
                    tails.insert(parts[k..].iter().collect::<PathBuf>());
                }
            }
        }
        Precompiled {
            path: format!("/proc/self/fd/{}", file.as_raw_fd()),
            inputs: inputs.into_iter().map(|i| (i.path, i.hash)).collect(),
            tails,
            fitting: Mutex::new(HashMap::new()),
            _file: file,
        }
    }
}

/// A file the prelude read, as it was: its hash, and for a file on disk
/// its size and modification time, which clang checks too when it loads
/// the precompiled file.
#[derive(Debug, PartialEq)]
struct Input {
    path: PathBuf,
    hash: String,
    stamp: Option<(u64, u128)>,
}

impl Input {
    fn now(path: PathBuf, unsaved: &[(String, Vec<u8>)]) -> Option<Input> {
        let name = path.to_string_lossy();
        let stamp = if unsaved.iter().any(|(n, _)| *n == name) {
            None
        } else {
            let m = std::fs::metadata(&path).ok()?;
            let since = m.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
            Some((m.len(), since.as_nanos()))
        };
        Some(Input {
            hash: super::content_hash(&path, unsaved)?,
            path,
            stamp,
        })
    }

    fn line(&self) -> String {
        let (size, mtime) = match self.stamp {
            Some((s, m)) => (s.to_string(), m.to_string()),
            None => ("-".into(), "-".into()),
        };
        format!("{}\t{size}\t{mtime}\t{}\n", self.hash, self.path.display())
    }

    fn parse(line: &str) -> Option<Input> {
        let mut f = line.splitn(4, '\t');
        let (hash, size, mtime, path) = (f.next()?, f.next()?, f.next()?, f.next()?);
        let stamp = match (size, mtime) {
            ("-", "-") => None,
            (s, m) => Some((s.parse().ok()?, m.parse().ok()?)),
        };
        Some(Input {
            path: PathBuf::from(path),
            hash: hash.to_string(),
            stamp,
        })
    }
}

/// What a kept precompiled prelude was built from: the prelude itself, the
/// language flags and the clang that read them.
fn key(forced: &str, args: &[String], unsaved: &[(String, Vec<u8>)]) -> String {
    let mut h = blake3::Hasher::new();
    h.update(b"drfscan precompiled prelude 1\x1e");
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(b"\x1e");
    h.update(clang::version().as_bytes());
    h.update(b"\x1e");
    h.update(
        super::content_hash(Path::new(forced), unsaved)
            .unwrap_or_default()
            .as_bytes(),
    );
    for part in std::iter::once(forced).chain(args.iter().map(String::as_str)) {
        h.update(b"\x1e");
        h.update(part.as_bytes());
    }
    h.finalize().to_hex()[..32].to_string()
}

/// The kept prelude in `entry` when every file it read is as it was and
/// clang loads it for an empty unit; `None` sends the caller to build one.
fn reuse(entry: &Path, args: &[String], unsaved: &[(String, Vec<u8>)]) -> Option<Precompiled> {
    let listed = std::fs::read_to_string(entry.join("inputs")).ok()?;
    let mut inputs = Vec::new();
    for line in listed.lines() {
        let kept = Input::parse(line)?;
        if Input::now(kept.path.clone(), unsaved).as_ref() != Some(&kept) {
            return None;
        }
        inputs.push(kept);
    }
    let file = File::open(entry.join("prelude.pch")).ok()?;
    let kept = Precompiled::new(file, inputs);
    // Whatever clang checks beyond the inputs (its own build, the target),
    // it checks here, once, rather than in every unit.
    let probe = format!("{}/drfscan_probe.cu", super::prelude::DIR);
    let mut all = vec!["-include-pch".to_string(), kept.path.clone()];
    all.extend(args.iter().cloned());
    let mut files = unsaved.to_vec();
    files.push((probe.clone(), Vec::new()));
    let tu = Tu::parse(&probe, &all, &files).ok()?;
    if tu
        .diagnostics()
        .iter()
        .any(|d| d.severity >= clang::DIAG_ERROR)
    {
        return None;
    }
    // Its age orders the entries for pruning.
    if let Ok(f) = File::options().write(true).open(entry.join("inputs")) {
        let _ = f.set_modified(SystemTime::now());
    }
    Some(kept)
}

/// Entries kept at most; the least recently used go first.
const KEPT: usize = 8;

/// Saves the precompiled prelude as the entry `key` of `store` and opens
/// it. Written aside and renamed into place, so that another process
/// never reads half an entry; the open file stays this process's even if
/// the entry is replaced or pruned later.
fn keep(tu: &Tu, store: &Path, key: &str, inputs: &[Input]) -> Result<File, String> {
    // A path that cannot be listed one to a line is not kept.
    if inputs
        .iter()
        .any(|i| i.path.to_string_lossy().contains(['\n', '\t']))
    {
        return Err("an input's path cannot be listed".into());
    }
    let lines: String = inputs.iter().map(Input::line).collect();
    let tmp = store.join(format!(".{key}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let saved = tmp.join("prelude.pch");
    let done = tu
        .save(&saved.to_string_lossy())
        .and_then(|_| std::fs::write(tmp.join("inputs"), lines).map_err(|e| e.to_string()))
        .and_then(|_| File::open(&saved).map_err(|e| e.to_string()));
    let file = match done {
        Ok(f) => f,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    // A stale entry, or one another process has just kept from the same
    // inputs: either way this one replaces it. When another process wins
    // the rename, this one keeps its file through the descriptor alone.
    let entry = store.join(key);
    let _ = std::fs::remove_dir_all(&entry);
    if std::fs::rename(&tmp, &entry).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    prune(store);
    Ok(file)
}

/// Keeps the [`KEPT`] most recently used entries, and removes what
/// processes that died while keeping one left behind.
fn prune(store: &Path) {
    let Ok(read) = std::fs::read_dir(store) else {
        return;
    };
    let now = SystemTime::now();
    let mut entries = Vec::new();
    for e in read.filter_map(|e| e.ok()) {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let used = std::fs::metadata(path.join("inputs"))
            .or_else(|_| e.metadata())
            .and_then(|m| m.modified())
            .unwrap_or(UNIX_EPOCH);
        if name.starts_with('.') {
            let old = now.duration_since(used).is_ok_and(|d| d.as_secs() > 3600);
            if old {
                let _ = std::fs::remove_dir_all(&path);
            }
        } else {
            entries.push((used, path));
        }
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.0));
    for (_, path) in entries.into_iter().skip(KEPT) {
        let _ = std::fs::remove_dir_all(path);
    }
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
