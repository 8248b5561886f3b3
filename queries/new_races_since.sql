-- Races of the latest run whose identity no result of run ?1 had.
SELECT k.path, k.name AS kernel, x.array_name AS array,
       x.a_line || ':' || x.a_mode AS first, x.b_line || ':' || x.b_mode AS second,
       x.confidence, r.run_id AS run
FROM races x
JOIN results r ON r.id = x.result_id
JOIN kernels k ON k.id = r.kernel_id
WHERE r.run_id = (SELECT max(id) FROM runs)
  AND x.identity NOT IN (
      SELECT x2.identity FROM races x2 JOIN results r2 ON r2.id = x2.result_id
      WHERE r2.run_id = CAST(?1 AS INTEGER))
ORDER BY k.path, k.name, x.a_line;
