-- Why kernels are unsupported or fail to parse in their latest result, most
-- frequent first, with one place where each reason occurs.
SELECT r.verdict,
       substr(coalesce(r.reason, ''), 1, 160) AS reason,
       count(*) AS kernels,
       min(f.path || coalesce(':' || r.line, '')) AS example
FROM results r
JOIN files f ON f.id = r.file_id
WHERE r.verdict IN ('unsupported', 'error')
  AND r.run_id = (SELECT max(r2.run_id) FROM results r2 WHERE r2.kernel_id = r.kernel_id)
GROUP BY r.verdict, substr(coalesce(r.reason, ''), 1, 160)
ORDER BY kernels DESC, r.verdict, reason;
