//! The synthetic families of the Faial paper's Fig. 17 (accesses, barriers,
//! conditionals, nested unsynchronized loops, nested synchronized loops) for
//! sizes 1–50, each checked by the real binary in its own process so that
//! time and peak memory belong to that size alone.
//!
//! Faial checks four families within 0.46 s and times out past 17 nested
//! synchronized loops. Growth is reported as ratios taken in this one run.

mod common;

use common::measure;
use std::io::Write;
use std::path::Path;
use std::process::Command;

const FAMILIES: [&str; 5] = [
    "accesses",
    "barriers",
    "conditionals",
    "unsync-loops",
    "sync-loops",
];

struct Sample {
    size: usize,
    ms: f64,
    peak_kib: i64,
    verdict: String,
}

fn main() {
    let bin = Path::new(env!("CARGO_BIN_EXE_drfscan"));
    let dir = std::env::temp_dir().join(format!("drfscan-families-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sizes: Vec<usize> = (1..=50).collect();
    let mut csv = String::from("family,size,ms,peak_kib,verdict\n");
    println!(
        "{:<14} {:>5} {:>10} {:>10}  verdict",
        "family", "size", "ms", "peak MiB"
    );
    for family in FAMILIES {
        let mut samples = Vec::new();
        for &size in &sizes {
            let gen = Command::new(bin)
                .args(["gen", family, &size.to_string()])
                .output()
                .expect("drfscan gen");
            let file = dir.join(format!("{family}-{size}.map"));
            std::fs::File::create(&file)
                .and_then(|mut f| f.write_all(&gen.stdout))
                .expect("write protocol");
            let (ms, peak_kib, out) = measure(
                Command::new(bin)
                    .arg("check-protocol")
                    .arg(&file)
                    .args(["--format", "json"]),
            );
            let verdict = serde_json::from_str::<serde_json::Value>(&out)
                .ok()
                .and_then(|v| {
                    v["files"][0]["arrays"][0]["verdict"]
                        .as_str()
                        .map(str::to_string)
                })
                .unwrap_or_else(|| "?".into());
            csv.push_str(&format!("{family},{size},{ms:.2},{peak_kib},{verdict}\n"));
            samples.push(Sample {
                size,
                ms,
                peak_kib,
                verdict,
            });
        }
        for s in samples
            .iter()
            .filter(|s| [1, 2, 5, 10, 17, 18, 25, 30, 40, 50].contains(&s.size))
        {
            println!(
                "{:<14} {:>5} {:>10.1} {:>10.1}  {}",
                family,
                s.size,
                s.ms,
                s.peak_kib as f64 / 1024.0,
                s.verdict
            );
        }
        let at = |n: usize| {
            samples
                .iter()
                .find(|s| s.size == n)
                .map(|s| s.ms)
                .unwrap_or(f64::NAN)
        };
        let worst = samples.iter().map(|s| s.ms).fold(0.0, f64::max);
        let non_drf = samples.iter().filter(|s| s.verdict != "drf").count();
        println!(
            "{:<14} time(50)/time(10) = {:.2}, time(50)/time(1) = {:.2}, slowest {:.1} ms, non-drf verdicts: {}\n",
            family,
            at(50) / at(10),
            at(50) / at(1),
            worst,
            non_drf
        );
    }
    let csv_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("families.csv");
    std::fs::write(&csv_path, csv).ok();
    println!("all samples: {}", csv_path.display());
    std::fs::remove_dir_all(&dir).ok();
}
