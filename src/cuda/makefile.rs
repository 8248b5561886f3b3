//! Plain Makefiles: the flags a hand-written build gives its `.cu` files,
//! for trees without a compilation database. Research code (benchmark
//! suites, one program per directory) often picks its element type or a
//! tile size with `-D` in the Makefile, and without it the file does not
//! parse.
//!
//! This is not make: the file is read once, top to bottom. Variables are
//! assigned (`=`, `:=`, `?=`, `+=`) and expanded (`$(V)`, `${V}`,
//! `$(V:a=b)`); conditionals are decided with what the file itself sets,
//! so that the default configuration is the one read; an undefined
//! variable is empty, as in make without an environment; `include` reads
//! the named file. The flags are those of the first rule that compiles a
//! `.cu` file (`%.o: %.cu`, `.cu.o:`, `main: main.cu`), or of the first
//! recipe that calls `nvcc`, or, for a project of the CUDA SDK's
//! `common.mk` whose shared file is not in the tree, those it sets for it.
//!
//! One exception to the default configuration: a switch that turns the
//! GPU build on (`GPU=0` at the top, `ifeq ($(GPU), 1)` around `-DGPU
//! -I/usr/local/cuda/include`) is set as `make GPU=1` would set it, since
//! the `.cu` files are compiled in that configuration only.

use super::commands::{canonical, clang_flags, Flags};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Names make looks for, in its order.
const NAMES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

/// How deep variables expand and `include`s nest before reading gives up
/// on them (a self-referencing variable, an include cycle).
const DEPTH: usize = 16;

/// The Makefile flags of the scanned files that no compilation database
/// lists.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Makefiles {
    /// How many files get flags, and from how many Makefiles.
    pub files: usize,
    pub makefiles: usize,
    /// Of every file's flags, for the options' hash.
    digest: String,
    by_file: Arc<BTreeMap<PathBuf, Flags>>,
}

impl Makefiles {
    /// For each of `files`, the flags of the nearest Makefile in its
    /// directory or above it, up to the root it was found under (the
    /// file's own directory when it was named itself). A Makefile that
    /// compiles no CUDA gives no flags, and the search stops there: the
    /// build of that directory is not the one above it.
    pub fn find(files: &[PathBuf], roots: &[PathBuf]) -> Makefiles {
        let roots: Vec<PathBuf> = roots.iter().map(|r| canonical(r)).collect();
        let mut read: HashMap<PathBuf, Option<Flags>> = HashMap::new();
        let mut by_file = BTreeMap::new();
        for file in files {
            let file = canonical(file);
            let Some(dir) = file.parent() else { continue };
            let root = roots
                .iter()
                .filter(|r| dir.starts_with(r))
                .max_by_key(|r| r.components().count())
                .map(PathBuf::as_path)
                .unwrap_or(dir);
            let Some(makefile) = nearest(dir, root) else {
                continue;
            };
            let flags = read
                .entry(makefile.clone())
                .or_insert_with(|| cuda_flags(&makefile));
            if let Some(flags) = flags {
                by_file.insert(file, flags.clone());
            }
        }
        let mut digest = blake3::Hasher::new();
        for (file, flags) in &by_file {
            digest.update(
                format!(
                    "{}\x1e{:?}\x1e{:?}\x1e",
                    file.display(),
                    flags.includes,
                    flags.others
                )
                .as_bytes(),
            );
        }
        Makefiles {
            files: by_file.len(),
            makefiles: read.values().filter(|f| f.is_some()).count(),
            digest: digest.finalize().to_hex().to_string(),
            by_file: Arc::new(by_file),
        }
    }

    /// The flags `file`'s Makefile gives it, if any.
    pub fn flags(&self, file: &Path) -> Option<&Flags> {
        if self.by_file.is_empty() {
            return None;
        }
        self.by_file.get(&canonical(file))
    }
}

/// The first Makefile in `dir` or a directory above it, not above `root`.
fn nearest(dir: &Path, root: &Path) -> Option<PathBuf> {
    let mut at = Some(dir);
    while let Some(d) = at {
        if let Some(found) = NAMES.iter().map(|n| d.join(n)).find(|p| p.is_file()) {
            return Some(found);
        }
        if d == root || !d.starts_with(root) {
            return None;
        }
        at = d.parent();
    }
    None
}

