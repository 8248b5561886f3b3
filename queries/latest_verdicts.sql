-- The latest verdict of every kernel, from the most recent run that analysed it.
SELECT k.path, k.name AS kernel, r.verdict, r.reason, r.run_id AS run,
       (SELECT count(*) FROM races x WHERE x.result_id = r.id) AS races
FROM results r
JOIN kernels k ON k.id = r.kernel_id
WHERE r.run_id = (SELECT max(r2.run_id) FROM results r2 WHERE r2.kernel_id = r.kernel_id)
ORDER BY k.path, k.name;
