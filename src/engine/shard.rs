//! Sharded scans (`scan --shard K/N`): the share of a tree that one of N
//! workers takes, the same on every worker and stable from night to night.
//!
//! Files are not dealt out one by one. A kernel defined in a header (or in a
//! `.cu` file another `.cu` file includes) is analysed once, with the first
//! unit that reaches it, so every file that can reach such a kernel must sit
//! on the same shard as the others that can. Files are therefore grouped by
//! the textual `#include` graph: two files that reach a common file defining
//! `__global__` are in one group. Reading `#include` lines without the
//! preprocessor over-approximates the includes clang follows (a directive
//! under `#if 0` still joins its files), which only makes groups larger;
//! a computed `#include MACRO` is not seen.
//!
//! Groups go to shards by consistent hashing with bounded loads: each group
//! prefers the shards in the order of a hash of its name and its own path
//! (rendezvous hashing) and takes the first whose load stays within
//! `1 + SLACK` times the mean, largest groups first. A group keeps its shard
//! while loads stay under the bound, so most files stay where they were
//! when a tree changes.

use anyhow::{bail, Result};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// How far above the mean load a shard may go before a group moves on.
const SLACK: f64 = 0.15;

/// A file's weight besides its bytes: parsing any unit costs the headers.
const FILE_COST: u64 = 4096;

/// Shard `index` of `count`, counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Shard> {
        let Some((k, n)) = s.split_once('/') else {
            bail!("`{s}`: a shard is K/N, e.g. 2/8");
        };
        let (Ok(index), Ok(count)) = (k.trim().parse::<u32>(), n.trim().parse::<u32>()) else {
            bail!("`{s}`: a shard is K/N with whole numbers, e.g. 2/8");
        };
        Shard::new(index, count)
    }
}

impl Shard {
    pub fn new(index: u32, count: u32) -> Result<Shard> {
        if count == 0 || index == 0 || index > count {
            bail!("shard {index}/{count}: K must be between 1 and N");
        }
        Ok(Shard { index, count })
    }

    /// The shard a batch engine gives this process, from its environment:
    /// `DRFSCAN_SHARD=K/N`; GitLab's parallel jobs (`CI_NODE_INDEX`,
    /// `CI_NODE_TOTAL`); a Slurm job array (`SLURM_ARRAY_TASK_ID` from
    /// `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT`); a Kubernetes
    /// Indexed Job (`JOB_COMPLETION_INDEX` from 0, with the count in
    /// `DRFSCAN_SHARD_COUNT`, which also overrides the others' counts).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard> {
        let num = |name: &str| -> Result<Option<u32>> {
            match var(name) {
                None => Ok(None),
                Some(v) if v.trim().is_empty() => Ok(None),
                Some(v) => match v.trim().parse::<u32>() {
                    Ok(n) => Ok(Some(n)),
                    Err(_) => bail!("{name}={v}: not a whole number"),
                },
            }
        };
        let count_override = num("DRFSCAN_SHARD_COUNT")?;
        if let Some(s) = var("DRFSCAN_SHARD").filter(|s| !s.trim().is_empty()) {
            return s
                .parse()
                .map_err(|e: anyhow::Error| e.context("DRFSCAN_SHARD"));
        }
        let from = |index: u32, count: Option<u32>, what: &str| -> Result<Shard> {
            let Some(count) = count_override.or(count) else {
                bail!("--shard auto: {what} gives no shard count; set DRFSCAN_SHARD_COUNT");
            };
            Shard::new(index, count).map_err(|e| e.context(format!("--shard auto ({what})")))
        };
        if let Some(i) = num("CI_NODE_INDEX")? {
            return from(i, num("CI_NODE_TOTAL")?, "CI_NODE_INDEX");
        }
        if let Some(i) = num("SLURM_ARRAY_TASK_ID")? {
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            if i < min {
                bail!("--shard auto: SLURM_ARRAY_TASK_ID={i} is below SLURM_ARRAY_TASK_MIN={min}");
            }
            return from(
                i - min + 1,
                num("SLURM_ARRAY_TASK_COUNT")?,
                "SLURM_ARRAY_TASK_ID",
            );
        }
        if let Some(i) = num("JOB_COMPLETION_INDEX")? {
            return from(i + 1, None, "JOB_COMPLETION_INDEX");
        }
        bail!(
            "--shard auto: no shard in the environment (DRFSCAN_SHARD, CI_NODE_INDEX/CI_NODE_TOTAL, \
             SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX with DRFSCAN_SHARD_COUNT)"
        )
    }
}

/// What a shard records about the share it took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Share {
    pub index: u32,
    pub count: u32,
    /// A digest of every scanned file of the tree (relative path and
    /// content), the same on every shard of one tree.
    pub tree: String,
    /// Files of the tree, and of them this shard's.
    pub tree_files: usize,
    pub files: usize,
}