/// The flags the Makefile at `path` compiles CUDA with, if it does.
pub fn cuda_flags(path: &Path) -> Option<Flags> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut make = Make {
        overrides: std::fs::read_to_string(path)
            .map(|t| gpu_switches(&t))
            .unwrap_or_default(),
        ..Make::default()
    };
    make.read(path, 0);
    let args = make.cuda_recipe().or_else(|| make.sdk_flags())?;
    let mut words = vec!["make".to_string()];
    words.extend(split_words(&args));
    Some(clang_flags(&words, dir))
}

/// A recipe's words as a shell splits them; unbalanced quotes (a recipe
/// that is not one command line) fall back to spaces.
fn split_words(line: &str) -> Vec<String> {
    shlex::split(line).unwrap_or_else(|| line.split_whitespace().map(String::from).collect())
}

#[derive(Clone, Debug)]
enum Value {
    /// `=`: expanded where it is used.
    Recursive(String),
    /// `:=`: expanded where it is set.
    Simple(String),
}

#[derive(Default)]
struct Make {
    vars: HashMap<String, Value>,
    /// Rules in the order read: targets, prerequisites (expanded), recipe
    /// lines (as written: automatic variables are only known when a rule
    /// runs).
    rules: Vec<Rule>,
    /// Variables set as on make's command line: assignments in the file
    /// do not change them.
    overrides: HashMap<String, String>,
}

struct Rule {
    targets: String,
    prerequisites: String,
    recipe: Vec<String>,
}

/// One level of `ifeq … else … endif`: whether the lines are read now, and
/// whether a branch of this conditional was taken already.
struct Branch {
    reading: bool,
    taken: bool,
}

impl Make {
    fn read(&mut self, path: &Path, depth: usize) {
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut stack: Vec<Branch> = Vec::new();
        let mut in_rule = false;
        for line in logical_lines(&text) {
            let reading = stack.iter().all(|b| b.reading);
            // A tab begins a recipe line only where a rule's recipe can be.
            if let Some(recipe) = line.strip_prefix('\t').filter(|_| in_rule) {
                if reading {
                    if let Some(rule) = self.rules.last_mut() {
                        rule.recipe.push(recipe.trim().to_string());
                    }
                }
                continue;
            }
            let line = strip_comment(&line);
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            let (word, rest) = match trimmed.split_once(char::is_whitespace) {
                Some((w, r)) => (w, r.trim()),
                None => (trimmed, ""),
            };
            match word {
                "ifeq" | "ifneq" | "ifdef" | "ifndef" => {
                    let holds = reading && self.condition(word, rest);
                    stack.push(Branch {
                        reading: holds,
                        taken: holds || !reading,
                    });
                    continue;
                }
                "else" => {
                    let outer =
                        stack.len() <= 1 || stack[..stack.len() - 1].iter().all(|b| b.reading);
                    let taken = stack.last().is_none_or(|b| b.taken);
                    // `else ifeq …` is decided with the variables as they are now.
                    let holds = !taken
                        && outer
                        && match rest.split_once(char::is_whitespace) {
                            Some((w, r)) if w.starts_with("if") => self.condition(w, r.trim()),
                            _ => true,
                        };
                    if let Some(top) = stack.last_mut() {
                        top.reading = holds;
                        top.taken |= holds;
                    }
                    continue;
                }
                "endif" => {
                    stack.pop();
                    continue;
                }
                _ => {}
            }
            if !reading {
                continue;
            }
            in_rule = false;
            if matches!(word, "include" | "-include" | "sinclude") {
                if depth < DEPTH {
                    for name in self.expand(rest, 0).split_whitespace() {
                        let p = dir.join(name);
                        self.read(&p, depth + 1);
                    }
                }
                continue;
            }
            if let Some((name, op, value)) = assignment(trimmed) {
                self.assign(name, op, value);
                continue;
            }
            if let Some((targets, prerequisites)) = rule(trimmed) {
                let (prerequisites, inline) = match prerequisites.split_once(';') {
                    Some((p, r)) => (p, Some(r.trim().to_string())),
                    None => (prerequisites, None),
                };
                self.rules.push(Rule {
                    targets: self.expand(targets, 0),
                    prerequisites: self.expand(prerequisites, 0),
                    recipe: inline.into_iter().collect(),
                });
                in_rule = true;
            }
        }
    }

