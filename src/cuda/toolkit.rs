//! Finding a real CUDA toolkit's headers. Clang parses through its own CUDA
//! wrapper headers when it is given a toolkit root (`--cuda-path`): a
//! directory with `include/cuda_runtime.h` and a `bin/` directory. Header
//! packages from the Python package index (`nvidia-cuda-runtime-cu12` and
//! its siblings, one `nvidia/<part>/include` each) are merged into such a
//! root, a tree of links kept in drfscan's cache directory.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// A toolkit to parse with, and how it was found (for the run's options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolkit {
    /// The root clang is given.
    pub root: PathBuf,
    /// `CUDA_VERSION` of its `cuda.h`, as `12.4`.
    pub version: Option<String>,
    /// `--cuda-path`, `CUDA_PATH`, `/usr/local/cuda`, `nvcc on PATH`, …
    pub found_by: String,
}

/// What `--cuda-path` says.
pub enum Request<'a> {
    /// Nothing: detect.
    Detect,
    /// `--cuda-path builtin`: the built-in headers, whatever is installed.
    Builtin,
    Path(&'a Path),
}

impl<'a> Request<'a> {
    pub fn from_flag(flag: Option<&'a Path>) -> Request<'a> {
        match flag {
            None => Request::Detect,
            Some(p) if p == Path::new("builtin") => Request::Builtin,
            Some(p) => Request::Path(p),
        }
    }
}

/// The toolkit to use, or `None` for the built-in headers. A path given on
/// the command line must be a toolkit (or a directory of header packages);
/// detection tries, in order, `CUDA_PATH`, `CUDA_HOME`, `/usr/local/cuda`,
/// the directory above `nvcc` on `PATH` and the Python packages of
/// `python3`'s search path.
pub fn resolve(req: Request) -> Result<Option<Toolkit>> {
    match req {
        Request::Builtin => Ok(None),
        Request::Path(p) => match usable(p)? {
            Some(root) => Ok(Some(toolkit(root, "--cuda-path"))),
            None => bail!(
                "--cuda-path {}: no CUDA toolkit there (expected include/cuda_runtime.h, or header packages nvidia/*/include)",
                p.display()
            ),
        },
        Request::Detect => {
            let vars = ["CUDA_PATH", "CUDA_HOME"]
                .into_iter()
                .filter_map(|v| Some((std::env::var_os(v)?, v)))
                .map(|(p, v)| (PathBuf::from(p), v.to_string()));
            let fixed = std::iter::once((PathBuf::from("/usr/local/cuda"), "/usr/local/cuda".into()));
            let nvcc = which("nvcc")
                .and_then(|p| p.canonicalize().ok())
                .and_then(|p| Some(p.parent()?.parent()?.to_path_buf()))
                .map(|p| (p, "nvcc on PATH".to_string()));
            for (dir, how) in vars.chain(fixed).chain(nvcc) {
                if let Ok(Some(root)) = usable(&dir) {
                    return Ok(Some(toolkit(root, &how)));
                }
            }
            for dir in python_paths() {
                if let Ok(Some(root)) = usable(&dir) {
                    return Ok(Some(toolkit(root, "Python packages")));
                }
            }
            Ok(None)
        }
    }
}

fn toolkit(root: PathBuf, how: &str) -> Toolkit {
    let version = std::fs::read_to_string(root.join("include/cuda.h"))
        .ok()
        .and_then(|h| cuda_version(&h));
    Toolkit {
        root,
        version,
        found_by: how.to_string(),
    }
}

/// `#define CUDA_VERSION 12040` → `12.4`.
fn cuda_version(cuda_h: &str) -> Option<String> {
    let line = cuda_h
        .lines()
        .find(|l| l.trim_start().starts_with("#define CUDA_VERSION "))?;
    let n: u32 = line.split_whitespace().nth(2)?.parse().ok()?;
    Some(format!("{}.{}", n / 1000, (n % 1000) / 10))
}

/// The root clang can use for `dir`: `dir` itself when it is a toolkit,
/// else a merged root of the header packages under it (`dir/nvidia/*` or
/// `dir/*` with `include/`), else `None`.
pub fn usable(dir: &Path) -> Result<Option<PathBuf>> {
    if dir.join("include/cuda_runtime.h").is_file() && dir.join("bin").is_dir() {
        return Ok(Some(dir.to_path_buf()));
    }
    let parts_dir = if dir.join("nvidia").is_dir() {
        dir.join("nvidia")
    } else {
        dir.to_path_buf()
    };
    let Ok(entries) = std::fs::read_dir(&parts_dir) else {
        return Ok(None);
    };
    // Absolute: the links must point there from the cache directory.
    let mut parts: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("include"))
        .filter(|p| p.is_dir())
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    parts.sort();
    if !parts.iter().any(|p| p.join("cuda_runtime.h").is_file()) {
        return Ok(None);
    }
    merged_root(&parts).map(Some)
}

