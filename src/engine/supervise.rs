//! Crash isolation and budgets a thread cannot enforce: `scan` runs its work
//! in a worker process and watches it from the parent.
//!
//! libclang and Z3 run in the worker's address space: a segfault or an abort
//! in either, an out-of-memory kill, or a parse that never ends (a macro
//! bomb, a pathological expression) would otherwise end the whole scan. The
//! worker writes one line to an event log when it starts and when it ends
//! each unit of work (a file's parse, a kernel's analysis). When the worker
//! dies by a signal, or is killed by the parent because an item outran its
//! budget (`--kernel-timeout`, `--kernel-memory`), the items in flight are
//! the suspects: one suspect is recorded as that file's or kernel's result,
//! several make the next worker run one item at a time until the culprit
//! shows. Each new worker continues the same run; what earlier workers
//! committed is reused through the caches, so nothing is parsed or solved
//! twice. In the usual case, with no crash, the cost is one extra process.

use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Environment of a worker: the directory of its event log and skip list.
pub const WORKER_ENV: &str = "DRFSCAN_WORKER_DIR";
/// The run a worker continues.
pub const RUN_ENV: &str = "DRFSCAN_WORKER_RUN";
/// One item at a time.
pub const SERIAL_ENV: &str = "DRFSCAN_WORKER_SERIAL";
/// How long the scan ran before this worker started (earlier workers),
/// in milliseconds: the run's wall time counts them.
pub const ELAPSED_ENV: &str = "DRFSCAN_WORKER_ELAPSED_MS";
/// The process a worker's run belongs to: the parent, which outlives it.
pub const OWNER_ENV: &str = "DRFSCAN_WORKER_OWNER";
/// The parent's process id: a worker does not outlive it.
const PARENT_ENV: &str = "DRFSCAN_WORKER_PARENT";

const EVENTS: &str = "events";
const SKIP: &str = "skip";

/// Beyond the budget, how long the parent waits before it kills a worker:
/// the worker's own deadlines should end a kernel first.
const GRACE: Duration = Duration::from_secs(2);
const PARSE_GRACE: Duration = Duration::from_millis(500);
/// Memory the worker needs besides its kernels (headers, caches, threads).
const BASE_MIB: u64 = 768;

/// One unit of work: a file's parse or one kernel of a unit.
pub fn parse_key(path: &Path) -> String {
    format!("parse\t{}", path.display())
}

pub fn kernel_key(path: &Path, index: usize) -> String {
    format!("kernel\t{}\t{index}", path.display())
}

/// Why an item is not analysed again, as its result says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// `error` for a crash, `unknown` for a budget.
    pub verdict: crate::check::Verdict,
    pub reason: String,
}

/// The worker's side: the event log and the items to skip.
#[derive(Debug)]
pub struct Worker {
    events: Mutex<std::fs::File>,
    skip: HashMap<String, Skipped>,
    pub serial: bool,
    /// The run an earlier worker began, to continue.
    pub run: Option<i64>,
    /// The owner recorded with the run.
    pub owner: Option<String>,
    /// Time earlier workers of the run took.
    pub elapsed_before: Duration,
}

