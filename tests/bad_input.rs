//! Inputs a nightly scan meets in the wild, fed to the real binary: each is
//! a result or a warning naming the file, never a panic, never a hang past
//! the budgets, and the good files beside them keep their verdicts. Then a
//! mutation fuzz smoke over the datasets' files (`FUZZ_CASES` sets how many;
//! `make fuzz` runs more).

use proptest::prelude::*;
use serde_json::Value;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Output};

fn drfscan(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_drfscan"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn no_panic(out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {err}",
        out.status.code()
    );
}

const GOOD: &str =
    "__global__ void good(int *out) {\n  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n}\n";

#[test]
fn hostile_files_are_results_or_warnings_and_good_files_keep_their_verdicts() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("loop")).unwrap();
    std::fs::write(src.join("good.cu"), GOOD).unwrap();
    // Bytes of every value, NULs included.
    let noise: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(src.join("binary.cu"), &noise).unwrap();
    // Latin-1 in a comment, and a file name that is not UTF-8.
    let mut latin1 = b"// caf\xe9\n".to_vec();
    latin1.extend_from_slice(GOOD.replace("good", "latin1").as_bytes());
    std::fs::write(src.join("latin1.cu"), latin1).unwrap();
    let odd_name = std::ffi::OsStr::from_bytes(b"odd\xffname.cu");
    std::fs::write(src.join(odd_name), GOOD.replace("good", "odd_name")).unwrap();
    std::fs::write(src.join("empty.cu"), "").unwrap();
    // 10 MB: one kernel after a long comment.
    let mut big = String::with_capacity(10 << 20);
    while big.len() < 10 << 20 {
        big.push_str("// padding padding padding padding padding padding padding padding\n");
    }
    big.push_str(&GOOD.replace("good", "big"));
    std::fs::write(src.join("big.cu"), big).unwrap();
    // 10,000 nested blocks and parentheses.
    let n = 10_000;
    std::fs::write(
        src.join("blocks.cu"),
        format!(
            "__global__ void blocks(int *a) {}a[threadIdx.x] = 1;{}\n",
            "{".repeat(n + 1),
            "}".repeat(n + 1)
        ),
    )
    .unwrap();
    std::fs::write(
        src.join("parens.cu"),
        format!(
            "__global__ void parens(int *a) {{ a[threadIdx.x] = {}1{}; }}\n",
            "(".repeat(n),
            ")".repeat(n)
        ),
    )
    .unwrap();
    // A macro bomb: 2^40 tokens.
    let mut bomb = String::from("#define M0 threadIdx.x\n");
    for i in 1..=40 {
        bomb.push_str(&format!("#define M{i} (M{} + M{})\n", i - 1, i - 1));
    }
    bomb.push_str("__global__ void bomb(int *a) { a[threadIdx.x] = M40; }\n");
    std::fs::write(src.join("bomb.cu"), bomb).unwrap();
    // A directory link to its own parent.
    std::os::unix::fs::symlink(&src, src.join("loop/back")).unwrap();

    let out = drfscan(
        tmp.path(),
        &[
            "scan",
            "src",
            "--db",
            "h.db",
            "--format",
            "json",
            "--kernel-timeout",
            "5",
        ],
    );
    no_panic(&out);
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = drfscan(
        tmp.path(),
        &["sql", "--db", "h.db", "--format", "json",
          "SELECT k.path, k.name, r.verdict, r.reason FROM results r JOIN kernels k ON k.id = r.kernel_id"],
    );
    let rows: Vec<Value> = serde_json::from_slice(&rows.stdout).unwrap();
    let verdict = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .map(|r| r["verdict"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("no result for {name}: {rows:#?}"))
    };
    for good in ["good", "latin1", "odd_name", "big"] {
        assert_eq!(verdict(good), "drf", "{good}");
    }
    for hostile in ["blocks", "parens"] {
        assert!(
            matches!(verdict(hostile).as_str(), "error" | "unsupported"),
            "{hostile}"
        );
    }
    // The bomb: clang refuses it or the budget stops it.
    let bomb = rows
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("bomb.cu"))
        .expect("no result for bomb.cu");
    assert!(
        matches!(
            bomb["verdict"].as_str(),
            Some("error" | "unknown" | "unsupported")
        ),
        "{bomb}"
    );
    // Binary noise is the file's error; the loop and the empty file are not
    // worth a result.
    assert!(rows
        .iter()
        .any(|r| r["path"].as_str().unwrap().ends_with("binary.cu")));
    assert!(!rows
        .iter()
        .any(|r| r["path"].as_str().unwrap().ends_with("empty.cu")));
    assert_eq!(
        s["files"].as_u64().unwrap(),
        9,
        "the link loop is walked once: {s:#}"
    );
}

