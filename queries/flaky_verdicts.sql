-- Kernels whose verdict changed between runs while their file, the analysis version and the options did not.
SELECT k.path, k.name AS kernel, f.hash AS file_hash,
       group_concat(DISTINCT r.verdict) AS verdicts, count(DISTINCT r.run_id) AS runs
FROM results r
JOIN kernels k ON k.id = r.kernel_id
JOIN files f ON f.id = r.file_id
JOIN runs u ON u.id = r.run_id
GROUP BY r.kernel_id, r.file_id, u.analysis_version, u.options
HAVING count(DISTINCT r.verdict) > 1
ORDER BY k.path, k.name;
