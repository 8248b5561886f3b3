-- Whole kernel reports, keyed by the blake3 hash of the kernel's protocols
-- (locations included, so reported lines stay right), the solver options and
-- the analysis version. A hit skips splitting, solving and witness replay:
-- every witness in a cached report was replayed when it was first found.
CREATE TABLE report_cache (
    key    TEXT PRIMARY KEY,
    report TEXT NOT NULL     -- check::KernelReport as JSON, with its trace count
) WITHOUT ROWID;
