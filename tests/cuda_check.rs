//! `drfscan check` and `drfscan eval` on real CUDA files, through the built
//! binary: verdicts, exit statuses, JSON shape, and bad input that must get
//! a message and never a panic.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn drfscan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_drfscan"))
        .args(args)
        .output()
        .expect("drfscan runs")
}

fn dataset(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("datasets")
        .join(rel)
}

fn check_json(files: &[&Path], extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["check", "--format", "json"];
    args.extend_from_slice(extra);
    let paths: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    args.extend(paths.iter().map(String::as_str));
    let out = drfscan(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let json: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().expect("exit status"), json)
}

fn verdicts(json: &Value) -> Vec<(String, String)> {
    json["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["kernels"].as_array().unwrap().iter())
        .map(|k| {
            (
                k["name"].as_str().unwrap().to_string(),
                k["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn temp_file(dir: &tempfile::TempDir, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn read_index_pair_of_the_paper() {
    let (code, json) = check_json(&[&dataset("faial/read_index_drf.cu")], &[]);
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(verdicts(&json), vec![("read_index".into(), "drf".into())]);
    let (code, json) = check_json(&[&dataset("faial/read_index_racy.cu")], &[]);
    assert_eq!(code, 1);
    assert_eq!(verdicts(&json), vec![("read_index".into(), "racy".into())]);
}

#[test]
fn races_come_with_source_locations_and_witnesses() {
    let (code, json) = check_json(&[&dataset("faial/first_iter_racy.cu")], &[]);
    assert_eq!(code, 1);
    let kernel = &json["files"][0]["kernels"][0];
    assert_eq!(kernel["line"], 7);
    let race = &kernel["races"][0];
    assert_eq!(race["array"], "a");
    assert_eq!(race["confidence"], "confirmed");
    let lines: Vec<u64> = race["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["line"].as_u64().unwrap())
        .collect();
    assert!(lines.iter().all(|l| [10, 12].contains(l)), "{race:#}");
    assert!(race["accesses"][0]["column"].as_u64().unwrap() > 0);
    // Thread ids read as in CUDA.
    let t1 = race["witness"]["threads"][0].as_object().unwrap();
    assert!(t1.contains_key("threadIdx.x"), "{race:#}");
}

#[test]
fn classic_kernels_end_to_end() {
    for (file, verdict) in [
        ("classic/reduce_sequential_drf.cu", "drf"),
        ("classic/reduce_sequential_nosync_racy.cu", "racy"),
        ("classic/matmul_tiled_drf.cu", "drf"),
        ("classic/stencil_1d_nosync_racy.cu", "racy"),
        ("classic/matmul_guarded_sync_divergent.cu", "divergent"),
        ("constructs/switch_fallthrough_racy.cu", "racy"),
        ("constructs/pointer_alias_offset_drf.cu", "drf"),
    ] {
        let (_, json) = check_json(&[&dataset(file)], &[]);
        let v = verdicts(&json);
        assert!(!v.is_empty(), "{file}");
        assert!(v.iter().all(|(_, x)| x == verdict), "{file}: {v:?}");
    }
}

#[test]
fn bad_input_gets_a_verdict_and_other_files_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let good = temp_file(
        &dir,
        "good.cu",
        b"__global__ void ok(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n",
    );
    let not_cuda = temp_file(&dir, "notes.cu", b"Dear diary, today I wrote no kernels.\n");
    let syntax = temp_file(
        &dir,
        "syntax.cu",
        b"__global__ void broken(int *a) { a[threadIdx.x] = ; }\n__global__ void fine(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n",
    );
    let missing = temp_file(&dir, "missing.cu", b"#include \"nowhere_to_be_found.h\"\n__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n");
    let recursion = temp_file(
        &dir,
        "rec.cu",
        b"__device__ int f(const int *p, int n) { return n > 0 ? f(p, n - 1) : p[0]; }\n__global__ void rec(int *a) { a[threadIdx.x] = f(a, 2); }\n",
    );
    let fptr = temp_file(
        &dir,
        "fptr.cu",
        b"__global__ void fp(int *a, int (*g)(int)) { a[threadIdx.x] = g(1); }\n",
    );
    let ptx = temp_file(
        &dir,
        "ptx.cu",
        b"__global__ void ptx(int *a) { asm volatile(\"bar.sync 1, 64;\"); a[threadIdx.x] = 1; }\n",
    );
    let empty = temp_file(&dir, "empty.cu", b"");
    let binary = temp_file(&dir, "blob.cu", &[0u8, 159, 146, 150, 0, 1, 2]);
    let files = [
        &good, &not_cuda, &syntax, &missing, &recursion, &fptr, &ptx, &empty, &binary,
    ];
    let (code, json) = check_json(
        &files.map(|p| p.as_path()),
        &["--block-dim", "32", "--grid-dim", "4"],
    );
    assert_eq!(code, 2, "{json:#}");
    let by_path = |p: &Path| {
        json["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == p.display().to_string())
            .unwrap()
            .clone()
    };
    assert_eq!(by_path(&good)["kernels"][0]["verdict"], "drf");
    assert!(by_path(&not_cuda)["error"]
        .as_str()
        .unwrap()
        .contains("error"));
    let s = by_path(&syntax);
    assert_eq!(s["kernels"][0]["verdict"], "error");
    assert!(
        s["kernels"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("expected expression"),
        "{s:#}"
    );
    assert_eq!(s["kernels"][1]["verdict"], "drf");
    let m = by_path(&missing);
    assert!(
        m["error"]
            .as_str()
            .map(|e| e.contains("nowhere_to_be_found.h"))
            .unwrap_or(false)
            || m["kernels"][0]["verdict"] == "drf",
        "{m:#}"
    );
    for (p, what) in [
        (&recursion, "recursive"),
        (&fptr, "function pointer"),
        (&ptx, "assembly"),
    ] {
        let k = &by_path(p)["kernels"][0];
        assert_eq!(k["verdict"], "unsupported", "{k:#}");
        assert!(k["reason"].as_str().unwrap().contains(what), "{k:#}");
        assert!(k["loc"]["line"].as_u64().unwrap() >= 1);
    }
    assert_eq!(by_path(&empty)["kernels"].as_array().unwrap().len(), 0);
    assert!(by_path(&empty)["error"].is_null());
    assert!(by_path(&binary)["error"].as_str().is_some());
}

#[test]
fn text_output_for_an_unreadable_file_and_a_missing_include() {
    let out = drfscan(&["check", "/nonexistent/dir/kernel.cu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("/nonexistent/dir/kernel.cu: cannot read")
    );
    let out = drfscan(&[
        "check",
        &dataset("bad/missing_include.cu").display().to_string(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    assert!(
        text.contains("missing_include.cu:6: kernel uses_missing_header: error"),
        "{text}"
    );
    // A missing header the kernel does not need: a warning, and a verdict.
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(&dir, "mi.cu", b"#include \"nope.h\"\n__global__ void k(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n");
    let out = drfscan(&[
        "check",
        "--block-dim",
        "32",
        "--grid-dim",
        "2",
        &p.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("kernel k: drf"));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("warning: ")
            && String::from_utf8_lossy(&out.stderr).contains("'nope.h' file not found")
    );
    let out = drfscan(&["check", &dataset("bad/not_cuda.cu").display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not_cuda.cu:"),
        "{out:?}"
    );
}

#[test]
fn a_five_megabyte_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut src = String::from("__global__ void big(int *a, int n) {\n");
    let mut i = 0;
    while src.len() < 5 * 1024 * 1024 {
        src.push_str(&format!(
            "  if (n == {i}) a[blockIdx.x * blockDim.x + threadIdx.x] = {i};\n"
        ));
        i += 1;
    }
    src.push_str("}\n");
    // Many kernels too, each small.
    for k in 0..50 {
        src.push_str(&format!(
            "__global__ void small{k}(int *a) {{ a[threadIdx.x] = blockIdx.x + {k}; }}\n"
        ));
    }
    let p = temp_file(&dir, "big.cu", src.as_bytes());
    let (_, json) = check_json(&[&p], &["--kernel", "small7", "--kernel", "small8"]);
    assert_eq!(
        verdicts(&json),
        vec![
            ("small7".into(), "racy".into()),
            ("small8".into(), "racy".into())
        ]
    );
}

#[test]
fn deeply_nested_code() {
    let dir = tempfile::tempdir().unwrap();
    let mut src = String::from("__global__ void sum(int *a) { int x = threadIdx.x");
    src.push_str(&" + threadIdx.x".repeat(6_000));
    src.push_str("; a[x] = 1; }\n__global__ void ifs(int *a) { ");
    src.push_str(&"if (a[0]) {".repeat(200));
    src.push_str(&"}".repeat(200));
    src.push_str(
        " }\n__global__ void fine(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n",
    );
    let p = temp_file(&dir, "deep.cu", src.as_bytes());
    let (_, json) = check_json(&[&p], &["--block-dim", "32", "--grid-dim", "2"]);
    let v = verdicts(&json);
    assert_eq!(v[0], ("sum".into(), "unsupported".into()));
    assert_eq!(v[1], ("ifs".into(), "drf".into()));
    assert_eq!(v[2], ("fine".into(), "drf".into()));
}

#[test]
fn many_clang_errors_are_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let body = "a[0] = ;".repeat(40);
    let p = temp_file(
        &dir,
        "errs.cu",
        format!("__global__ void k(int *a) {{ {body} }}\n").as_bytes(),
    );
    let (code, json) = check_json(&[&p], &[]);
    assert_eq!(code, 2);
    let reason = json["files"][0]["kernels"][0]["reason"].as_str().unwrap();
    assert!(
        reason.lines().count() <= 6 && reason.contains("more errors"),
        "{reason}"
    );
}

#[test]
fn launch_options_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(
        &dir,
        "k.cu",
        b"__global__ void k(int *a) { __shared__ int s[64]; s[threadIdx.x] = 1; __syncthreads(); a[threadIdx.x] = s[63 - threadIdx.x]; }\n",
    );
    // Several blocks write the same cells of `a`.
    let (code, _) = check_json(&[&p], &["--block-dim", "64"]);
    assert_eq!(code, 1);
    let (code, json) = check_json(&[&p], &["--block-dim", "64", "--grid-dim", "1"]);
    assert_eq!(code, 0, "{json:#}");
    let out = drfscan(&["check", "--block-dim", "0", &p.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--block-dim"));
}

#[test]
fn eval_compares_labels() {
    let dir = tempfile::tempdir().unwrap();
    temp_file(&dir, "a_drf.cu", b"// expect: drf\n// options: --block-dim 32 --grid-dim 1\n__global__ void k(int *a) { a[threadIdx.x] = 1; }\n");
    temp_file(
        &dir,
        "b_racy.cu",
        b"// expect: racy\n__global__ void k(int *a) { a[0] = threadIdx.x; }\n",
    );
    temp_file(
        &dir,
        "unlabelled.cu",
        b"__global__ void k(int *a) { a[0] = 1; }\n",
    );
    let out = drfscan(&["eval", &dir.path().display().to_string()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("2 kernels: 1 DRF proved, 1 races found, 0 false alarms, 0 known false alarms, 0 missed races"), "{text}");
    assert!(!text.contains("unlabelled.cu"));
    // A wrong label is a mismatch.
    temp_file(
        &dir,
        "c_wrong.cu",
        b"// expect: drf\n__global__ void k(int *a) { a[0] = threadIdx.x; }\n",
    );
    let out = drfscan(&[
        "eval",
        "--format",
        "json",
        &dir.path().display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["totals"]["false_alarms"], 1);
}

#[test]
fn eval_keeps_solver_answers_in_a_database_and_takes_them_back() {
    let dir = tempfile::tempdir().unwrap();
    temp_file(
        &dir,
        "a_drf.cu",
        b"// expect: drf\n__global__ void k(int *a) { a[threadIdx.x] = 1; }\n",
    );
    temp_file(
        &dir,
        "b_racy.cu",
        b"// expect: racy\n__global__ void k(int *a) { a[threadIdx.x / 2] = threadIdx.x; }\n",
    );
    let db = dir.path().join("answers.db");
    let run = || {
        let out = drfscan(&[
            "eval",
            "--format",
            "json",
            "--db",
            &db.display().to_string(),
            &dir.path().display().to_string(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let first = run();
    let kept = || {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.query_row("SELECT count(*) FROM solver_cache", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap()
    };
    let entries = kept();
    assert!(entries > 0);
    // The second run asks nothing new and reports the same.
    assert_eq!(run(), first);
    assert_eq!(kept(), entries);
    // A database that cannot be opened is named.
    let out = drfscan(&[
        "eval",
        "--db",
        &dir.path().display().to_string(),
        &dir.path().display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&dir.path().display().to_string()), "{err}");
}

#[test]
fn known_false_alarms_accept_only_possible_races() {
    let dir = tempfile::tempdir().unwrap();
    // The index is read from memory: the race is only possible.
    temp_file(
        &dir,
        "possible.cu",
        b"// expect: drf
// options: --block-dim 32 --grid-dim 1
// known false alarm: slots come from memory
__global__ void k(int *a, const int *slot) { a[slot[threadIdx.x]] = threadIdx.x; }
",
    );
    let out = drfscan(&[
        "eval",
        "--format",
        "json",
        &dir.path().display().to_string(),
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{json:#}");
    assert_eq!(json["totals"]["known_false_alarms"], 1);
    // A confirmed race is never excused by the marker.
    temp_file(
        &dir,
        "confirmed.cu",
        b"// expect: drf
// options: --block-dim 32 --grid-dim 1
// known false alarm: none really
__global__ void k(int *a) { a[0] = threadIdx.x; }
",
    );
    let out = drfscan(&[
        "eval",
        "--format",
        "json",
        &dir.path().display().to_string(),
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{json:#}");
    assert_eq!(json["totals"]["false_alarms"], 1);
}

#[test]
fn show_protocol_prints_the_inferred_protocol() {
    let out = drfscan(&[
        "check",
        "--show-protocol",
        &dataset("faial/first_iter_drf.cu").display().to_string(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("array a {"), "{text}");
    assert!(text.contains("for x in 0..n"), "{text}");
}

#[test]
fn benign_races_are_listed_and_strict_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(
        &dir,
        "flag.cu",
        b"__global__ void reset(int *flag) { flag[0] = 0; }\n",
    );
    let (code, json) = check_json(&[&p], &[]);
    assert_eq!(code, 0, "{json:#}");
    let k = &json["files"][0]["kernels"][0];
    assert_eq!(k["verdict"], "drf", "{k:#}");
    assert_eq!(
        k["arrays"][0]["benign"].as_array().unwrap().len(),
        1,
        "{k:#}"
    );
    let out = drfscan(&["check", &p.display().to_string()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("drf (1 benign race)") && text.contains("note: benign race on `flag`"),
        "{text}"
    );
    let (code, json) = check_json(&[&p], &["--strict"]);
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(json["files"][0]["kernels"][0]["verdict"], "racy");
    let sarif = drfscan(&["check", "--format", "sarif", &p.display().to_string()]);
    let sarif: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "benign-race");
    assert_eq!(sarif["runs"][0]["results"][0]["level"], "note");
}

#[test]
fn inferred_launches_are_shown() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(
        &dir,
        "launched.cu",
        b"__global__ void k(int *a) { a[threadIdx.x % 64] = threadIdx.x; }\nvoid run(int *a) { k<<<1, 64>>>(a); }\n",
    );
    let (code, json) = check_json(&[&p], &[]);
    assert_eq!(code, 0, "{json:#}");
    let k = &json["files"][0]["kernels"][0];
    assert_eq!(k["verdict"], "drf", "{k:#}");
    let launch = k["launches"][0].as_str().unwrap();
    assert!(
        launch.starts_with("<<<(1, 1, 1), (64, 1, 1)>>> at ") && launch.ends_with(":2:20"),
        "{launch}"
    );
}

#[test]
fn a_block_width_the_kernel_assumes_is_suggested_as_a_precondition() {
    let (code, json) = check_json(
        &[&dataset("launches/library_tile_width_assumed_racy.cu")],
        &[],
    );
    assert_eq!(code, 1, "{json:#}");
    let kernel = &json["files"][0]["kernels"][0];
    let races: Vec<&Value> = kernel["arrays"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["races"].as_array().unwrap())
        .collect();
    assert!(!races.is_empty(), "{json:#}");
    for r in races {
        assert_eq!(r["confidence"], "possible", "{r:#}");
        assert_eq!(r["precondition"], "blockDim.x <= 64", "{r:#}");
    }
    let out = drfscan(&[
        "check",
        dataset("launches/library_tile_width_assumed_racy.cu")
            .to_str()
            .unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("help: no race on `s` if callers ensure `__requires(blockDim.x <= 64)`"),
        "{text}"
    );
    assert!(
        text.contains("only for some parameter values or launch sizes"),
        "{text}"
    );
}

#[test]
fn races_at_block_sizes_host_code_hides_are_possible_and_say_why() {
    let file = dataset("launches/launched_through_pointer_table_racy.cu");
    let (code, json) = check_json(&[&file], &[]);
    assert_eq!(code, 1, "{json:#}");
    let kernels = json["files"][0]["kernels"].as_array().unwrap();
    let copy = kernels.iter().find(|k| k["name"] == "tile_copy").unwrap();
    assert_eq!(copy["verdict"], "racy", "{json:#}");
    for r in copy["races"].as_array().unwrap() {
        assert_eq!(r["confidence"], "possible", "{r:#}");
    }
    assert!(
        copy["approximations"][0]
            .as_str()
            .unwrap()
            .contains("takes the kernel's address"),
        "{copy:#}"
    );
    let out = drfscan(&["check", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "note: races in `tile_copy` are possible: host code takes the kernel's address"
        ),
        "{text}"
    );
}

#[test]
fn a_mask_only_a_power_of_two_makes_safe_asks_for_one() {
    // Without the dataset's `__requires(__is_pow2(stride))`, a stride of 3
    // pairs threads 1 and 2 on one key: the kernel is not proved, and what
    // proves it is said.
    let source = std::fs::read_to_string(dataset("constructs/requires_pow2_stride_drf.cu"))
        .unwrap()
        .replace("__requires(__is_pow2(stride));", "");
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "merge_step.cu", source.as_bytes());
    // `racy` exits 1, `unknown` 0.
    let (code, json) = check_json(&[&file], &["--timeout-ms", "500"]);
    assert!(code == 0 || code == 1, "{json:#}");
    let kernel = &json["files"][0]["kernels"][0];
    let wanted = "__is_pow2(stride)";
    let arrays = kernel["arrays"].as_array().unwrap();
    let told = arrays.iter().any(|a| match a["verdict"].as_str() {
        Some("racy") => a["races"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["precondition"] == wanted && r["confidence"] == "possible"),
        Some("unknown") => a["reason"].as_str().unwrap_or("").contains(wanted),
        _ => false,
    });
    assert!(told, "{json:#}");
}

/// The preconditions the races of a racy dataset kernel are told, one per
/// race; every race must be possible.
fn told_preconditions(rel: &str) -> Vec<String> {
    // The search has a fraction of a second by default, which a machine
    // busy with the other tests may not give it.
    let (code, json) = check_json(&[&dataset(rel)], &["--precondition-patience", "50"]);
    assert_eq!(code, 1, "{json:#}");
    let kernel = &json["files"][0]["kernels"][0];
    let mut told = Vec::new();
    for a in kernel["arrays"].as_array().unwrap() {
        for r in a["races"].as_array().unwrap() {
            assert_eq!(r["confidence"], "possible", "{json:#}");
            told.push(r["precondition"].as_str().unwrap_or("").to_string());
        }
    }
    assert!(!told.is_empty(), "{json:#}");
    told
}

#[test]
fn a_block_of_whole_warps_is_the_precondition_of_warp_rows() {
    let told = told_preconditions("constructs/warps_of_a_block_racy.cu");
    assert!(told.iter().all(|p| p == "blockDim.x % 32 == 0"), "{told:?}");
}

#[test]
fn a_row_length_is_the_precondition_of_a_column_an_early_return_bounds() {
    // `if (x > last) return;` before rows of `stride + 2` cells: the guard's
    // bound, not the launch's extent, names the row the column stays in.
    let told = told_preconditions("launches/halo_rows_below_a_guard_bound_racy.cu");
    assert!(told.iter().all(|p| p == "last <= stride"), "{told:?}");
}

#[test]
fn a_flat_block_is_the_precondition_of_a_ticket_thread_zero_takes() {
    // The ticket is the block's only in a one-dimensional block: the
    // kernel lowered so proves `data` too, not only `item`.
    let told = told_preconditions("constructs/flat_block_by_rank_racy.cu");
    assert!(
        told.iter()
            .all(|p| p == "blockDim.y == 1 && blockDim.z == 1"),
        "{told:?}"
    );
}

#[test]
fn a_block_one_warp_wide_is_the_precondition_of_lane_zero_rows() {
    // The modulus is in the condition of the write (`lane == 0`), not in
    // its index.
    let told = told_preconditions("constructs/warp_per_row_lane_zero_racy.cu");
    assert!(told.iter().all(|p| p == "blockDim.x <= 32"), "{told:?}");
}

#[test]
fn a_tile_sized_for_the_block_asks_for_that_block() {
    // The width comes from the race's own witness: the tile's size is
    // nowhere in the indices.
    let told = told_preconditions("launches/halo_tile_sized_for_its_block_racy.cu");
    assert!(told.iter().all(|p| p == "blockDim.x <= 32"), "{told:?}");
}

#[test]
fn a_block_bound_is_the_widest_that_proves_the_kernel() {
    // The warp's 32 in `threadIdx.x % 32` removes the race too, but blocks
    // up to 512 threads are safe.
    let told = told_preconditions("launches/warp_slots_after_the_largest_block_racy.cu");
    assert!(
        !told.is_empty() && told.iter().all(|p| p == "blockDim.x <= 512"),
        "{told:?}"
    );
}

#[test]
fn races_that_need_a_block_larger_than_a_gpu_runs_are_none() {
    for name in [
        "launches/warp_slots_after_the_largest_block_drf.cu",
        "launches/warp_slots_after_a_2d_block_drf.cu",
    ] {
        let (code, json) = check_json(&[&dataset(name)], &[]);
        assert_eq!(code, 0, "{name}: {json:#}");
    }
    // Within the limits the twin still races, in a block a GPU runs.
    let (code, json) = check_json(
        &[&dataset("launches/warp_slots_after_a_2d_block_racy.cu")],
        &[],
    );
    assert_eq!(code, 1, "{json:#}");
    let race = &json["files"][0]["kernels"][0]["races"][0];
    assert!(
        race["witness"]["globals"]["blockDim.x"].is_i64(),
        "{json:#}"
    );
    let size = |d: &str| race["witness"]["globals"][d].as_i64().unwrap_or(1);
    assert!(size("blockDim.x") * size("blockDim.y") <= 1024, "{race:#}");
}

#[test]
fn divergence_names_two_threads_and_the_precondition_that_removes_it() {
    let file = dataset("constructs/early_return_required_multiple_divergent.cu");
    let (code, json) = check_json(&[&file], &[]);
    assert_eq!(code, 1, "{json:#}");
    let kernel = &json["files"][0]["kernels"][0];
    assert_eq!(kernel["verdict"], "divergent", "{json:#}");
    let reason = kernel["reason"].as_str().unwrap();
    assert!(reason.contains(" disagree when "), "{reason}");
    assert!(
        reason.ends_with("no divergence if callers ensure `__requires(n % blockDim.x == 0)`"),
        "{reason}"
    );
    // With that precondition the kernel is proved: the same file with it
    // is the dataset's drf twin.
    let (code, json) = check_json(
        &[&dataset("constructs/early_return_required_multiple_drf.cu")],
        &[],
    );
    assert_eq!(code, 0, "{json:#}");
    // A size the host's launch fixes is still named, not its value.
    let file = dataset("launches/early_return_block_from_the_command_line_divergent.cu");
    let (code, json) = check_json(&[&file], &[]);
    assert_eq!(code, 1, "{json:#}");
    let kernel = &json["files"][0]["kernels"][0];
    assert_eq!(kernel["verdict"], "divergent", "{json:#}");
    let reason = kernel["reason"].as_str().unwrap();
    assert!(
        reason.ends_with("no divergence if callers ensure `__requires(n % blockDim.x == 0)`"),
        "{reason}"
    );
}

#[test]
fn host_code_calling_the_c_library_parses_and_its_launch_is_read() {
    // Error reports to stderr, buffers from malloc, sizes from argv: with
    // the built-in headers, such a main once failed to parse and its launch
    // went unread, leaving the kernel's block free.
    let source = br#"#include <stdio.h>
#include <stdlib.h>
#include <cstdlib>
#define CHECK(call) { if ((call) != 0) { fprintf(stderr, "error %d\n", __LINE__); exit(EXIT_FAILURE); } }
__global__ void scale(float *a) {
  __shared__ float s[64];
  s[threadIdx.x] = a[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  a[blockIdx.x * 64 + threadIdx.x] = 2.0f * s[63 - threadIdx.x];
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  long m = std::strtol("64", nullptr, 10);
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  scale<<<n / 64, 64>>>(d);
  free(h);
  return (int)m - 64;
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "host.cu", source);
    assert_parses_drf_launched(&file, &[], "(64, 1, 1)");
}

/// Host code built on the C++ standard library, and device code calling
/// its math (`std::sqrt`, `pow(x, 2)` through `<cmath>`'s templates).
const HOST_CPP: &[u8] = br#"#include <string>
#include <vector>
#include <iostream>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
__global__ void norms(const float *v, float *out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x] = std::sqrt(fabsf(v[i])) + pow(v[i], 2) + std::max(v[i], 0.0f) + abs(-1);
  __syncthreads();
  if (!isnan(s[127 - threadIdx.x])) out[i] = s[127 - threadIdx.x];
}
int main(int argc, char **argv) {
  std::vector<float> h(1 << 20);
  std::string name = argc > 1 ? argv[1] : "out.txt";
  FILE *f = fopen(name.c_str(), "w");
  if (!f) { fprintf(stderr, "cannot open %s\n", name.c_str()); return EXIT_FAILURE; }
  float *v, *out;
  cudaMalloc(&v, h.size() * sizeof(float));
  cudaMalloc(&out, h.size() * sizeof(float));
  norms<<<h.size() / 128, 128>>>(v, out, (int)h.size());
  std::cout << std::sqrt(2.0) << std::endl;
  printf("%d\n", abs(-3));
  fclose(f);
  return 0;
}
"#;

/// `check --format json` on `file` with `extra` flags: the file parses
/// without errors, and its one kernel is `drf` under the launch its host
/// code makes of blocks of `block` (`"(64, 1, 1)"`).
fn assert_parses_drf_launched(file: &Path, extra: &[&str], block: &str) {
    let mut args = vec!["check", "--format", "json"];
    args.extend(extra);
    args.push(file.to_str().unwrap());
    let out = drfscan(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("error:"), "{stderr}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let kernel = &json["files"][0]["kernels"][0];
    assert_eq!(kernel["verdict"], "drf", "{json:#}");
    let launch = kernel["launches"][0].as_str().unwrap_or("");
    assert!(launch.contains(block), "{json:#}");
}

#[test]
fn host_code_on_the_cpp_library_and_device_math_through_std_parse() {
    // The built-in headers once shadowed the system's <stdio.h> with a
    // `FILE` of their own and left <cmath> empty: <string> then failed to
    // parse and `std::sqrt` did not exist. The system's headers are used,
    // and the device side of their functions overloads them.
    let dir = tempfile::tempdir().unwrap();
    assert_parses_drf_launched(
        &temp_file(&dir, "norms.cu", HOST_CPP),
        &["--cuda-path", "builtin"],
        "(128, 1, 1)",
    );
}

#[test]
fn without_system_headers_the_built_in_fallbacks_serve_the_c_library() {
    // A freestanding build (`-nostdlibinc`): <stdio.h>, <cmath> and the
    // rest come from drfscan's fallbacks, for host and device alike. No
    // C++ library either, so only the C headers.
    let dir = tempfile::tempdir().unwrap();
    let source = br#"#include <stdio.h>
#include <stdlib.h>
#include <cmath>
#include <cstdlib>
__global__ void norms(const float *v, float *out) {
  __shared__ float s[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x] = std::sqrt(fabsf(v[i])) + powf(v[i], 2.0f) + abs(-1);
  __syncthreads();
  if (!isnan(s[127 - threadIdx.x])) out[i] = s[127 - threadIdx.x];
  printf("%f\n", s[0]);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  float *v = (float *)malloc(n * sizeof(float)), *out;
  if (!v) { fprintf(stderr, "out of memory\n"); exit(EXIT_FAILURE); }
  norms<<<n / 128, 128>>>(v, out);
  printf("%f %d\n", sqrt(2.0), abs(-3));
  return 0;
}
"#;
    let file = temp_file(&dir, "norms.cu", source);
    let commands = format!(
        r#"[{{"directory": "{}", "file": "norms.cu", "command": "clang++ -nostdlibinc -nostdinc++ -c norms.cu"}}]"#,
        dir.path().display()
    );
    let db = temp_file(&dir, "compile_commands.json", commands.as_bytes());
    assert_parses_drf_launched(
        &file,
        &[
            "--cuda-path",
            "builtin",
            "--compile-commands",
            db.to_str().unwrap(),
        ],
        "(128, 1, 1)",
    );
}

#[test]
fn strides_of_a_tensor_are_asked_to_nest() {
    // Each stride at least the one inside it times that one's extent, the
    // innermost beyond a row: a product of sizes, no single bound.
    let told = told_preconditions("realworld/tensor_strides_nested_racy.cu");
    assert!(
        told.iter()
            .all(|p| p == "nb1 >= ne00 && nb2 >= nb1 * gridDim.x && nb3 >= nb2 * gridDim.y"),
        "{told:?}"
    );
}

#[test]
fn a_precondition_that_switches_the_racing_code_off_is_not_suggested() {
    // Zeroing and atomic adds race for any size with work to do; sizes
    // that leave no elements remove the adds, not the race.
    let told = told_preconditions("realworld/histograms_zeroed_then_added_racy.cu");
    assert!(told.iter().all(String::is_empty), "{told:?}");
}

#[test]
fn attention_tiles_are_asked_to_end_within_the_rows() {
    // Tr = ceil(N / 32) tiles of 32 rows reach the next head's rows unless
    // N fills them; the launch fixes Br = 32, so the suggestion says 32.
    let told = told_preconditions("realworld/attention_tiles_past_the_rows_racy.cu");
    assert!(told.iter().all(|p| p == "N >= 32 * Tr"), "{told:?}");
}

#[test]
fn a_stride_the_host_sets_in_constant_memory_is_a_caller_s_choice() {
    // `__constant__ int row_stride`, set by `cudaMemcpyToSymbol`: the
    // precondition names it as it would a parameter.
    let told = told_preconditions("realworld/row_stride_in_constant_memory_racy.cu");
    assert!(
        told.iter().all(|p| p == "row_stride >= blockDim.x"),
        "{told:?}"
    );
    let (code, json) = check_json(
        &[&dataset("realworld/row_stride_in_constant_memory_drf.cu")],
        &[],
    );
    assert_eq!(code, 0, "{json:#}");
}

#[test]
fn a_flat_index_within_a_plane_is_asked_to_fit_the_plane() {
    // `b * C * H * W + c * H * W + i` under `i < n`: the pixel count within
    // one plane, a product of two sizes.
    let told = told_preconditions("realworld/channel_planes_flat_index_racy.cu");
    assert!(told.iter().all(|p| p == "n <= out_h * out_w"), "{told:?}");
    let (code, json) = check_json(
        &[&dataset("realworld/channel_planes_flat_index_drf.cu")],
        &[],
    );
    assert_eq!(code, 0, "{json:#}");
}

#[test]
fn a_padded_volume_is_asked_to_hold_rows_and_planes() {
    // `(z * Dy + y) * Dx + x` under `x < Sx && y < Sy`: both lengths at
    // once, neither alone removes the races.
    let told = told_preconditions("realworld/padded_volume_copy_racy.cu");
    assert!(told.iter().all(|p| p == "Sx <= Dx && Sy <= Dy"), "{told:?}");
}

#[test]
fn planes_of_a_structure_of_arrays_are_asked_to_hold_the_grid() {
    // `id + 2 * plane`: the plane is added a constant number of times,
    // and must exceed the thread's part of the index over the grid.
    let told = told_preconditions("realworld/planes_of_a_structure_of_arrays_racy.cu");
    assert!(
        told.iter().all(|p| p == "plane >= 512 * gridDim.x"),
        "{told:?}"
    );
}
