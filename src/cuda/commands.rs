//! `compile_commands.json`: the flags a build gives each file, translated
//! to what the front-end's clang takes. nvcc's spellings (`--include-path`,
//! `--define-macro`, `--std c++14`, `-Xcompiler …`) and clang's are both
//! read; flags that do not change how device code parses (`-O2`, `-arch`,
//! `-gencode`, `-o`) are dropped.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The flags of every file of a compilation database.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileCommands {
    /// The database the flags come from, as the run's options show it.
    pub source: Option<PathBuf>,
    /// How many files it gives flags for.
    pub files: usize,
    #[serde(skip)]
    by_file: Arc<HashMap<PathBuf, Flags>>,
}

impl std::hash::Hash for CompileCommands {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.source.hash(state);
        self.files.hash(state);
    }
}

/// One file's flags, split by how they combine with the command line's:
/// include directories go after the user's `-I` (which are searched
/// first), macros and the language standard before the user's `-D` (which
/// win).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    pub includes: Vec<String>,
    pub others: Vec<String>,
}

impl CompileCommands {
    /// Reads a `compile_commands.json`; the error names the file and what
    /// is wrong with it.
    pub fn load(path: &Path) -> Result<CompileCommands, String> {
        let fail = |why: String| format!("{}: {why}", path.display());
        let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read: {e}")))?;
        let entries: Vec<Entry> = serde_json::from_str(&text)
            .map_err(|e| fail(format!("not a compilation database: {e}")))?;
        let mut by_file = HashMap::new();
        for (i, entry) in entries.iter().enumerate() {
            let args = match (&entry.arguments, &entry.command) {
                (Some(args), _) => args.clone(),
                (None, Some(command)) => shlex::split(command).ok_or_else(|| {
                    fail(format!(
                        "entry {}: its command has unbalanced quotes",
                        i + 1
                    ))
                })?,
                (None, None) => {
                    return Err(fail(format!(
                        "entry {} has neither `arguments` nor `command`",
                        i + 1
                    )))
                }
            };
            let dir = Path::new(&entry.directory);
            by_file.insert(canonical(&dir.join(&entry.file)), clang_flags(&args, dir));
        }
        Ok(CompileCommands {
            source: Some(path.to_path_buf()),
            files: by_file.len(),
            by_file: Arc::new(by_file),
        })
    }

    /// The database a build leaves in a scanned directory: `DIR/
    /// compile_commands.json`, else `DIR/build/compile_commands.json`.
    pub fn find(dir: &Path) -> Option<PathBuf> {
        ["compile_commands.json", "build/compile_commands.json"]
            .iter()
            .map(|p| dir.join(p))
            .find(|p| p.is_file())
    }

    /// The flags the database gives `file`, if any.
    pub fn flags(&self, file: &Path) -> Option<&Flags> {
        if self.by_file.is_empty() {
            return None;
        }
        self.by_file.get(&canonical(file))
    }
}

#[derive(Deserialize)]
struct Entry {
    directory: String,
    file: String,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
}