/// The files of one shard, and the share it records.
#[derive(Debug)]
pub struct Partition {
    pub files: Vec<PathBuf>,
    pub share: Share,
}

/// `path` relative to the scanned root that holds it, with `/` separators;
/// a root that is a file is its name.
pub fn relative(path: &Path, roots: &[PathBuf]) -> String {
    let rel = roots
        .iter()
        .filter_map(|r| {
            if r == path {
                path.file_name().map(PathBuf::from)
            } else {
                path.strip_prefix(r).ok().map(Path::to_path_buf)
            }
        })
        .min_by_key(|r| r.components().count())
        .unwrap_or_else(|| path.to_path_buf());
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The shards in the order `key` prefers them.
fn preference(key: &str, count: u32) -> Vec<u32> {
    let mut order: Vec<(blake3::Hash, u32)> = (1..=count)
        .map(|s| {
            let mut h = blake3::Hasher::new();
            h.update(key.as_bytes());
            h.update(&s.to_le_bytes());
            (h.finalize(), s)
        })
        .collect();
    order.sort_by(|a, b| b.0.as_bytes().cmp(a.0.as_bytes()));
    order.into_iter().map(|(_, s)| s).collect()
}

/// The shard a path without a group (a warning's path) goes to.
pub fn shard_of_path(rel: &str, count: u32) -> u32 {
    preference(rel, count)[0]
}

/// A file as the include graph sees it.
struct Node {
    includes: Vec<String>,
    defines_kernel: bool,
}

/// The names a file's `#include` lines give.
fn include_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        let Some(rest) = l.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim_start();
        let close = match rest.chars().next() {
            Some('"') => '"',
            Some('<') => '>',
            _ => continue,
        };
        if let Some(end) = rest[1..].find(close) {
            names.push(rest[1..1 + end].to_string());
        }
    }
    names
}

struct Graph<'a> {
    include_dirs: &'a [PathBuf],
    headers: &'a [PathBuf],
    nodes: HashMap<PathBuf, Option<Node>>,
    resolved: HashMap<(PathBuf, String), Vec<PathBuf>>,
}

impl Graph<'_> {
    fn node(&mut self, path: &Path, text: Option<&[u8]>) -> Option<&Node> {
        if !self.nodes.contains_key(path) {
            let read;
            let bytes = match text {
                Some(b) => Some(b),
                None => {
                    read = std::fs::read(path).ok();
                    read.as_deref()
                }
            };
            let node = bytes.map(|b| {
                let text = String::from_utf8_lossy(b);
                Node {
                    includes: include_names(&text),
                    defines_kernel: text.contains("__global__"),
                }
            });
            self.nodes.insert(path.to_path_buf(), node);
        }
        self.nodes.get(path).and_then(Option::as_ref)
    }

    /// Every file an `#include "name"` in `from` could mean: next to it, in
    /// an include directory, or a header of the tree whose path ends so.
    fn resolve(&mut self, from: &Path, name: &str) -> Vec<PathBuf> {
        let key = (
            from.parent().unwrap_or(from).to_path_buf(),
            name.to_string(),
        );
        if let Some(r) = self.resolved.get(&key) {
            return r.clone();
        }
        let mut out = Vec::new();
        let dirs = from
            .parent()
            .into_iter()
            .chain(self.include_dirs.iter().map(PathBuf::as_path));
        for d in dirs {
            let p = d.join(name);
            if p.is_file() {
                out.push(std::fs::canonicalize(&p).unwrap_or(p));
            }
        }
        let wanted = Path::new(name);
        if wanted.is_relative() {
            out.extend(self.headers.iter().filter(|h| h.ends_with(wanted)).cloned());
        }
        out.sort();
        out.dedup();
        self.resolved.insert(key, out.clone());
        out
    }

    /// The files defining kernels that `start` reaches through includes.
    fn kernel_files(&mut self, start: &Path, bytes: &[u8]) -> Vec<PathBuf> {
        let mut seen: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
        let mut stack = vec![start.to_path_buf()];
        let mut found = Vec::new();
        seen.insert(start.to_path_buf());
        while let Some(p) = stack.pop() {
            let text = (p == start).then_some(bytes);
            let Some(node) = self.node(&p, text) else {
                continue;
            };
            if node.defines_kernel && p != start {
                found.push(p.clone());
            }
            let names = node.includes.clone();
            for name in names {
                for q in self.resolve(&p, &name) {
                    if seen.insert(q.clone()) {
                        stack.push(q);
                    }
                }
            }
        }
        found
    }
}