/// A toolkit root whose `include/` links every file of `parts` (the first
/// part that has a path wins), under the cache directory, built once per
/// set of parts.
fn merged_root(parts: &[PathBuf]) -> Result<PathBuf> {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(p.as_os_str().as_encoded_bytes());
        h.update(b"\0");
    }
    let key = h.finalize().to_hex();
    let root = cache_dir().join(format!("cuda-{}", &key[..16]));
    let done = root.join(".complete");
    if done.is_file() {
        return Ok(root);
    }
    // Built aside and renamed into place, so that concurrent scans never
    // see half a tree.
    let tmp = cache_dir().join(format!(".cuda-{}-{}", &key[..16], std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("bin"))
        .with_context(|| format!("cannot create {}", tmp.display()))?;
    for part in parts {
        link_tree(part, &tmp.join("include"))
            .with_context(|| format!("cannot link the headers of {}", part.display()))?;
    }
    std::fs::write(tmp.join(".complete"), parts_list(parts))?;
    match std::fs::rename(&tmp, &root) {
        Ok(()) => Ok(root),
        // Another process finished first.
        Err(_) if done.is_file() => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(root)
        }
        Err(e) => Err(e).with_context(|| format!("cannot create {}", root.display())),
    }
}

fn parts_list(parts: &[PathBuf]) -> String {
    parts.iter().map(|p| format!("{}\n", p.display())).collect()
}

fn link_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let target = to.join(e.file_name());
        let path = e.path();
        if path.is_dir() {
            link_tree(&path, &target)?;
        } else if target.symlink_metadata().is_err() && e.file_name() != "__init__.py" {
            std::os::unix::fs::symlink(&path, &target)?;
        }
    }
    Ok(())
}

/// drfscan's cache directory: `$XDG_CACHE_HOME/drfscan`, else
/// `~/.cache/drfscan`, else one in the temporary directory.
pub(crate) fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("drfscan");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(h).join(".cache/drfscan");
    }
    std::env::temp_dir().join("drfscan-cache")
}

fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// `python3`'s module search path, where `pip install` puts packages.
fn python_paths() -> Vec<PathBuf> {
    let Some(python) = which("python3") else {
        return Vec::new();
    };
    let out = std::process::Command::new(python)
        .args([
            "-c",
            "import sys; print('\\n'.join(p for p in sys.path if p))",
        ])
        .stderr(std::process::Stdio::null())
        .output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(PathBuf::from)
            .filter(|p| p.join("nvidia").is_dir())
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn versions_come_from_cuda_h() {
        assert_eq!(
            cuda_version("#pragma once\n#define CUDA_VERSION 12040\n").as_deref(),
            Some("12.4")
        );
        assert_eq!(cuda_version("nothing"), None);
    }

    #[test]
    fn header_packages_merge_into_one_root() {
        let d = tempfile::tempdir().unwrap();
        let site = d.path().join("site");
        touch(
            &site.join("nvidia/cuda_runtime/include/cuda_runtime.h"),
            "//",
        );
        touch(
            &site.join("nvidia/cuda_runtime/include/cuda.h"),
            "#define CUDA_VERSION 12040\n",
        );
        touch(
            &site.join("nvidia/cuda_nvcc/include/crt/host_defines.h"),
            "//",
        );
        touch(
            &site.join("nvidia/cuda_cccl/include/cuda/std/cstdint"),
            "//",
        );
        touch(
            &site.join("nvidia/curand/include/cuda/curand_extra.h"),
            "//",
        );
        touch(&site.join("nvidia/curand/include/__init__.py"), "");
        std::env::set_var("XDG_CACHE_HOME", d.path().join("cache"));
        let root = usable(&site).unwrap().expect("a root");
        assert!(root.join("bin").is_dir());
        for f in [
            "cuda_runtime.h",
            "crt/host_defines.h",
            "cuda/std/cstdint",
            "cuda/curand_extra.h",
        ] {
            assert!(root.join("include").join(f).is_file(), "{f}");
        }
        assert!(!root.join("include/__init__.py").exists());
        // Built once: the second call finds it.
        assert_eq!(usable(&site).unwrap(), Some(root.clone()));
        let t = resolve(Request::Path(&site)).unwrap().unwrap();
        assert_eq!(
            (t.version.as_deref(), t.found_by.as_str()),
            (Some("12.4"), "--cuda-path")
        );
        // A directory without a toolkit is an error when asked for, and the
        // built-in headers when asked for them.
        assert!(resolve(Request::Path(d.path())).is_err());
        assert_eq!(resolve(Request::Builtin).unwrap(), None);
    }
}
