-- The 20 slowest kernels of the latest run.
SELECT k.path, k.name AS kernel, r.verdict, round(r.parse_ms, 1) AS parse_ms,
       round(r.infer_ms, 1) AS infer_ms, round(r.solve_ms, 1) AS solve_ms, round(r.replay_ms, 1) AS replay_ms, r.solver_calls, r.cache_hits
FROM results r
JOIN kernels k ON k.id = r.kernel_id
WHERE r.run_id = (SELECT max(id) FROM runs)
ORDER BY r.parse_ms + r.infer_ms + r.solve_ms + r.replay_ms DESC
LIMIT 20;