/// Whether a file's text launches a kernel or declares one (read without
/// the preprocessor: more files than clang would see, never fewer).
fn names_kernels(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    has(b"<<<") || has(b"__global__") || has(b"cudaLaunch")
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The files of `files` (the scan's, sorted, with their bytes) that `shard`
/// takes; `headers` are the tree's headers, `include_dirs` the `-I` flags.
pub fn partition(
    files: &[(PathBuf, Vec<u8>)],
    roots: &[PathBuf],
    headers: &[PathBuf],
    include_dirs: &[PathBuf],
    shard: Shard,
) -> Partition {
    let rels: Vec<String> = files.iter().map(|(p, _)| relative(p, roots)).collect();
    let mut tree = blake3::Hasher::new();
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|a, b| rels[*a].cmp(&rels[*b]));
    for &i in &order {
        tree.update(rels[i].as_bytes());
        tree.update(b"\0");
        tree.update(blake3::hash(&files[i].1).as_bytes());
    }
    let tree = tree.finalize().to_hex().to_string();

    // Union-find over the scanned files and the kernel files they reach.
    let mut index: HashMap<PathBuf, usize> = files
        .iter()
        .enumerate()
        .map(|(i, (p, _))| (p.clone(), i))
        .collect();
    let mut parent: Vec<usize> = (0..files.len()).collect();
    let mut graph = Graph {
        include_dirs,
        headers,
        nodes: HashMap::new(),
        resolved: HashMap::new(),
    };
    if shard.count > 1 {
        for (i, (path, bytes)) in files.iter().enumerate() {
            for k in graph.kernel_files(path, bytes) {
                let j = *index.entry(k).or_insert_with(|| {
                    parent.push(parent.len());
                    parent.len() - 1
                });
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
        // A scan gives a kernel the launches other files of its directory
        // make of it: the files of a directory that launch or name kernels
        // go together.
        let mut first_of_dir: HashMap<&Path, usize> = HashMap::new();
        for (i, (path, bytes)) in files.iter().enumerate() {
            if !names_kernels(bytes) {
                continue;
            }
            let dir = path.parent().unwrap_or(Path::new(""));
            let j = *first_of_dir.entry(dir).or_insert(i);
            let (a, b) = (find(&mut parent, i), find(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
    }

    // Groups of scanned files, named by their first relative path.
    let mut groups: BTreeMap<usize, (String, u64, Vec<usize>)> = BTreeMap::new();
    for (i, (_, bytes)) in files.iter().enumerate() {
        let root = find(&mut parent, i);
        let g = groups
            .entry(root)
            .or_insert_with(|| (rels[i].clone(), 0, Vec::new()));
        if rels[i] < g.0 {
            g.0 = rels[i].clone();
        }
        g.1 += bytes.len() as u64 + FILE_COST;
        g.2.push(i);
    }
    let mut groups: Vec<(String, u64, Vec<usize>)> = groups.into_values().collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));

    let total: u64 = groups.iter().map(|g| g.1).sum();
    let cap = (total as f64 * (1.0 + SLACK) / shard.count as f64).ceil() as u64;
    let mut load = vec![0u64; shard.count as usize + 1];
    let mut mine = Vec::new();
    for (key, weight, members) in &groups {
        let prefs = preference(key, shard.count);
        let chosen = prefs
            .iter()
            .copied()
            .find(|&s| load[s as usize] + weight <= cap)
            .unwrap_or_else(|| {
                *prefs
                    .iter()
                    .min_by_key(|&&s| load[s as usize])
                    .expect("at least one shard")
            });
        load[chosen as usize] += weight;
        if chosen == shard.index {
            mine.extend(members.iter().copied());
        }
    }
    mine.sort();
    let share = Share {
        index: shard.index,
        count: shard.count,
        tree,
        tree_files: files.len(),
        files: mine.len(),
    };
    Partition {
        files: mine.into_iter().map(|i| files[i].0.clone()).collect(),
        share,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) -> (PathBuf, Vec<u8>) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        (p.canonicalize().unwrap(), text.as_bytes().to_vec())
    }

    #[test]
    fn shards_parse_and_refuse_nonsense() {
        assert_eq!(
            "2/8".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 8 }
        );
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_environment_of_each_batch_engine_names_a_shard() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let s = |index, count| Shard { index, count };
        assert_eq!(
            Shard::from_env(env(&[("DRFSCAN_SHARD", "3/5")])).unwrap(),
            s(3, 5)
        );
        assert_eq!(
            Shard::from_env(env(&[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "4")])).unwrap(),
            s(2, 4)
        );
        assert_eq!(
            Shard::from_env(env(&[
                ("SLURM_ARRAY_TASK_ID", "0"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_COUNT", "4")
            ]))
            .unwrap(),
            s(1, 4)
        );
        assert_eq!(
            Shard::from_env(env(&[
                ("JOB_COMPLETION_INDEX", "3"),
                ("DRFSCAN_SHARD_COUNT", "4")
            ]))
            .unwrap(),
            s(4, 4)
        );
        let e = Shard::from_env(env(&[("JOB_COMPLETION_INDEX", "0")])).unwrap_err();
        assert!(format!("{e:#}").contains("DRFSCAN_SHARD_COUNT"), "{e:#}");
        assert!(Shard::from_env(env(&[])).is_err());
        assert!(Shard::from_env(env(&[("CI_NODE_INDEX", "5"), ("CI_NODE_TOTAL", "4")])).is_err());
    }

    #[test]
    fn shards_cover_the_tree_once_and_keep_includers_of_a_kernel_together() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let mut files = Vec::new();
        for i in 0..40 {
            files.push(write(
                &root,
                &format!("m{}/f{i}.cu", i % 5),
                &"x".repeat(100 * (i + 1)),
            ));
        }
        // Two files reach one header's kernel, through another header.
        write(&root, "inc/kern.cuh", "__global__ void k() {}\n");
        write(&root, "inc/wrap.h", "#include \"kern.cuh\"\n");
        let headers = vec![root.join("inc/kern.cuh"), root.join("inc/wrap.h")];
        files.push(write(&root, "a/use1.cu", "#include \"wrap.h\"\n"));
        files.push(write(&root, "z/use2.cu", "#include \"../inc/kern.cuh\"\n"));
        // A `.cu` file included by another is a kernel file too.
        files.push(write(&root, "b/main.cu", "#include \"main_kernel.cu\"\n"));
        files.push(write(&root, "b/main_kernel.cu", "__global__ void m() {}\n"));
        files.push(write(
            &root,
            "c/kernels.cu",
            "__global__ void t(int *a) { a[0] = 1; }\n",
        ));
        files.push(write(
            &root,
            "c/main.cu",
            "__global__ void t(int *a);\nvoid run(int *a) { t<<<1, 1>>>(a); }\n",
        ));
        files.sort();
        let roots = vec![root.clone()];
        for count in [1, 2, 3, 7] {
            let mut seen: HashMap<PathBuf, u32> = HashMap::new();
            let mut tree = None;
            for index in 1..=count {
                let p = partition(
                    &files,
                    &roots,
                    &headers,
                    &[],
                    Shard::new(index, count).unwrap(),
                );
                assert_eq!(p.share.tree_files, files.len());
                assert!(tree.get_or_insert(p.share.tree.clone()) == &p.share.tree);
                for f in p.files {
                    assert!(seen.insert(f, index).is_none(), "a file on two shards");
                }
            }
            assert_eq!(seen.len(), files.len(), "{count} shards miss a file");
            let on = |rel: &str| seen[&root.join(rel)];
            assert_eq!(on("a/use1.cu"), on("z/use2.cu"));
            assert_eq!(on("b/main.cu"), on("b/main_kernel.cu"));
            // A kernel and its launch through a declaration, side by side.
            assert_eq!(on("c/main.cu"), on("c/kernels.cu"));
        }
    }

    #[test]
    fn most_files_stay_on_their_shard_when_one_is_added() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let mut files: Vec<_> = (0..200)
            .map(|i| {
                write(
                    &root,
                    &format!("d{}/f{i}.cu", i % 9),
                    &"y".repeat(50 + (i * 37) % 900),
                )
            })
            .collect();
        files.sort();
        let roots = vec![root.clone()];
        let assign = |files: &[(PathBuf, Vec<u8>)]| {
            let mut at = HashMap::new();
            let mut loads = Vec::new();
            for index in 1..=4 {
                let p = partition(files, &roots, &[], &[], Shard::new(index, 4).unwrap());
                loads.push(
                    p.files
                        .iter()
                        .map(|f| {
                            files.iter().find(|x| &x.0 == f).unwrap().1.len() as u64 + FILE_COST
                        })
                        .sum::<u64>(),
                );
                for f in p.files {
                    at.insert(f, index);
                }
            }
            (at, loads)
        };
        let (before, loads) = assign(&files);
        let mean = loads.iter().sum::<u64>() as f64 / 4.0;
        assert!(
            loads
                .iter()
                .all(|&l| (l as f64) <= mean * (1.0 + SLACK) + 1.0),
            "{loads:?}"
        );
        files.push(write(&root, "new/added.cu", "__global__ void added() {}\n"));
        files.sort();
        let (after, _) = assign(&files);
        let moved = before.iter().filter(|(f, s)| after[*f] != **s).count();
        assert!(moved <= 10, "{moved} of 200 files moved");
    }
}
