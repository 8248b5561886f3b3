//! Finding the `.cu` files of a scan: walk the given directories, honour the
//! exclude globs, and turn every file that cannot be read into a warning.

use crate::store::Warning;
use anyhow::{Context, Result};
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// The files to scan, absolute and sorted, and what was skipped.
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<PathBuf>,
    /// Every file an `#include` could name, for includes that the include
    /// path does not resolve.
    pub headers: Vec<PathBuf>,
    pub skipped: Vec<Warning>,
}

pub fn exclude_set(globs: &[String]) -> Result<GlobSet> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).with_context(|| format!("--exclude {g}: not a glob"))?);
    }
    Ok(b.build()?)
}

/// Whether `path` (below `root`) is excluded: globs match the path relative
/// to the scanned root, the absolute path, or the file or directory name.
fn excluded(set: &GlobSet, root: &Path, path: &Path) -> bool {
    if set.is_empty() {
        return false;
    }
    let rel = path.strip_prefix(root).unwrap_or(path);
    (!rel.as_os_str().is_empty() && set.is_match(rel))
        || set.is_match(path)
        || path.file_name().is_some_and(|n| set.is_match(n))
}

fn is_cuda(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "cu")
}

/// Every `.cu` file under `paths` (a named file is taken whatever its
/// extension) that no glob of `exclude` matches.
pub fn find(paths: &[PathBuf], exclude: &GlobSet) -> Found {
    let mut found = Found::default();
    let mut files = BTreeSet::new();
    let mut headers = BTreeSet::new();
    for root in paths {
        let root = match root.canonicalize() {
            Ok(r) => r,
            Err(e) => {
                found.skipped.push(Warning {
                    path: root.display().to_string(),
                    message: format!("cannot open: {e}"),
                });
                continue;
            }
        };
        if root.is_file() {
            files.insert(root);
            continue;
        }
        let walk = WalkDir::new(&root)
            .follow_links(true)
            .into_iter()
            .filter_entry(|e| !excluded(exclude, &root, e.path()));
        for entry in walk {
            match entry {
                Ok(e) if e.file_type().is_file() && is_cuda(e.path()) => {
                    headers.insert(e.path().to_path_buf());
                    files.insert(e.into_path());
                }
                Ok(e) if e.file_type().is_file() && crate::cuda::is_header_like(e.path()) => {
                    headers.insert(e.into_path());
                }
                Ok(_) => {}
                Err(e) => {
                    let path = e
                        .path()
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|| root.display().to_string());
                    // A broken link to something that is not a CUDA file is of no interest.
                    if e.path().is_none_or(is_cuda)
                        || e.io_error()
                            .is_some_and(|io| io.kind() != std::io::ErrorKind::NotFound)
                    {
                        found.skipped.push(Warning {
                            path,
                            message: format!("cannot read: {}", io_message(&e)),
                        });
                    }
                }
            }
        }
    }
    found.files = files.into_iter().collect();
    found.headers = headers.into_iter().collect();
    found
}

fn io_message(e: &walkdir::Error) -> String {
    match e.io_error() {
        Some(io) if io.kind() == std::io::ErrorKind::NotFound => "broken symbolic link".to_string(),
        Some(io) => io.to_string(),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "__global__ void k() {}\n").unwrap();
    }

    #[test]
    fn finds_cuda_files_and_honours_excludes() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().canonicalize().unwrap();
        for f in [
            "a.cu",
            "sub/b.cu",
            "vendor/c.cu",
            "sub/d.cuh",
            "sub/e.gen.cu",
        ] {
            touch(&root.join(f));
        }
        let set = exclude_set(&["vendor".into(), "*.gen.cu".into()]).unwrap();
        let found = find(std::slice::from_ref(&root), &set);
        let names: Vec<_> = found
            .files
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap().to_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["a.cu", "sub/b.cu"]);
        assert!(found.skipped.is_empty());
        // A file named on the command line is scanned even without `.cu`.
        let found = find(&[root.join("sub/d.cuh")], &exclude_set(&[]).unwrap());
        assert_eq!(found.files.len(), 1);
    }

    #[test]
    fn broken_links_and_missing_paths_are_warnings() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().canonicalize().unwrap();
        touch(&root.join("ok.cu"));
        std::os::unix::fs::symlink(root.join("gone.cu"), root.join("dangling.cu")).unwrap();
        let found = find(
            &[root.clone(), root.join("missing")],
            &exclude_set(&[]).unwrap(),
        );
        assert_eq!(found.files, [root.join("ok.cu")]);
        assert_eq!(found.skipped.len(), 2, "{:?}", found.skipped);
        assert!(found
            .skipped
            .iter()
            .any(|s| s.path.ends_with("dangling.cu") && s.message.contains("broken")));
        assert!(found.skipped.iter().any(|s| s.path.ends_with("missing")));
    }

    #[test]
    fn bad_globs_are_errors() {
        assert!(exclude_set(&["a[".into()]).is_err());
    }
}
