//! Rendering verdicts for people and machines: text with source snippets and
//! witness tables, JSON, and SARIF 2.1.0. Pure functions from reports to
//! strings; the CLI decides where they go.

pub mod json;
pub mod sarif;
pub mod text;

use crate::check::{ArrayReport, KernelReport, Race, Verdict};
use crate::protocol::Loc;
use std::collections::BTreeMap;

/// One input file and what came of it.
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    pub path: String,
    /// The file's text, for snippets; `None` when it could not be read.
    pub source: Option<String>,
    /// Why the file as a whole could not be analysed.
    pub error: Option<String>,
    pub kernels: Vec<KernelEntry>,
}

/// One kernel (or one protocol file's set of arrays) with its verdict.
#[derive(Clone, Debug)]
pub struct KernelEntry {
    pub name: String,
    pub line: u32,
    pub verdict: Verdict,
    pub reason: Option<String>,
    pub loc: Option<Loc>,
    pub arrays: Vec<ArrayReport>,
    pub time_ms: f64,
    /// The launches host code makes of the kernel when launch inference
    /// saw them all (`<<<grid, block>>> at FILE:LINE:COLUMN`).
    pub launches: Vec<String>,
    /// Why the kernel's races are only possible, where its protocols
    /// over-approximate it (a lock, a launch drfscan cannot read).
    pub approximations: Vec<String>,
    /// Protocol variable → the name the user wrote (`tid.x` → `threadIdx.x`).
    pub names: BTreeMap<String, String>,
}

impl KernelEntry {
    pub fn from_report(
        report: KernelReport,
        line: u32,
        time_ms: f64,
        names: BTreeMap<String, String>,
    ) -> KernelEntry {
        let verdict = report.verdict();
        let worst = report.worst();
        KernelEntry {
            name: report.name.clone(),
            line,
            verdict,
            reason: worst.and_then(|a| a.reason.clone()),
            loc: worst.and_then(|a| a.loc),
            arrays: report.arrays,
            time_ms,
            launches: Vec::new(),
            approximations: report.approximations,
            names,
        }
    }

    /// A kernel that never reached the analysis (unsupported, error).
    pub fn failed(
        name: &str,
        line: u32,
        verdict: Verdict,
        reason: String,
        loc: Option<Loc>,
    ) -> KernelEntry {
        KernelEntry {
            name: name.to_string(),
            line,
            verdict,
            reason: Some(reason),
            loc,
            arrays: Vec::new(),
            time_ms: 0.0,
            launches: Vec::new(),
            approximations: Vec::new(),
            names: BTreeMap::new(),
        }
    }

    pub fn races(&self) -> impl Iterator<Item = &Race> {
        self.arrays.iter().flat_map(|a| a.races.iter())
    }

    /// How a protocol variable reads in the source.
    pub fn display_name<'a>(&'a self, var: &'a str) -> &'a str {
        self.names.get(var).map(String::as_str).unwrap_or(var)
    }
}

/// The documented exit status: 1 when a race or a barrier divergence was
/// found, else 2 when something could not be analysed, else 0.
pub fn exit_code(files: &[FileReport]) -> i32 {
    let verdicts = || {
        files
            .iter()
            .flat_map(|f| f.kernels.iter().map(|k| k.verdict))
    };
    if verdicts().any(|v| matches!(v, Verdict::Racy | Verdict::Divergent)) {
        1
    } else if files.iter().any(|f| f.error.is_some()) || verdicts().any(|v| v == Verdict::Error) {
        2
    } else {
        0
    }
}

/// Byte range of the access expression starting at `loc` in `source`: the
/// identifier and any bracketed indices that follow it.
pub fn access_span(source: &str, loc: Loc) -> Option<std::ops::Range<usize>> {
    if loc.line == 0 {
        return None;
    }
    let line_start = source
        .split_inclusive('\n')
        .take(loc.line as usize - 1)
        .map(str::len)
        .sum::<usize>();
    let line = source[line_start..].split('\n').next()?;
    let col = (loc.column.max(1) as usize - 1).min(line.len());
    let start = line_start + col;
    let bytes = line.as_bytes();
    let mut end = col;
    while end < bytes.len()
        && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b'.')
    {
        end += 1;
    }
    // Then `[ … ]` groups, matched by depth.
    loop {
        let mut probe = end;
        while probe < bytes.len() && bytes[probe] == b' ' {
            probe += 1;
        }
        if probe >= bytes.len() || bytes[probe] != b'[' {
            break;
        }
        let mut depth = 0;
        let mut close = None;
        for (i, &b) in bytes.iter().enumerate().skip(probe) {
            match b {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        match close {
            Some(c) => end = c + 1,
            None => break,
        }
    }
    if end == col {
        end = (col + 1).min(bytes.len());
    }
    Some(start..line_start + end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_covers_identifier_and_indices() {
        let src = "a\n  tile[ty][tx + 1] = 0;\n";
        let r = access_span(src, Loc::new(2, 3)).unwrap();
        assert_eq!(&src[r], "tile[ty][tx + 1]");
    }

    #[test]
    fn span_of_protocol_access() {
        let src = "array A {\n  wr[tid + j]\n}";
        let r = access_span(src, Loc::new(2, 3)).unwrap();
        assert_eq!(&src[r], "wr[tid + j]");
    }

    #[test]
    fn span_outside_source_is_clamped() {
        let src = "x";
        assert!(access_span(src, Loc::new(1, 40)).is_some());
        assert!(access_span(src, Loc::NONE).is_none());
    }
}
