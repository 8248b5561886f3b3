//! Measuring helpers the benchmarks share.

// Each benchmark uses only some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Runs `cmd`; returns (wall ms, peak resident KiB of the child, stdout).
pub fn measure(cmd: &mut Command) -> (f64, i64, String) {
    let started = Instant::now();
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.expect("stdout");
    let mut out = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut out).ok();
    let mut status = 0;
    // SAFETY: rusage is plain data, and pid is our own unwaited child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    (started.elapsed().as_secs_f64() * 1e3, usage.ru_maxrss, out)
}

/// Milliseconds of `clang-19 -fsyntax-only` over `files` on `jobs` threads,
/// with the headers the front-end serves from memory written under
/// `scratch`: without them clang stops at the first undeclared CUDA builtin
/// and the floor would be too low.
pub fn clang_floor(files: &[PathBuf], scratch: &Path, jobs: usize) -> f64 {
    let include = scratch.join("include");
    for (name, bytes) in drfscan::cuda::prelude::files() {
        let rel = name
            .trim_start_matches(drfscan::cuda::prelude::DIR)
            .trim_start_matches('/');
        let path = include.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).expect("include dir");
        std::fs::write(&path, bytes).expect("write header");
    }
    let forced = include.join("drfscan_prelude.h");
    let (include, forced) = (&include, &forced);
    let started = Instant::now();
    std::thread::scope(|s| {
        for chunk in files.chunks(files.len().div_ceil(jobs.max(1)).max(1)) {
            s.spawn(move || {
                for f in chunk {
                    let _ = Command::new("clang-19")
                        .args([
                            "-x",
                            "cuda",
                            "--cuda-device-only",
                            "-nocudainc",
                            "-nocudalib",
                            "-std=c++17",
                            "-fsyntax-only",
                            "-w",
                        ])
                        .arg(format!("-I{}", include.display()))
                        .arg("-include")
                        .arg(forced)
                        .arg(f)
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .status();
                }
            });
        }
    });
    started.elapsed().as_secs_f64() * 1e3
}
