//! The labelled kernels parsed through a real CUDA toolkit's headers (NVIDIA's
//! header packages, which `make test` installs and names in
//! `DRFSCAN_TEST_CUDA_HEADERS`) agree with their labels, as they do with the
//! built-in headers.

use std::process::Command;

#[test]
fn datasets_agree_with_their_labels_through_real_toolkit_headers() {
    let Some(dir) = std::env::var_os("DRFSCAN_TEST_CUDA_HEADERS") else {
        eprintln!("DRFSCAN_TEST_CUDA_HEADERS is not set (`make test` sets it): skipped");
        return;
    };
    // Relative to the project when it is inside it, as users name it.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::path::Path::new(&dir)
        .strip_prefix(root)
        .map(|d| d.to_path_buf())
        .unwrap_or_else(|_| dir.clone().into());
    let cache = tempfile::tempdir().unwrap();
    let mut eval = Command::new(env!("CARGO_BIN_EXE_drfscan"));
    // Six times the default query limit: a few labelled kernels are proved
    // by one of the solver's restart strategies in about the limit its
    // first turn gets, and on a machine the other tests load that turn may
    // just miss, leaving the kernel `unknown` until the strategy's next
    // turn; more time changes no answer, only how soon it comes.
    eval.args([
        "eval",
        "datasets/",
        "--format",
        "json",
        "--timeout-ms",
        "30000",
    ])
    .arg("--cuda-path")
    .arg(&dir);
    // `make test` evaluates the datasets again with the built-in headers,
    // taking the solver's answers from here.
    if let Some(db) = std::env::var_os("DRFSCAN_TEST_EVAL_DB") {
        eval.arg("--db").arg(db);
    }
    let out = eval
        .env("XDG_CACHE_HOME", cache.path())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    // A mismatch shows in the report on stdout, a crash on stderr.
    assert!(
        out.status.success(),
        "eval failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mismatches: Vec<&serde_json::Value> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["ok"] == "NO")
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
    assert!(
        v["totals"]["kernels"].as_u64().unwrap() > 100,
        "{:#}",
        v["totals"]
    );
}