    fn condition(&self, word: &str, rest: &str) -> bool {
        match word {
            "ifdef" | "ifndef" => {
                let name = self.expand(rest, 0);
                let name = name.trim();
                let set = self.overrides.get(name).is_some_and(|v| !v.is_empty())
                    || self.vars.get(name).is_some_and(
                        |v| !matches!(v, Value::Recursive(s) | Value::Simple(s) if s.is_empty()),
                    );
                set == (word == "ifdef")
            }
            _ => match operands(rest) {
                Some((a, b)) => {
                    let same = self.expand(&a, 0).trim() == self.expand(&b, 0).trim();
                    same == (word == "ifeq")
                }
                // Not understood: the branch is not read.
                None => false,
            },
        }
    }

    fn assign(&mut self, name: &str, op: &str, value: &str) {
        let name = self.expand(name, 0).trim().to_string();
        if self.overrides.contains_key(&name) {
            return;
        }
        match op {
            "=" => {
                self.vars.insert(name, Value::Recursive(value.to_string()));
            }
            ":=" | "::=" | ":::=" => {
                let v = self.expand(value, 0);
                self.vars.insert(name, Value::Simple(v));
            }
            "?=" => {
                self.vars
                    .entry(name)
                    .or_insert_with(|| Value::Recursive(value.to_string()));
            }
            "+=" => {
                let next = match self.vars.get(&name) {
                    Some(Value::Simple(old)) => Value::Simple(join(old, &self.expand(value, 0))),
                    Some(Value::Recursive(old)) => Value::Recursive(join(old, value)),
                    None => Value::Recursive(value.to_string()),
                };
                self.vars.insert(name, next);
            }
            // `!=` runs a shell command, which reading does not.
            _ => {
                self.vars.insert(name, Value::Simple(String::new()));
            }
        }
    }

    fn value(&self, name: &str, depth: usize) -> String {
        if let Some(v) = self.overrides.get(name) {
            return v.clone();
        }
        match self.vars.get(name) {
            Some(Value::Simple(v)) => v.clone(),
            Some(Value::Recursive(v)) => self.expand(v, depth + 1),
            None => String::new(),
        }
    }

