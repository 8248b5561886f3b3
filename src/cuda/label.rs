//! What a file says about itself: our label (`// expect: racy` on line 1,
//! optionally `// options: --block-dim 256 --grid-dim 4 --param n=1024` on
//! line 2) or a GPUVerify header (`//pass` or `//xfail:…`, then
//! `//--blockDim=[x,y,z] --gridDim=[x,y,z]`).

use super::Expectation;

/// The reason of a `// known false alarm: …` line among the first lines.
fn known_false_alarm(src: &str) -> Option<String> {
    src.lines()
        .take(6)
        .find_map(|l| {
            l.trim()
                .strip_prefix("//")
                .map(str::trim)
                .and_then(|r| r.strip_prefix("known false alarm:"))
        })
        .map(|r| r.trim().to_string())
}

/// The expectation, and the `--param` values of a label's options line.
pub fn read(src: &str) -> (Option<Expectation>, Vec<(String, i64)>) {
    let mut lines = src.lines().map(str::trim);
    let first = lines.next().unwrap_or("");
    let second = lines.next().unwrap_or("");
    if let Some(rest) = first
        .strip_prefix("//")
        .map(str::trim)
        .and_then(|r| r.strip_prefix("expect:"))
    {
        let verdict = rest.split_whitespace().next().unwrap_or("").to_lowercase();
        let mut exp = Expectation {
            verdict,
            block_dim: None,
            grid_dim: None,
            known_false_alarm: known_false_alarm(src),
            defines: Vec::new(),
            warp_sync: None,
        };
        let mut params = Vec::new();
        if let Some(opts) = second
            .strip_prefix("//")
            .map(str::trim)
            .and_then(|r| r.strip_prefix("options:"))
        {
            let words: Vec<&str> = opts.split_whitespace().collect();
            let mut i = 0;
            while i < words.len() {
                let (flag, value) = match words[i].split_once('=') {
                    Some((f, v)) => (f, Some(v)),
                    None => (words[i], words.get(i + 1).copied()),
                };
                let used_next = !words[i].contains('=');
                match flag {
                    "--block-dim" => exp.block_dim = value.and_then(parse_dim),
                    "--grid-dim" => exp.grid_dim = value.and_then(parse_dim),
                    "--warp-sync" => exp.warp_sync = value.and_then(|v| v.parse().ok()),
                    "--param" => {
                        if let Some((n, v)) = value.and_then(|v| v.split_once('=')) {
                            if let Ok(v) = v.trim().parse() {
                                params.push((n.trim().to_string(), v));
                            }
                        }
                    }
                    _ => {}
                }
                i += if used_next && value.is_some() { 2 } else { 1 };
            }
        }
        return (Some(exp), params);
    }
    let head = first.strip_prefix("//").map(str::trim).unwrap_or("");
    let verdict = if head == "pass" {
        "drf".to_string()
    } else if let Some(rest) = head.strip_prefix("xfail:") {
        // GPUVerify names the failure it expects; a race is what matters here.
        let rest = rest.trim().to_lowercase();
        let context: String = src
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if context.contains("race") {
            "racy".to_string()
        } else if context.contains("barrier") || context.contains("divergence") {
            "divergent".to_string()
        } else {
            format!("xfail:{rest}")
        }
    } else {
        return (None, Vec::new());
    };
    let mut exp = Expectation {
        verdict,
        block_dim: None,
        grid_dim: None,
        known_false_alarm: known_false_alarm(src),
        defines: Vec::new(),
        warp_sync: None,
    };
    let opts = second.strip_prefix("//").unwrap_or("");
    let words: Vec<&str> = opts.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        if let Some(v) = word.strip_prefix("--blockDim=") {
            exp.block_dim = parse_dim(v);
        } else if let Some(v) = word.strip_prefix("--gridDim=") {
            exp.grid_dim = parse_dim(v);
        } else if let Some(v) = word.strip_prefix("--warp-sync=") {
            exp.warp_sync = v.parse().ok().filter(|n| *n > 0);
        } else if *word == "-D" {
            exp.defines.extend(words.get(i + 1).map(|d| d.to_string()));
        } else if let Some(d) = word.strip_prefix("-D").filter(|d| !d.is_empty()) {
            exp.defines.push(d.to_string());
        }
    }
    (Some(exp), Vec::new())
}

/// `64`, `64,2`, `[64,2,1]`: missing dimensions are 1.
pub fn parse_dim(text: &str) -> Option<[u64; 3]> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let mut out = [1u64; 3];
    let parts: Vec<&str> = inner
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for (i, p) in parts.iter().enumerate() {
        out[i] = p.parse().ok().filter(|v| *v >= 1)?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_label_with_options() {
        let (e, params) = read("// expect: racy\n// options: --block-dim 256 --grid-dim [4,2] --param n=1024 --warp-sync 32\n__global__ void k() {}");
        let e = e.unwrap();
        assert_eq!(e.verdict, "racy");
        assert_eq!(e.warp_sync, Some(32));
        assert_eq!(e.block_dim, Some([256, 1, 1]));
        assert_eq!(e.grid_dim, Some([4, 2, 1]));
        assert_eq!(params, vec![("n".to_string(), 1024)]);
    }

    #[test]
    fn gpuverify_header() {
        let (e, _) = read("//pass\n//--blockDim=[32,8] --gridDim=64 --warp-sync=16\n");
        let e = e.unwrap();
        assert_eq!(e.verdict, "drf");
        assert_eq!(e.warp_sync, Some(16));
        assert_eq!(e.block_dim, Some([32, 8, 1]));
        assert_eq!(e.grid_dim, Some([64, 1, 1]));
        let (e, _) = read("//pass\n//--blockDim=8 -DWIDTH=64 -D FLAG --gridDim=2\n");
        assert_eq!(
            e.unwrap().defines,
            vec!["WIDTH=64".to_string(), "FLAG".to_string()]
        );
        let (e, _) =
            read("//xfail:BOOGIE_ERROR\n//--blockDim=64 --gridDim=1\n//possible write-write race");
        assert_eq!(e.unwrap().verdict, "racy");
        let (e, _) = read("//xfail:BOOGIE_ERROR\n//--blockDim=64 --gridDim=1\n");
        assert_eq!(e.unwrap().verdict, "xfail:boogie_error");
        let (e, _) = read("//xfail:data race\n//--blockDim=64\n");
        assert_eq!(e.unwrap().verdict, "racy");
    }

    #[test]
    fn unlabelled() {
        assert_eq!(read("#include <cuda.h>\n").0, None);
        assert_eq!(read("").0, None);
        assert_eq!(parse_dim("0"), None);
    }
}
