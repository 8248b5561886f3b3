-- The 20 slowest kernels of the latest run.
SELECT k.path, k.name AS kernel, r.verdict, round(r.parse_ms, 1) AS parse_ms,
       round(r.check_ms, 1) AS check_ms, r.solver_calls, r.cache_hits
FROM results r
JOIN kernels k ON k.id = r.kernel_id
WHERE r.run_id = (SELECT max(id) FROM runs)
ORDER BY r.parse_ms + r.check_ms DESC
LIMIT 20;