    /// `text` with its variable references replaced by their values.
    fn expand(&self, text: &str, depth: usize) -> String {
        if depth > DEPTH || !text.contains('$') {
            return text.to_string();
        }
        let mut out = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != '$' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some((_, '$')) => out.push('$'),
                Some((j, open @ ('(' | '{'))) => {
                    let close = if open == '(' { ')' } else { '}' };
                    let Some(end) = matching(text, j, open, close) else {
                        out.push_str(&text[i..]);
                        break;
                    };
                    let inner = &text[j + 1..end];
                    out.push_str(&self.reference(inner, depth));
                    while chars.peek().is_some_and(|&(k, _)| k <= end) {
                        chars.next();
                    }
                }
                // `$@`, `$<`, `$X`: one-letter names; automatic ones are
                // empty outside a running rule.
                Some((_, name)) => out.push_str(&self.value(&name.to_string(), depth)),
                None => out.push('$'),
            }
        }
        out
    }

    /// The value of `$(inner)`: a variable, a substitution reference
    /// `$(V:a=b)`, or a function call, of which only those that keep
    /// words (`strip`, `addprefix`, …) give something.
    fn reference(&self, inner: &str, depth: usize) -> String {
        let inner = self.expand(inner, depth + 1);
        if let Some((func, args)) = inner.split_once(char::is_whitespace) {
            let args: Vec<&str> = args.splitn(2, ',').collect();
            return match (func, args.as_slice()) {
                ("strip", [a]) => a.split_whitespace().collect::<Vec<_>>().join(" "),
                ("addprefix", [p, words]) => words
                    .split_whitespace()
                    .map(|w| format!("{}{w}", p.trim()))
                    .collect::<Vec<_>>()
                    .join(" "),
                ("addsuffix", [s, words]) => words
                    .split_whitespace()
                    .map(|w| format!("{w}{}", s.trim()))
                    .collect::<Vec<_>>()
                    .join(" "),
                // `shell`, `wildcard` and the rest ask the system.
                _ => String::new(),
            };
        }
        match inner.split_once(':') {
            Some((name, subst)) if subst.contains('=') => {
                let (from, to) = subst.split_once('=').expect("checked");
                self.value(name, depth)
                    .split_whitespace()
                    .map(|w| substitute(w, from, to))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            _ => self.value(&inner, depth),
        }
    }

    /// The recipe of the first rule that compiles a `.cu` file, expanded,
    /// else the first recipe line that calls `nvcc`.
    fn cuda_recipe(&self) -> Option<String> {
        let compiles_cuda = |r: &Rule| {
            let mentions = |s: &str| {
                s.split_whitespace()
                    .any(|w| w.ends_with(".cu") || w.contains(".cu."))
            };
            mentions(&r.prerequisites) || mentions(&r.targets)
        };
        let calls_compiler = |line: &str| {
            line.split_whitespace().next().is_some_and(|w| {
                !matches!(
                    w.trim_start_matches(['@', '-', '+']),
                    "echo" | "rm" | "mkdir" | "cp" | "mv" | "cd" | "printf" | ""
                )
            })
        };
        let first = self
            .rules
            .iter()
            .filter(|r| compiles_cuda(r))
            .flat_map(|r| r.recipe.iter())
            .map(|l| self.expand(l, 0))
            .find(|l| calls_compiler(l));
        first.or_else(|| {
            self.rules
                .iter()
                .flat_map(|r| r.recipe.iter())
                .map(|l| self.expand(l, 0))
                .find(|l| {
                    l.split_whitespace()
                        .any(|w| w == "nvcc" || w.ends_with("/nvcc"))
                })
        })
    }

    /// The flags of a project built by the CUDA SDK's shared `common.mk`
    /// when that file is not in the tree (benchmark suites copied out of
    /// the SDK): the project names its `.cu` files in `CUFILES` and sets
    /// the variables `common.mk` hands to nvcc.
    fn sdk_flags(&self) -> Option<String> {
        let lists = self
            .vars
            .keys()
            .any(|v| v == "CUFILES" || v.starts_with("CUFILES_"));
        if !lists {
            return None;
        }
        let flags = ["COMMONFLAGS", "INCLUDES", "NVCCFLAGS", "CUDACCFLAGS"]
            .map(|v| self.value(v, 0))
            .join(" ");
        Some(flags)
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a} {b}"),
    }
}

/// `$(V:from=to)` on one word: a `%` pattern, else a suffix.
fn substitute(word: &str, from: &str, to: &str) -> String {
    match from.split_once('%') {
        Some((pre, post)) => match word.strip_prefix(pre).and_then(|w| w.strip_suffix(post)) {
            Some(stem) => to.replacen('%', stem, 1),
            None => word.to_string(),
        },
        None => match word.strip_suffix(from) {
            Some(stem) => format!("{stem}{to}"),
            None => word.to_string(),
        },
    }
}

/// The index of the bracket closing the one at `open_at`.
fn matching(text: &str, open_at: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 0;
    for (k, c) in text[open_at..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(open_at + k);
            }
        }
    }
    None
}

