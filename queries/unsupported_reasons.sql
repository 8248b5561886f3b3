-- Why kernels are unsupported or fail to parse in their latest result, most
-- frequent first, with one place where each reason occurs. A construct met
-- in another file ("... (at FILE:LINE:COL)") counts under its construct.
WITH latest AS (
  SELECT r.verdict, r.line, f.path, coalesce(r.reason, '') AS full_reason
  FROM results r
  JOIN files f ON f.id = r.file_id
  WHERE r.verdict IN ('unsupported', 'error')
    AND r.run_id = (SELECT max(r2.run_id) FROM results r2 WHERE r2.kernel_id = r.kernel_id)
), grouped AS (
  SELECT verdict, line, path, full_reason,
         substr(CASE WHEN instr(full_reason, ' (at ') > 0
                     THEN substr(full_reason, 1, instr(full_reason, ' (at ') - 1)
                     ELSE full_reason END, 1, 160) AS reason
  FROM latest
)
SELECT verdict,
       reason,
       count(*) AS kernels,
       min(path || coalesce(':' || line, '')) AS example
FROM grouped
GROUP BY verdict, reason
ORDER BY kernels DESC, verdict, reason;