/// A path as the file system resolves it, for looking files up by path.
pub(super) fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Translates a compiler's arguments (the compiler itself first) into
/// clang's, with relative paths made absolute against `dir`.
pub fn clang_flags(args: &[String], dir: &Path) -> Flags {
    let path = |p: &str| {
        let p = Path::new(p);
        if p.is_absolute() {
            p.display().to_string()
        } else {
            dir.join(p).display().to_string()
        }
    };
    let mut out = Flags::default();
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        let next = args.get(i + 1).map(String::as_str);
        // A flag's value: glued (`-Ifoo`, `--std=c++14`) or the next word.
        let value = |long: &[&str], short: &str| -> Option<(String, usize)> {
            for l in long {
                if arg == *l {
                    return next.map(|n| (n.to_string(), 2));
                }
                if let Some(v) = arg.strip_prefix(l).and_then(|r| r.strip_prefix('=')) {
                    return Some((v.to_string(), 1));
                }
            }
            if !short.is_empty() {
                if arg == short {
                    return next.map(|n| (n.to_string(), 2));
                }
                if let Some(v) = arg.strip_prefix(short) {
                    return Some((v.trim_start_matches('=').to_string(), 1));
                }
            }
            None
        };
        let step = if let Some((v, n)) = value(&["--include-path"], "-I") {
            out.includes.push(format!("-I{}", path(&v)));
            n
        } else if let Some((v, n)) = value(&["-isystem", "--system-include"], "") {
            out.includes.push(format!("-isystem{}", path(&v)));
            n
        } else if let Some((v, n)) = value(&["--define-macro"], "-D") {
            out.others.push(format!("-D{v}"));
            n
        } else if let Some((v, n)) = value(&["--undefine-macro"], "-U") {
            out.others.push(format!("-U{v}"));
            n
        } else if let Some((v, n)) = value(&["--std", "-std"], "") {
            out.others.push(format!("-std={v}"));
            n
        } else if let Some((v, n)) = value(&["--pre-include", "-include"], "") {
            out.others.push("-include".into());
            out.others.push(path(&v));
            n
        } else if matches!(arg, "-nostdinc" | "-nostdlibinc" | "-nostdinc++") {
            // A freestanding build: no system headers, so none for the
            // parse either (the built-in headers bring fallbacks).
            out.others.push(arg.to_string());
            1
        } else if matches!(
            arg,
            "-o" | "-x"
                | "-Xcompiler"
                | "-Xptxas"
                | "-Xlinker"
                | "-Xnvlink"
                | "-arch"
                | "-code"
                | "-gencode"
                | "--output-file"
                | "--compiler-bindir"
                | "-ccbin"
                | "-MF"
                | "-MT"
        ) {
            2
        } else {
            1
        };
        i += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn nvcc_and_clang_spellings_become_clangs() {
        let f = clang_flags(
            &words("nvcc -Iinc --include-path /opt/x -isystem sys -DN=4 --define-macro M -U OLD --std c++14 -O3 -arch sm_80 -Xcompiler -Wall -o k.o -c k.cu"),
            Path::new("/src"),
        );
        assert_eq!(f.includes, ["-I/src/inc", "-I/opt/x", "-isystem/src/sys"]);
        assert_eq!(f.others, ["-DN=4", "-DM", "-UOLD", "-std=c++14"]);
        let f = clang_flags(
            &words("clang++ -std=c++20 -include pre.h -I /abs"),
            Path::new("/b"),
        );
        assert_eq!(f.includes, ["-I/abs"]);
        assert_eq!(f.others, ["-std=c++20", "-include", "/b/pre.h"]);
    }

    #[test]
    fn a_bad_database_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("compile_commands.json");
        std::fs::write(&db, "{\"not\": \"a list\"}").unwrap();
        let e = CompileCommands::load(&db).unwrap_err();
        assert!(e.starts_with(&db.display().to_string()), "{e}");
        assert!(e.contains("not a compilation database"), "{e}");
        std::fs::write(&db, r#"[{"directory": "/", "file": "k.cu"}]"#).unwrap();
        let e = CompileCommands::load(&db).unwrap_err();
        assert!(e.contains("entry 1 has neither"), "{e}");
    }

    #[test]
    fn entries_are_found_by_their_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("k.cu"), "").unwrap();
        let db = dir.path().join("compile_commands.json");
        let entry = format!(
            r#"[{{"directory": "{}", "file": "k.cu", "command": "nvcc -I \"my inc\" -DW=2 -c k.cu"}}]"#,
            dir.path().display()
        );
        std::fs::write(&db, entry).unwrap();
        let cc = CompileCommands::load(&db).unwrap();
        assert_eq!(cc.files, 1);
        let flags = cc.flags(&dir.path().join("./k.cu")).unwrap();
        assert_eq!(flags.others, ["-DW=2"]);
        assert_eq!(
            flags.includes,
            [format!("-I{}", dir.path().join("my inc").display())]
        );
        assert!(cc.flags(&dir.path().join("other.cu")).is_none());
        assert_eq!(CompileCommands::find(dir.path()), Some(db));
    }
}