/// The switches that turn a Makefile's GPU build on: for each conditional
/// without an `else` (`ifeq ($(GPU), 1)`, `ifdef USE_CUDA`) whose lines
/// add a `-D` flag and a flag that names CUDA or the GPU (`-DGPU`,
/// `-I/usr/local/cuda/include`, `-lcudart`), the value that takes it. A
/// conditional with an `else` chooses between two builds (a platform, a
/// toolkit version), neither of which is off.
fn gpu_switches(text: &str) -> HashMap<String, String> {
    struct Open {
        switch: Option<(String, String)>,
        has_else: bool,
        defines: bool,
        names_gpu: bool,
    }
    let mut found: HashMap<String, String> = HashMap::new();
    let mut stack: Vec<Open> = Vec::new();
    for line in logical_lines(text) {
        let line = strip_comment(&line);
        let trimmed = line.trim();
        let (word, rest) = match trimmed.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (trimmed, ""),
        };
        let variable = |s: &str| {
            let s = s.trim();
            let inner = s
                .strip_prefix("$(")
                .and_then(|r| r.strip_suffix(')'))
                .or_else(|| s.strip_prefix("${").and_then(|r| r.strip_suffix('}')))?;
            let plain =
                !inner.is_empty() && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            plain.then(|| inner.to_string())
        };
        match word {
            "ifeq" | "ifdef" => {
                let switch = if word == "ifdef" {
                    variable(&format!("$({rest})")).map(|v| (v, "1".to_string()))
                } else {
                    operands(rest).and_then(|(a, b)| {
                        let (a, b) = (a.trim().to_string(), b.trim().to_string());
                        match (variable(&a), variable(&b)) {
                            (Some(v), None) if !b.contains('$') && !b.is_empty() => Some((v, b)),
                            (None, Some(v)) if !a.contains('$') && !a.is_empty() => Some((v, a)),
                            _ => None,
                        }
                    })
                };
                stack.push(Open {
                    switch,
                    has_else: false,
                    defines: false,
                    names_gpu: false,
                });
            }
            "ifneq" | "ifndef" => stack.push(Open {
                switch: None,
                has_else: false,
                defines: false,
                names_gpu: false,
            }),
            "else" => {
                if let Some(top) = stack.last_mut() {
                    top.has_else = true;
                }
            }
            "endif" => {
                if let Some(open) = stack.pop() {
                    if let (Some((v, value)), false, true, true) =
                        (open.switch, open.has_else, open.defines, open.names_gpu)
                    {
                        found.entry(v).or_insert(value);
                    }
                }
            }
            _ => {
                let Some((_, _, value)) = assignment(trimmed) else {
                    continue;
                };
                let Some(top) = stack.last_mut().filter(|t| !t.has_else) else {
                    continue;
                };
                for w in value.split_whitespace() {
                    let flag = ["-D", "-I", "-L", "-l"].iter().any(|f| w.starts_with(f));
                    let lower = w.to_ascii_lowercase();
                    top.defines |= w.starts_with("-D");
                    top.names_gpu |= flag && (lower.contains("cuda") || lower.contains("gpu"));
                }
            }
        }
    }
    found
}

