//! Which process a run belongs to, so that a later scan can tell a run that
//! is still going from one whose process was killed: the host, the process
//! id and, where `/proc` says, the process's start time (process ids are
//! reused).

/// `host:pid:start` of this process.
pub fn this_process() -> String {
    let pid = std::process::id();
    format!("{}:{pid}:{}", host(), start_time(pid).unwrap_or_default())
}

/// Whether the process `owner` names has ended. Unknowable for another
/// host or without `/proc`: such a run is taken to be alive.
pub fn is_gone(owner: &str) -> bool {
    let mut parts = owner.rsplitn(3, ':');
    let (Some(start), Some(pid), Some(host_name)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if host_name != host() || !std::path::Path::new("/proc/self/stat").exists() {
        return false;
    }
    match start_time(pid) {
        None => true,
        Some(now) => !start.is_empty() && now != start,
    }
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().replace(':', "_"))
        .unwrap_or_default()
}

/// Field 22 of `/proc/PID/stat`: clock ticks from boot to the process start.
fn start_time(pid: u32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_an_ended_one_is_gone() {
        let me = this_process();
        assert!(!is_gone(&me), "{me}");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(is_gone(&format!("{}:{pid}:1", host())));
        // Another host, or a name that is not ours: not ours to judge.
        assert!(!is_gone(&format!("elsewhere-{}:{pid}:1", host())));
        assert!(!is_gone("garbage"));
        // The same pid with another start time is another process.
        let (head, _) = me.rsplit_once(':').unwrap();
        assert!(is_gone(&format!("{head}:0")));
    }
}