impl Worker {
    /// The worker of this process, when the parent started it as one.
    pub fn from_env() -> Result<Option<Worker>> {
        let Some(dir) = std::env::var_os(WORKER_ENV) else {
            return Ok(None);
        };
        let dir = PathBuf::from(dir);
        die_with_parent();
        let events = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join(EVENTS))
            .with_context(|| format!("{}: cannot open the worker's event log", dir.display()))?;
        let mut skip = HashMap::new();
        if let Ok(text) = std::fs::read_to_string(dir.join(SKIP)) {
            for line in text.lines() {
                let mut parts = line.rsplitn(3, '\t');
                let (Some(reason), Some(verdict), Some(key)) =
                    (parts.next(), parts.next(), parts.next())
                else {
                    continue;
                };
                let verdict = if verdict == "unknown" {
                    crate::check::Verdict::Unknown
                } else {
                    crate::check::Verdict::Error
                };
                skip.insert(
                    key.to_string(),
                    Skipped {
                        verdict,
                        reason: reason.to_string(),
                    },
                );
            }
        }
        Ok(Some(Worker {
            events: Mutex::new(events),
            skip,
            serial: std::env::var_os(SERIAL_ENV).is_some(),
            run: std::env::var(RUN_ENV).ok().and_then(|r| r.parse().ok()),
            owner: std::env::var(OWNER_ENV).ok(),
            elapsed_before: std::env::var(ELAPSED_ENV)
                .ok()
                .and_then(|ms| ms.parse().ok())
                .map(Duration::from_millis)
                .unwrap_or_default(),
        }))
    }

    /// Tell the parent which run this worker records.
    pub fn run_started(&self, run: i64) {
        self.log('R', &run.to_string());
    }

    fn log(&self, what: char, key: &str) {
        let mut f = self.events.lock().unwrap_or_else(|e| e.into_inner());
        // One write per line: the parent reads whole lines even after a crash.
        let _ = f.write_all(format!("{what}\t{key}\n").as_bytes());
    }

    pub fn start(&self, key: &str) {
        self.log('S', key);
    }

    pub fn done(&self, key: &str) {
        self.log('D', key);
    }

    pub fn skipped(&self, key: &str) -> Option<&Skipped> {
        self.skip.get(key)
    }
}

/// A worker whose parent is killed (`kill -9` on the scan) is killed too,
/// rather than scanning on unwatched.
fn die_with_parent() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and no pointers.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    // The parent may have died before the request took effect.
    let expected = std::env::var(PARENT_ENV)
        .ok()
        .and_then(|p| p.parse::<u32>().ok());
    if expected.is_some_and(|p| p != std::os::unix::process::parent_id()) {
        std::process::exit(137);
    }
}

/// The items a worker started and did not finish, from its event log.
fn in_flight(events: &str) -> Vec<String> {
    let mut open: BTreeMap<&str, i64> = BTreeMap::new();
    for line in events.lines() {
        match line.split_once('\t') {
            Some(("S", key)) => *open.entry(key).or_default() += 1,
            Some(("D", key)) => *open.entry(key).or_default() -= 1,
            _ => {}
        }
    }
    open.into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, _)| k.to_string())
        .collect()
}

/// The name of signal `n`, for reasons users read.
fn signal_name(n: i32) -> String {
    let name = match n {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        15 => "SIGTERM",
        _ => "",
    };
    if name.is_empty() {
        format!("signal {n}")
    } else {
        format!("signal {n} ({name})")
    }
}

/// Resident memory of process `pid` in MiB, where `/proc` says.
fn resident_mib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// What the parent enforces.
#[derive(Clone, Copy, Debug)]
pub struct Budgets {
    /// One item's wall time; `None`: no limit.
    pub time: Option<Duration>,
    /// One item's memory in MiB; `None`: no limit.
    pub memory_mib: Option<u64>,
    pub jobs: usize,
}

/// Why the parent stopped a worker.
enum Stop {
    /// Items past the time budget.
    Slow(Vec<String>),
    Big,
}

/// A worker directory's name: this prefix, the parent's process id, a dash
/// and a random part.
const WORKER_DIR_PREFIX: &str = "drfscan-worker-";

