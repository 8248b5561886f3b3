//! Human-readable output: a verdict line per kernel and array, and for each
//! race both accesses underlined in the source and the witness as tables.

use super::{access_span, FileReport, KernelEntry};
use crate::check::{Confidence, Race, Verdict};
use annotate_snippets::{Level, Renderer, Snippet};
use std::fmt::Write;
use tabled::builder::Builder;
use tabled::settings::Style;

#[derive(Clone, Copy, Debug, Default)]
pub struct TextStyle {
    pub color: bool,
    /// Protocol files: report arrays, not kernels.
    pub protocol: bool,
}

pub fn render(files: &[FileReport], style: TextStyle) -> String {
    let mut out = String::new();
    for file in files {
        render_file(&mut out, file, style);
    }
    out
}

fn render_file(out: &mut String, file: &FileReport, style: TextStyle) {
    // Errors go to standard error, as the CLI writes them.
    if file.error.is_some() {
        return;
    }
    if file.kernels.is_empty()
        || (style.protocol && file.kernels.iter().all(|k| k.arrays.is_empty()))
    {
        let what = if style.protocol {
            "no array"
        } else {
            "no kernel"
        };
        let _ = writeln!(out, "{}: {what} found", file.path);
        return;
    }
    for kernel in &file.kernels {
        if style.protocol {
            for array in &kernel.arrays {
                let _ = write!(
                    out,
                    "{}: array {}: {}",
                    file.path,
                    array.name,
                    array.verdict.as_str()
                );
                summary_suffix(
                    out,
                    array.verdict,
                    array.races.len(),
                    array.benign.len(),
                    array.reason.as_deref(),
                    array.loc,
                );
            }
        } else {
            let _ = write!(
                out,
                "{}:{}: kernel {}: {}",
                file.path,
                kernel.line,
                kernel.name,
                kernel.verdict.as_str()
            );
            summary_suffix(
                out,
                kernel.verdict,
                kernel.races().count(),
                kernel.arrays.iter().map(|a| a.benign.len()).sum(),
                kernel.reason.as_deref(),
                kernel.loc,
            );
        }
    }
    for kernel in &file.kernels {
        for array in &kernel.arrays {
            for b in &array.benign {
                let [x, y] = &b.accesses;
                let _ = writeln!(
                    out,
                    "note: benign race on `{}` in `{}`: the writes at {}:{} and {}:{} store the same value (--strict counts it)",
                    array.name, kernel.name, file.path, x.loc, file.path, y.loc
                );
            }
        }
    }
    for kernel in &file.kernels {
        // A witness holds for the launches host code makes: say which.
        let found = kernel.races().next().is_some() || kernel.verdict == Verdict::Divergent;
        if found && !kernel.launches.is_empty() {
            let _ = writeln!(
                out,
                "note: `{}` is analysed under the launches the code makes of it: {}",
                kernel.name,
                kernel.launches.join("; ")
            );
        }
        for race in kernel.races() {
            render_race(out, file, kernel, race, style);
        }
        let possible = kernel.races().any(|r| r.confidence == Confidence::Possible);
        if possible {
            for a in &kernel.approximations {
                let _ = writeln!(out, "note: races in `{}` are possible: {a}", kernel.name);
            }
        }
        if kernel.verdict == Verdict::Divergent {
            if let (Some(loc), Some(source)) = (kernel.loc, &file.source) {
                let title = format!("barrier divergence in `{}`", kernel.name);
                let reason = kernel.reason.clone().unwrap_or_default();
                let origin = file.path.as_str();
                if let Some(span) = access_span(source, loc) {
                    let msg = Level::Error.title(&title).snippet(
                        Snippet::source(source)
                            .origin(origin)
                            .fold(true)
                            .annotation(Level::Error.span(span).label(&reason)),
                    );
                    let _ = writeln!(out, "{}\n", renderer(style).render(msg));
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn summary_suffix(
    out: &mut String,
    verdict: Verdict,
    races: usize,
    benign: usize,
    reason: Option<&str>,
    loc: Option<crate::protocol::Loc>,
) {
    match verdict {
        Verdict::Racy => {
            let _ = writeln!(
                out,
                " ({races} race{}){}",
                if races == 1 { "" } else { "s" },
                reason.map(|r| format!("; {r}")).unwrap_or_default()
            );
        }
        Verdict::Drf if benign > 0 => {
            let _ = writeln!(
                out,
                " ({benign} benign race{})",
                if benign == 1 { "" } else { "s" }
            );
        }
        Verdict::Drf => {
            let _ = writeln!(out);
        }
        _ => {
            let at = loc
                .filter(|l| l.line > 0)
                .map(|l| format!(" at {l}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{at}{}",
                reason.map(|r| format!(": {r}")).unwrap_or_default()
            );
        }
    }
}

fn renderer(style: TextStyle) -> Renderer {
    if style.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
}

fn render_race(
    out: &mut String,
    file: &FileReport,
    kernel: &KernelEntry,
    race: &Race,
    style: TextStyle,
) {
    let confidence = match race.confidence {
        Confidence::Confirmed => "confirmed",
        Confidence::Possible if race.precondition.is_some() => {
            "possible: only for some parameter values or launch sizes"
        }
        Confidence::Possible => {
            "possible: depends on values or code drfscan does not model exactly"
        }
    };
    let title = if style.protocol {
        format!("data race on `{}` ({confidence})", race.array)
    } else {
        format!(
            "data race on `{}` in `{}` ({confidence})",
            race.array, kernel.name
        )
    };
    let labels: Vec<String> = race
        .accesses
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{} by thread {}", a.mode.as_str(), i + 1))
        .collect();
    match &file.source {
        Some(source) => {
            let spans: Vec<_> = race
                .accesses
                .iter()
                .map(|a| access_span(source, a.loc))
                .collect();
            let mut snippet = Snippet::source(source).origin(&file.path).fold(true);
            for (span, label) in spans.iter().zip(&labels) {
                if let Some(span) = span {
                    snippet = snippet.annotation(Level::Error.span(span.clone()).label(label));
                }
            }
            let msg = Level::Error.title(&title).snippet(snippet);
            let _ = writeln!(out, "{}", renderer(style).render(msg));
        }
        None => {
            let _ = writeln!(out, "error: {title}");
            for (a, label) in race.accesses.iter().zip(&labels) {
                let _ = writeln!(out, "  --> {}:{}: {label}", file.path, a.loc);
            }
        }
    }
    let _ = writeln!(out, "{}", witness_table(kernel, race));
    if let Some(pre) = &race.precondition {
        let _ = writeln!(
            out,
            "help: no race on `{}` if callers ensure `__requires({pre})`\n",
            race.array
        );
    }
}

/// The witness: values both threads share, then each thread's own values.
pub fn witness_table(kernel: &KernelEntry, race: &Race) -> String {
    let mut out = String::new();
    let index = race
        .index
        .iter()
        .map(|i| format!("[{i}]"))
        .collect::<String>();
    let _ = writeln!(out, "  index {index}");
    let w = &race.witness;
    if !w.globals.is_empty() {
        let mut b = Builder::default();
        b.push_record(["shared by both threads", "value"]);
        for (name, value) in &w.globals {
            b.push_record([kernel.display_name(name).to_string(), value.to_string()]);
        }
        let _ = writeln!(out, "{}", b.build().with(Style::rounded()));
    }
    let mut names: Vec<&String> = w.threads[0].keys().chain(w.threads[1].keys()).collect();
    names.sort_by_key(|n| (!crate::protocol::builtin::is_thread_id(n), n.to_string()));
    names.dedup();
    if !names.is_empty() {
        let mut b = Builder::default();
        b.push_record(["per thread", "thread 1", "thread 2"]);
        for name in names {
            let get = |k: usize| {
                w.threads[k]
                    .get(name)
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| "-".into())
            };
            b.push_record([kernel.display_name(name).to_string(), get(0), get(1)]);
        }
        let _ = writeln!(out, "{}", b.build().with(Style::rounded()));
    }
    out
}
