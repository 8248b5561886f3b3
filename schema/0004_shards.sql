-- Sharded scans, their merge, and runs that were killed.
--
-- `runs` is rebuilt (foreign keys are off while migrations run) to admit
-- the status `interrupted`: a run whose process is gone before it finished;
-- the next scan of the database marks it, by its `owner` (host, process id
-- and start time). A run's `uid` names it across databases; a shard's run
-- records the share of the tree it took (`shard`: JSON {index, count, tree,
-- tree_files, files}); a run folded from shards lists their uids
-- (`merged_from`: JSON array, sorted), which makes merging twice a no-op.
CREATE TABLE runs_next (
    id               INTEGER PRIMARY KEY,
    started_at       TEXT NOT NULL,
    finished_at      TEXT,
    tool_version     TEXT NOT NULL,
    analysis_version TEXT NOT NULL,
    git_commit       TEXT,
    options          TEXT NOT NULL,
    label            TEXT,
    paths            TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'interrupted')),
    uid              TEXT NOT NULL,
    owner            TEXT,
    shard            TEXT,
    merged_from      TEXT
);
INSERT INTO runs_next (id, started_at, finished_at, tool_version, analysis_version, git_commit, options, label,
                       paths, status, uid)
    SELECT id, started_at, finished_at, tool_version, analysis_version, git_commit, options, label, paths,
           status, lower(hex(randomblob(16)))
    FROM runs;
DROP TABLE runs;
ALTER TABLE runs_next RENAME TO runs;
CREATE UNIQUE INDEX runs_uid ON runs (uid);
CREATE INDEX runs_merged_from ON runs (merged_from) WHERE merged_from IS NOT NULL;

-- The files a run scanned, with the hash of the bytes it read.
CREATE TABLE run_files (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    path   TEXT NOT NULL,
    hash   TEXT NOT NULL,
    PRIMARY KEY (run_id, path)
) WITHOUT ROWID;

-- The latest run that wrote or used each cache entry, so that `gc` can drop
-- the entries no kept run touched. Entries from before count as the latest
-- run's.
ALTER TABLE solver_cache ADD COLUMN last_run INTEGER;
ALTER TABLE unit_cache ADD COLUMN last_run INTEGER;
ALTER TABLE report_cache ADD COLUMN last_run INTEGER;
UPDATE solver_cache SET last_run = (SELECT max(id) FROM runs);
UPDATE unit_cache SET last_run = (SELECT max(id) FROM runs);
UPDATE report_cache SET last_run = (SELECT max(id) FROM runs);
