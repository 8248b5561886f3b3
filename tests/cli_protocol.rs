//! `drfscan check-protocol` and `drfscan gen` run as a user runs them: the
//! real binary on real files, checking output and exit status.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn drfscan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_drfscan"))
        .args(args)
        .output()
        .expect("run drfscan")
}

fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

const LISTING_2_3: &str = "params N M;
array tile {
  for r in 0..N {
    for i in 0..M { wr[tid] }
    sync;
    for j in 0..M { rd[tid + j] }
  }
}
";

#[test]
fn racy_protocol_exits_1_with_a_witness_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "tile.map", LISTING_2_3.as_bytes());
    let out = drfscan(&["check-protocol", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let array = &v["files"][0]["arrays"][0];
    assert_eq!(array["name"], "tile");
    assert_eq!(array["verdict"], "racy");
    let race = &array["races"][0];
    let modes: Vec<&str> = race["accesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["mode"].as_str().unwrap())
        .collect();
    assert!(
        modes.contains(&"write") && modes.contains(&"read"),
        "{modes:?}"
    );
    // The race crosses iterations: the read of iteration r meets the write of r + 1.
    let g = &race["witness"]["globals"];
    assert!(
        g["r"].as_i64().unwrap() >= 0 && g["N"].as_i64().unwrap() >= 2,
        "{race}"
    );
    let t = &race["witness"]["threads"];
    assert_ne!(t[0]["tid.x"], t[1]["tid.x"]);
}

#[test]
fn drf_protocol_exits_0_and_text_names_the_array() {
    let dir = tempfile::tempdir().unwrap();
    let fixed = LISTING_2_3.replace(
        "for j in 0..M { rd[tid + j] }",
        "for j in 0..M { rd[tid + j] }\n    sync;",
    );
    let file = write(dir.path(), "tile.map", fixed.as_bytes());
    let out = drfscan(&["check-protocol", file.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("array tile: drf"), "{text}");
}

#[test]
fn text_output_underlines_both_accesses_and_tabulates_the_witness() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "r.map",
        b"array A {\n  wr[tid]\n  rd[tid + 1]\n}\n",
    );
    let out = drfscan(&["check-protocol", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("data race on `A`"), "{text}");
    assert!(
        text.contains("wr[tid]") && text.contains("rd[tid + 1]"),
        "{text}"
    );
    assert!(
        text.contains("thread 1") && text.contains("thread 2") && text.contains("tid.x"),
        "{text}"
    );
}

#[test]
fn sarif_has_one_result_per_race() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "r.map",
        b"array A {\n  wr[tid]\n  rd[tid + 1]\n}\n",
    );
    let out = drfscan(&[
        "check-protocol",
        file.to_str().unwrap(),
        "--format",
        "sarif",
    ]);
    let v = json(&out);
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{v}");
    assert_eq!(results[0]["ruleId"], "data-race");
}

#[test]
fn barrier_in_thread_dependent_loop_is_divergence() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "d.map",
        b"array A {\n  for i in 0..tid {\n    wr[tid]\n    sync\n  }\n}\n",
    );
    let out = drfscan(&["check-protocol", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let array = &json(&out)["files"][0]["arrays"][0];
    assert_eq!(array["verdict"], "divergent");
    assert_eq!(array["loc"]["line"], 4, "{array}");
}

#[test]
fn malformed_input_names_file_and_position_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        ("brace.map", b"array A {\n  wr[tid]\n", "brace.map:3:1"),
        (
            "unknown.map",
            b"array A {\n  wr[tid + k]\n}\n",
            "unknown.map:2:",
        ),
        ("bytes.map", b"array A {\n  wr[\xff]\n}\n", "UTF-8"),
        (
            "token.map",
            b"array A {\n  wr[tid $ 1]\n}\n",
            "token.map:2:10",
        ),
    ];
    for (name, text, needle) in cases {
        let file = write(dir.path(), name, text);
        let out = drfscan(&["check-protocol", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(all.contains(name) && all.contains(needle), "{name}: {all}");
    }
}

#[test]
fn one_bad_file_does_not_stop_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.map", b"array {");
    let good = write(dir.path(), "good.map", b"array A { wr[tid] }");
    let out = drfscan(&[
        "check-protocol",
        bad.to_str().unwrap(),
        good.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let v = json(&out);
    assert!(v["files"][0]["error"].is_string());
    assert_eq!(v["files"][1]["arrays"][0]["verdict"], "drf");
}

#[test]
fn empty_file_has_no_arrays() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "empty.map", b"");
    let out = drfscan(&["check-protocol", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no array"));
}

#[test]
fn missing_file_exits_2() {
    let out = drfscan(&["check-protocol", "/nonexistent/x.map"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.map"));
}

#[test]
fn every_stage_can_be_shown() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "tile.map", LISTING_2_3.as_bytes());
    for stage in ["protocol", "aligned", "split", "traces"] {
        let out = drfscan(&["check-protocol", file.to_str().unwrap(), "--show", stage]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{stage}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{stage}");
    }
}

#[test]
fn generated_families_are_drf() {
    let dir = tempfile::tempdir().unwrap();
    for family in [
        "accesses",
        "barriers",
        "conditionals",
        "unsync-loops",
        "sync-loops",
    ] {
        let gen = drfscan(&["gen", family, "6"]);
        assert_eq!(gen.status.code(), Some(0));
        let file = write(dir.path(), &format!("{family}.map"), &gen.stdout);
        let out = drfscan(&["check-protocol", file.to_str().unwrap(), "--format", "json"]);
        assert_eq!(
            json(&out)["files"][0]["arrays"][0]["verdict"],
            "drf",
            "{family}"
        );
    }
}

#[test]
fn witness_keeps_the_dimensions_of_every_axis_in_use() {
    // Only `tid.y` is read and `blockDim.y` is fixed by an assumption: the
    // witness must still carry it, or it would not replay.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "y.map",
        b"assume blockDim.y == 8;\narray A {\n  wr[tid.y]\n}\n",
    );
    let out = drfscan(&["check-protocol", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let array = &json(&out)["files"][0]["arrays"][0];
    assert_eq!(array["verdict"], "racy", "{array}");
    assert_eq!(array["races"][0]["witness"]["globals"]["blockDim.y"], 8);
}

#[test]
fn races_needing_large_values_are_found_after_small_ones() {
    // The first race has a witness within the small bound; the second needs
    // more than 600 threads. Both must be reported.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "far.map",
        b"array A {\n  wr[tid]\n  rd[tid + 1]\n  rd[tid + 600]\n}\n",
    );
    let out = drfscan(&["check-protocol", file.to_str().unwrap(), "--format", "json"]);
    let array = &json(&out)["files"][0]["arrays"][0];
    let races = array["races"].as_array().unwrap();
    assert_eq!(races.len(), 2, "{array:#}");
    let far = races
        .iter()
        .find(|r| {
            r["accesses"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["line"] == 4)
        })
        .expect("the far race");
    assert!(
        far["witness"]["globals"]["blockDim.x"].as_i64().unwrap() > 600,
        "{far}"
    );
}