/// Removes the worker directories of scans whose parent no longer runs
/// (killed outright, by SIGKILL or a closed terminal, before it could
/// remove its own). A directory whose process id is in use again is left
/// for a later scan.
fn remove_stale_worker_dirs(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(WORKER_DIR_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = Path::new("/proc").join(pid.to_string()).exists();
        if !alive && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Run `args` (this program's `scan` arguments) in worker processes until
/// one finishes; return its exit status, after printing its output.
pub fn supervise(args: &[OsString], budgets: Budgets) -> Result<i32> {
    let began = Instant::now();
    let exe = std::env::current_exe().context("cannot find this program to start a worker")?;
    remove_stale_worker_dirs(&std::env::temp_dir());
    let dir = tempfile::Builder::new()
        .prefix(&format!("{WORKER_DIR_PREFIX}{}-", std::process::id()))
        .tempdir()
        .context("cannot create the worker's directory")?;
    let events_path = dir.path().join(EVENTS);
    let mut skip: BTreeMap<String, (String, String)> = BTreeMap::new();
    // One thread is serial already: a crash then has one suspect.
    let mut serial = budgets.jobs <= 1;
    let mut run: Option<i64> = None;
    let mut fruitless = 0;
    // Items some worker finished.
    let mut finished: BTreeSet<String> = BTreeSet::new();
    loop {
        std::fs::write(&events_path, "").context("cannot reset the worker's event log")?;
        let list: String = skip
            .iter()
            .map(|(k, (v, r))| format!("{k}\t{v}\t{}\n", r.replace(['\t', '\n'], " ")))
            .collect();
        std::fs::write(dir.path().join(SKIP), list).context("cannot write the skip list")?;
        let mut cmd = Command::new(&exe);
        cmd.args(args)
            .env(WORKER_ENV, dir.path())
            .env(OWNER_ENV, crate::store::this_process())
            .env(PARENT_ENV, std::process::id().to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(r) = run {
            cmd.env(RUN_ENV, r.to_string());
            cmd.env(ELAPSED_ENV, began.elapsed().as_millis().to_string());
        }
        if serial {
            cmd.env(SERIAL_ENV, "1");
        }
        let mut child = cmd.spawn().context("cannot start a worker process")?;
        let mut stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = stdout.read_to_end(&mut out);
            out
        });

        let mut log = std::fs::File::open(&events_path).context("cannot read the event log")?;
        let mut seen = String::new();
        let mut started: HashMap<String, Instant> = HashMap::new();
        let mem_limit = budgets.memory_mib.map(|m| {
            BASE_MIB
                + m * if serial {
                    1
                } else {
                    budgets.jobs.max(1) as u64
                }
        });
        let mut stop = None;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            std::thread::sleep(Duration::from_millis(50));
            let mut more = String::new();
            let _ = log.read_to_string(&mut more);
            for line in more.lines() {
                match line.split_once('\t') {
                    Some(("S", key)) => {
                        started.insert(key.to_string(), Instant::now());
                    }
                    Some(("D", key)) => {
                        started.remove(key);
                    }
                    _ => {}
                }
            }
            seen.push_str(&more);
            if stop.is_some() {
                continue;
            }
            if let Some(limit) = budgets.time {
                // A kernel's own deadline should end it first; nothing ends
                // a parse but this.
                let over = |key: &str, t: &Instant| {
                    t.elapsed()
                        > limit
                            + if key.starts_with("parse\t") {
                                PARSE_GRACE
                            } else {
                                GRACE
                            }
                };
                if started.iter().any(|(k, t)| over(k, t)) {
                    // Everything else past the budget by now is stuck too.
                    let mut late: Vec<String> = started
                        .iter()
                        .filter(|(_, t)| t.elapsed() > limit)
                        .map(|(k, _)| k.clone())
                        .collect();
                    late.sort();
                    stop = Some(Stop::Slow(late));
                }
            }
            if let (Some(limit), Some(rss)) = (mem_limit, resident_mib(child.id())) {
                if rss > limit {
                    stop = Some(Stop::Big);
                }
            }
            if stop.is_some() {
                let _ = child.kill();
            }
        };
        let out = reader.join().unwrap_or_default();
        let _ = log.seek(std::io::SeekFrom::Start(seen.len() as u64));
        let mut rest = String::new();
        let _ = log.read_to_string(&mut rest);
        seen.push_str(&rest);

        use std::os::unix::process::ExitStatusExt;
        if stop.is_none() && status.signal().is_none() {
            std::io::stdout().write_all(&out).ok();
            return Ok(status.code().unwrap_or(2));
        }
        // The run the worker began: later workers continue it.
        if run.is_none() {
            run = seen
                .lines()
                .find_map(|l| l.strip_prefix("R\t"))
                .and_then(|r| r.trim().parse().ok());
        }
        let suspects = in_flight(&seen);
        let mut progressed = false;
        for key in seen.lines().filter_map(|l| l.strip_prefix("D\t")) {
            progressed |= finished.insert(key.to_string());
        }
        let budget = budgets.time.map(|t| t.as_secs_f64()).unwrap_or(0.0);
        let parse = |k: &str| k.starts_with("parse\t");
        // The verdict, each culprit with its reason, and what happened.
        let (verdict, culprits, what): (&str, Vec<(String, String)>, String) = match stop {
            Some(Stop::Slow(keys)) => {
                let reason = |k: &str| {
                    format!(
                        "{}: {} took longer than {budget} s (--kernel-timeout)",
                        crate::options::TIME_BUDGET,
                        if parse(k) {
                            "parsing the file"
                        } else {
                            "the kernel's analysis"
                        }
                    )
                };
                let culprits = keys
                    .into_iter()
                    .map(|k| {
                        let r = reason(&k);
                        (k, r)
                    })
                    .collect();
                ("unknown", culprits, crate::options::TIME_BUDGET.into())
            }
            Some(Stop::Big) => {
                let reason = format!(
                    "memory budget: the worker passed {} MiB ({} MiB for the kernel or file, --kernel-memory, \
                     and {BASE_MIB} MiB for the scan)",
                    mem_limit.unwrap_or(0),
                    budgets.memory_mib.unwrap_or(0)
                );
                // One item in flight is the one growing, whatever the
                // others left behind.
                let culprits = if serial || suspects.len() == 1 {
                    suspects
                        .iter()
                        .map(|k| (k.clone(), reason.clone()))
                        .collect()
                } else {
                    Vec::new()
                };
                ("unknown", culprits, reason)
            }
            None => {
                let signal = signal_name(status.signal().unwrap_or(0));
                let culprits = if suspects.len() == 1 {
                    suspects
                        .iter()
                        .map(|k| {
                            let crashed = if parse(k) {
                                "the front-end (libclang) crashed on this file"
                            } else {
                                "the analysis crashed on this kernel"
                            };
                            (k.clone(), format!("{crashed}: {signal}"))
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                ("error", culprits, signal)
            }
        };
        if culprits.is_empty() {
            if suspects.len() > 1 && !serial {
                // Several items were in flight: find the one, one at a time.
                serial = true;
                continue;
            }
            // A worker that finished items no worker before it had moved
            // the run on: the next one finds them in the cache, with its
            // memory fresh.
            if progressed {
                fruitless = 0;
            }
            fruitless += 1;
            if fruitless >= 2 {
                bail!("the worker process died ({what}) outside any file or kernel; the run so far is kept");
            }
            continue;
        }
        fruitless = 0;
        for (k, reason) in culprits {
            eprintln!(
                "drfscan: warning: {}: {reason}",
                k.split('\t').nth(1).unwrap_or("")
            );
            skip.insert(k, (verdict.to_string(), reason));
        }
        // Back to full speed once the culprit is known.
        serial = budgets.jobs <= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_flight_items_are_started_and_not_done() {
        let log = "S\tparse\ta.cu\nS\tparse\tb.cu\nD\tparse\ta.cu\nS\tkernel\tb.cu\t0\nD\tkernel\tb.cu\t0\nS\tkernel\tb.cu\t1\n";
        assert_eq!(in_flight(log), vec!["kernel\tb.cu\t1", "parse\tb.cu"]);
        assert!(in_flight("").is_empty());
    }

    #[test]
    fn worker_dirs_of_scans_that_no_longer_run_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let mine = format!("{WORKER_DIR_PREFIX}{}-a1b2", std::process::id());
        // Above any process id Linux hands out.
        let dead = format!("{WORKER_DIR_PREFIX}4294967290-c3d4");
        for d in [
            &mine,
            &dead,
            &"drfscan-worker-x9".to_string(),
            &"other".to_string(),
        ] {
            std::fs::create_dir(tmp.path().join(d)).unwrap();
            std::fs::write(tmp.path().join(d).join(EVENTS), "").unwrap();
        }
        remove_stale_worker_dirs(tmp.path());
        let mut left: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, vec![mine, "drfscan-worker-x9".into(), "other".into()]);
    }

    #[test]
    fn signals_have_names() {
        assert_eq!(signal_name(11), "signal 11 (SIGSEGV)");
        assert_eq!(signal_name(42), "signal 42");
    }
}
