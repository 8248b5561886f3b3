-- drfscan verdict database, version 1.

CREATE TABLE runs (
    id               INTEGER PRIMARY KEY,
    started_at       TEXT NOT NULL,              -- UTC, ISO 8601
    finished_at      TEXT,
    tool_version     TEXT NOT NULL,
    analysis_version TEXT NOT NULL,
    git_commit       TEXT,                       -- HEAD of the scanned tree, when it is a git checkout
    options          TEXT NOT NULL,              -- JSON: front-end and analysis options
    label            TEXT,
    paths            TEXT NOT NULL,              -- JSON array of the scanned paths, absolute
    status           TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed'))
);

-- One row per distinct content of a file.
CREATE TABLE files (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    hash TEXT NOT NULL,                          -- blake3 of the bytes, hex
    UNIQUE (path, hash)
);

-- A kernel is known by its file path and name, across every version of the file.
CREATE TABLE kernels (
    id   INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (path, name)
);

CREATE TABLE results (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    kernel_id    INTEGER NOT NULL REFERENCES kernels (id),
    file_id      INTEGER NOT NULL REFERENCES files (id),
    verdict      TEXT NOT NULL CHECK (verdict IN ('drf', 'racy', 'divergent', 'unknown', 'unsupported', 'error')),
    reason       TEXT,
    line         INTEGER,
    col          INTEGER,
    parse_ms     REAL NOT NULL,                  -- clang's share of the file's parse, per kernel; 0 when the unit cache answered
    infer_ms     REAL NOT NULL,                  -- lowering and protocol inference (per-kernel share), well-formedness, split, seq
    solve_ms     REAL NOT NULL,                  -- the solver, or the solver cache
    replay_ms    REAL NOT NULL,                  -- replaying witnesses on the evaluator
    solver_calls INTEGER NOT NULL,
    cache_hits   INTEGER NOT NULL,               -- intervals answered by the solver cache
    unit_cached  INTEGER NOT NULL,               -- 1 when the file was not parsed again
    UNIQUE (run_id, kernel_id)
);
CREATE INDEX results_kernel ON results (kernel_id, run_id);

CREATE TABLE races (
    id          INTEGER PRIMARY KEY,
    result_id   INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    array_name  TEXT NOT NULL,
    a_id        INTEGER NOT NULL,
    a_line      INTEGER NOT NULL,
    a_col       INTEGER NOT NULL,
    a_mode      TEXT NOT NULL,
    a_text      TEXT NOT NULL,                   -- the source line, trimmed
    b_id        INTEGER NOT NULL,
    b_line      INTEGER NOT NULL,
    b_col       INTEGER NOT NULL,
    b_mode      TEXT NOT NULL,
    b_text      TEXT NOT NULL,
    idx         TEXT NOT NULL,                   -- JSON array: the index in every dimension
    confidence  TEXT NOT NULL CHECK (confidence IN ('confirmed', 'possible')),
    witness     TEXT NOT NULL,                   -- JSON
    identity    TEXT NOT NULL                    -- survives line shifts elsewhere in the file
);
CREATE INDEX races_result ON races (result_id);
CREATE INDEX races_identity ON races (identity);

CREATE TABLE warnings (
    id      INTEGER PRIMARY KEY,
    run_id  INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    path    TEXT NOT NULL,
    message TEXT NOT NULL
);

-- Outcome of one symbolic trace, keyed by the content hash of its canonical text.
CREATE TABLE solver_cache (
    hash    TEXT PRIMARY KEY,
    outcome TEXT NOT NULL                        -- JSON
) WITHOUT ROWID;

-- What the front-end learnt from one translation unit, keyed by its path, bytes,
-- flags and the analysis version; valid while every included file keeps its hash.
CREATE TABLE unit_cache (
    key  TEXT PRIMARY KEY,
    unit TEXT NOT NULL                           -- JSON
) WITHOUT ROWID;
