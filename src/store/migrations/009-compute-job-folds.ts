/**
 * A training job's CV fold results (JSON, in fold order), kept for its log (get_job_log): each
 * fold's fitted and held-out sizes and its mean CORR, AIMC and NCORR. Null until the job completes.
 */
export const sql = `
ALTER TABLE compute_jobs ADD COLUMN fold_results TEXT;
`;
