-- Sharded scans and their merge. A run's `uid` names it across databases;
-- a shard's run records which share of the tree it took (`shard`: JSON
-- {index, count, tree, files}); a run folded from shards lists their uids
-- (`merged_from`: JSON array, sorted), which makes merging twice a no-op.
ALTER TABLE runs ADD COLUMN uid TEXT;
ALTER TABLE runs ADD COLUMN shard TEXT;
ALTER TABLE runs ADD COLUMN merged_from TEXT;
UPDATE runs SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
CREATE UNIQUE INDEX runs_uid ON runs (uid);

-- The files a run scanned, with the hash of the bytes it read.
CREATE TABLE run_files (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    path   TEXT NOT NULL,
    hash   TEXT NOT NULL,
    PRIMARY KEY (run_id, path)
) WITHOUT ROWID;
