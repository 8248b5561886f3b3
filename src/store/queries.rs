//! Saved queries (`queries/*.sql`), embedded in the binary. Each file starts
//! with a `-- description` line and takes its arguments as `?1`, `?2`, ….

pub struct SavedQuery {
    pub name: &'static str,
    pub description: &'static str,
    pub sql: &'static str,
}

macro_rules! saved {
    ($($name:literal),* $(,)?) => {
        [$(($name, include_str!(concat!("../../queries/", $name, ".sql")))),*]
    };
}

const FILES: [(&str, &str); 6] = saved!(
    "latest_verdicts",
    "kernel_history",
    "new_races_since",
    "slowest_kernels",
    "unsupported_reasons",
    "flaky_verdicts",
);

/// Every saved query, in a fixed order.
pub fn saved_queries() -> Vec<SavedQuery> {
    FILES
        .iter()
        .map(|&(name, sql)| SavedQuery {
            name,
            description: sql
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("--"))
                .unwrap_or("")
                .trim(),
            sql,
        })
        .collect()
}

impl SavedQuery {
    pub fn find(name: &str) -> Option<SavedQuery> {
        saved_queries().into_iter().find(|q| q.name == name)
    }
}