#[test]
fn a_database_that_is_not_one_is_refused_by_name_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src")).unwrap();
    std::fs::write(tmp.path().join("src/good.cu"), GOOD).unwrap();
    // A truncated real database: the header of one, then nothing.
    let out = drfscan(
        tmp.path(),
        &["scan", "src", "--db", "real.db", "--no-isolation"],
    );
    no_panic(&out);
    let bytes = std::fs::read(tmp.path().join("real.db")).unwrap();
    std::fs::write(tmp.path().join("cut.db"), &bytes[..bytes.len().min(100)]).unwrap();
    std::fs::write(tmp.path().join("text.db"), "SQLite format 3 but not really").unwrap();
    for db in ["cut.db", "text.db"] {
        let before = std::fs::read(tmp.path().join(db)).unwrap();
        let out = drfscan(tmp.path(), &["scan", "src", "--db", db]);
        assert_eq!(out.status.code(), Some(2), "{db}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(db) && !err.contains("panicked"), "{err}");
        assert_eq!(
            std::fs::read(tmp.path().join(db)).unwrap(),
            before,
            "{db} was written"
        );
    }
}

/// The datasets' `.cu` files, the seeds of the mutations.
fn seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        if entry.path().extension().is_some_and(|e| e == "cu") {
            if let Ok(b) = std::fs::read(entry.path()) {
                out.push(b);
            }
        }
    }
    out
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Overwrite a byte.
    Byte(usize, u8),
    /// Delete a range.
    Cut(usize, usize),
    /// Repeat a range.
    Repeat(usize, usize, u8),
    /// Insert a token CUDA code is made of.
    Insert(usize, &'static str),
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    "__syncthreads();",
    "threadIdx.x",
    "blockDim.x",
    "for (int i = 0; i < n; i++)",
    "if (",
    "while (1)",
    "goto end;",
    "#define X X\n",
    "#include \"x.h\"\n",
    "__shared__ int q[];",
    "template <int N>",
    "return;",
    "*",
    "&",
    "-1",
    "0x7fffffff",
    "/ 0",
    "\0",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        (any::<usize>(), 0usize..64).prop_map(|(i, n)| Mutation::Cut(i, n)),
        (any::<usize>(), 1usize..32, 1u8..8).prop_map(|(i, n, k)| Mutation::Repeat(i, n, k)),
        (any::<usize>(), proptest::sample::select(TOKENS))
            .prop_map(|(i, t)| Mutation::Insert(i, t)),
    ]
}

fn apply(mut text: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = text.len().max(1);
        match *m {
            Mutation::Byte(i, b) => {
                if !text.is_empty() {
                    text[i % len] = b;
                }
            }
            Mutation::Cut(i, n) => {
                let start = (i % len).min(text.len());
                let end = (start + n).min(text.len());
                text.drain(start..end);
            }
            Mutation::Repeat(i, n, k) => {
                let start = (i % len).min(text.len());
                let end = (start + n).min(text.len());
                let piece = text[start..end].to_vec();
                for _ in 0..k {
                    text.splice(end..end, piece.iter().copied());
                }
            }
            Mutation::Insert(i, t) => {
                let at = (i % len).min(text.len());
                text.splice(at..at, t.bytes());
            }
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(12),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Mutated dataset files (several per scan) never panic the scan nor
    /// leave it without a result or a warning for each.
    #[test]
    fn mutated_kernels_never_panic_a_scan(
        picks in proptest::collection::vec((any::<proptest::sample::Index>(), proptest::collection::vec(mutation(), 1..6)), 4)
    ) {
        let seeds = seeds();
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir_all(&src).unwrap();
        for (n, (pick, mutations)) in picks.iter().enumerate() {
            let seed = pick.get(&seeds).clone();
            std::fs::write(src.join(format!("m{n}.cu")), apply(seed, mutations)).unwrap();
        }
        let out = drfscan(
            tmp.path(),
            &["scan", "src", "--db", "f.db", "--format", "json", "--kernel-timeout", "5", "--timeout-ms", "2000"],
        );
        no_panic(&out);
        let s: Value = serde_json::from_slice(&out.stdout).unwrap();
        prop_assert_eq!(s["files"].as_u64().unwrap() as usize, picks.len());
    }
}
