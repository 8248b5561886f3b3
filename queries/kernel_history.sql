-- Every recorded verdict of the kernels named ?1, oldest run first.
SELECT r.run_id AS run, u.started_at, u.label, k.path, k.name AS kernel, r.verdict, r.reason,
       f.hash AS file_hash, round(r.parse_ms + r.infer_ms + r.solve_ms + r.replay_ms, 1) AS ms, r.solver_calls, r.cache_hits,
       (SELECT count(*) FROM races x WHERE x.result_id = r.id) AS races
FROM results r
JOIN kernels k ON k.id = r.kernel_id
JOIN files f ON f.id = r.file_id
JOIN runs u ON u.id = r.run_id
WHERE k.name = ?1
ORDER BY r.run_id, k.path;