/// Lines with their `\`-newline continuations joined.
fn logical_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `line` up to an unescaped `#`.
fn strip_comment(line: &str) -> String {
    let mut out = String::new();
    let mut escaped = false;
    for c in line.chars() {
        if c == '#' && !escaped {
            break;
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    out
}

/// `NAME op value` (with `export` or `override` before it), unless the
/// `=` belongs to a rule's prerequisites.
fn assignment(line: &str) -> Option<(&str, &str, &str)> {
    let line = ["export ", "override "]
        .iter()
        .fold(line, |l, p| l.strip_prefix(p).unwrap_or(l))
        .trim_start();
    let eq = line.find('=')?;
    let ops = [":::=", "::=", ":=", "?=", "+=", "!=", "="];
    let (op, start) = ops.iter().find_map(|op| {
        let start = (eq + 1).checked_sub(op.len())?;
        (line.get(start..eq + 1) == Some(op)).then_some((*op, start))
    })?;
    let name = line[..start].trim();
    // `target: VAR = value` is a target-specific variable, not ours.
    if name.is_empty()
        || name.contains(':')
        || name.contains(char::is_whitespace) && !name.contains('$')
    {
        return None;
    }
    Some((name, op, line[eq + 1..].trim()))
}

/// `targets: prerequisites`.
fn rule(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let rest = &line[colon + 1..];
    // `a:: b`, a double-colon rule.
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    Some((line[..colon].trim(), rest.trim()))
}

/// The two operands of `ifeq (a,b)`, `ifeq "a" "b"` or `ifeq 'a' 'b'`.
fn operands(rest: &str) -> Option<(String, String)> {
    let rest = rest.trim();
    if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        // The comma that separates them is outside any `$(…)`.
        let first = super::launch::split_outside(inner, &[('(', ')'), ('{', '}')])[0];
        let second = inner.get(first.len() + 1..)?;
        return Some((first.to_string(), second.to_string()));
    }
    let words = shlex::split(rest)?;
    match words.as_slice() {
        [a, b] => Some((a.clone(), b.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags_of(makefile: &str) -> Option<Flags> {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("Makefile");
        std::fs::write(&path, makefile).unwrap();
        cuda_flags(&path).map(|mut f| {
            let prefix = format!("-I{}/", d.path().display());
            for i in &mut f.includes {
                *i = i.replace(&prefix, "-I");
            }
            f
        })
    }

    #[test]
    fn a_pattern_rule_gives_its_flags_with_the_default_configuration() {
        let f = flags_of(
            "CC = nvcc\nDEBUG = no\nARCH = sm_60\n\
             CFLAGS := $(EXTRA_CFLAGS) -DINT -std=c++17 -Xcompiler -Wall -arch=$(ARCH) \\\n  -Iinc\n\
             ifeq ($(DEBUG),yes)\n  CFLAGS += -g -DDEBUG\nelse\n  CFLAGS += -DNDEBUG\nendif\n\
             main: main.o\n\t$(CC) $(CFLAGS) main.o -o $@\n\
             %.o: %.cu\n\t@echo compiling\n\t$(CC) $(CFLAGS) -c $< -o $@\n",
        )
        .unwrap();
        assert_eq!(f.others, ["-DINT", "-std=c++17", "-DNDEBUG"]);
        assert_eq!(f.includes, ["-Iinc"]);
    }

    #[test]
    fn a_project_of_the_sdks_common_mk_gives_the_flags_it_sets() {
        let f = flags_of(
            "CUFILES := src/k.cu\nN ?= 6\nHOST=$(shell hostname)\n\
             ifeq ($(HOST),lab)\nINCLUDES = -DLAB\nelse\n\
             INCLUDES = -Dp_N=$(N) -DNDG3d -I./include\nendif\n\
             NVCCFLAGS += --use_fast_math -DFAST\n\
             include ../../common/common.mk\n",
        )
        .unwrap();
        assert_eq!(f.others, ["-Dp_N=6", "-DNDG3d", "-DFAST"]);
        assert_eq!(f.includes, ["-I./include"]);
        // Without `CUFILES` nothing says the project is built for CUDA.
        assert_eq!(flags_of("INCLUDES = -DX\ninclude common.mk\n"), None);
    }

    #[test]
    fn suffix_rules_recursive_variables_and_substitutions() {
        let f = flags_of(
            "N = 6\nHDRDIR = ./include\n# CFLAGS = -DWRONG\n\
             CFLAGS = -Dp_N=$(N) -DNDG3d -I$(HDRDIR) -O3\n\
             SRCS = a.cu b.cu\nOBJS = $(SRCS:.cu=.o)\n\
             .SUFFIXES: .c .cu\n.c.o:\n\tgcc $(CFLAGS) -DHOST -c $*.c\n\
             .cu.o:\n\t$(NVCC) ${CFLAGS} -o $*.o -c $*.cu\n\
             main: $(OBJS)\n\t$(LD) -o main $(OBJS)\n",
        )
        .unwrap();
        assert_eq!(f.others, ["-Dp_N=6", "-DNDG3d"]);
        assert_eq!(f.includes, ["-I./include"]);
    }

    #[test]
    fn a_makefile_without_cuda_gives_nothing() {
        assert_eq!(
            flags_of("all:\n\tpython run.py\nclean:\n\trm -rf build\n"),
            None
        );
        // A recipe that calls nvcc directly is enough.
        let f = flags_of("all:\n\tnvcc -DW=2 -o k k.cu\n").unwrap();
        assert_eq!(f.others, ["-DW=2"]);
    }

    #[test]
    fn conditionals_nest_and_decide_with_the_files_own_variables() {
        let f = flags_of(
            "PREC ?= FP32\nifdef UNSET\nX = -DA\nelse ifeq ($(PREC), FP32)\nX = -DB\n\
             ifneq \"$(PREC)\" \"FP32\"\nX += -DC\nendif\nelse\nX = -DD\nendif\n\
             k: k.cu\n\tnvcc $(X) $(addprefix -I,inc lib) -c k.cu\n",
        )
        .unwrap();
        assert_eq!(f.others, ["-DB"]);
        assert_eq!(f.includes, ["-Iinc", "-Ilib"]);
    }

    #[test]
    fn a_switch_that_turns_the_gpu_build_on_is_set() {
        // As darknet's Makefile: off by default, the `.cu` rule everywhere.
        let f = flags_of(
            "GPU=0\nOPENCV=0\nCOMMON= -Iinclude/\n\
             ifeq ($(OPENCV), 1)\nCOMMON+= -DOPENCV\nendif\n\
             ifeq ($(GPU), 1)\nCOMMON+= -DGPU -I/usr/local/cuda/include/\nendif\n\
             GPU=0\n%.o: %.cu\n\tnvcc $(COMMON) -c $< -o $@\n",
        )
        .unwrap();
        assert_eq!(f.others, ["-DGPU"]);
        // A choice between two builds is left to the file's default, and
        // a switch that only names paths is no switch.
        let f = flags_of(
            "ifeq ($(OS),Windows_NT)\nX = -DWIN -I$(CUDA_PATH)/include\nelse\nX = -DLINUX\nendif\n\
             ifdef DBG\nX += -I/opt/cuda-dbg/include\nendif\n\
             k: k.cu\n\tnvcc $(X) -c k.cu\n",
        )
        .unwrap();
        assert_eq!(f.others, ["-DLINUX"]);
        assert!(f.includes.is_empty(), "{:?}", f.includes);
        // `ifdef` switches too.
        let f = flags_of(
            "ifdef USE_CUDA\nX = -DUSE_CUDA -lcudart\nendif\nk: k.cu\n\tnvcc $(X) -c k.cu\n",
        )
        .unwrap();
        assert_eq!(f.others, ["-DUSE_CUDA"]);
    }

    #[test]
    fn includes_are_read_and_cycles_end() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("common.mk"),
            "FLAGS = -DCOMMON\ninclude common.mk\n",
        )
        .unwrap();
        let path = d.path().join("Makefile");
        std::fs::write(
            &path,
            "include common.mk\nk.o: k.cu\n\tnvcc $(FLAGS) -c k.cu\n",
        )
        .unwrap();
        assert_eq!(cuda_flags(&path).unwrap().others, ["-DCOMMON"]);
        // A variable that names itself expands to nothing more.
        std::fs::write(&path, "A = $(A) -DX\nk.o: k.cu\n\tnvcc $(A)\n").unwrap();
        assert!(cuda_flags(&path).is_some());
    }

    #[test]
    fn the_nearest_makefile_up_to_the_root_serves_a_file() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("app/src")).unwrap();
        std::fs::create_dir_all(root.join("py/ext")).unwrap();
        std::fs::write(root.join("Makefile"), "k: k.cu\n\tnvcc -DTOP k.cu\n").unwrap();
        std::fs::write(root.join("app/Makefile"), ".cu.o:\n\tnvcc -DAPP -c $<\n").unwrap();
        std::fs::write(root.join("py/Makefile"), "all:\n\tpython setup.py\n").unwrap();
        let files = [
            root.join("app/src/a.cu"),
            root.join("py/ext/b.cu"),
            root.join("c.cu"),
        ];
        for f in &files {
            std::fs::write(f, "").unwrap();
        }
        let m = Makefiles::find(&files, std::slice::from_ref(&root));
        assert_eq!(m.flags(&files[0]).unwrap().others, ["-DAPP"]);
        assert!(m.flags(&files[1]).is_none(), "py/Makefile builds no CUDA");
        assert_eq!(m.flags(&files[2]).unwrap().others, ["-DTOP"]);
        assert_eq!((m.files, m.makefiles), (2, 2));
        // Scanned from app/src, the Makefiles above it are not read.
        let m = Makefiles::find(&files[..1], &[root.join("app/src")]);
        assert!(m.flags(&files[0]).is_none());
    }

    #[test]
    fn assignments_and_rules_are_told_apart() {
        assert_eq!(assignment("CFLAGS := -O3"), Some(("CFLAGS", ":=", "-O3")));
        assert_eq!(assignment("export X ?= 1"), Some(("X", "?=", "1")));
        assert_eq!(assignment("A+=b=c"), Some(("A", "+=", "b=c")));
        assert_eq!(assignment("k.o: X = 1"), None);
        assert_eq!(rule("k.o: k.cu k.h"), Some(("k.o", "k.cu k.h")));
        assert_eq!(substitute("a.cu", ".cu", ".o"), "a.o");
        assert_eq!(substitute("src/a.cu", "src/%.cu", "obj/%.o"), "obj/a.o");
    }
}
