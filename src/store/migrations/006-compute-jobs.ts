/**
 * Hosted compute for events: one row per training job. `hold_cents` is reserved from the agent's
 * grant while the job is queued or running; `cost_cents` is charged when it ends. The trained
 * model's pickle lives in `model_files` like every other model file.
 */
export const sql = `
CREATE TABLE compute_jobs (
  job_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  request TEXT NOT NULL,
  status TEXT NOT NULL,
  hold_cents INTEGER NOT NULL,
  cost_cents INTEGER,
  runtime_seconds INTEGER NOT NULL,
  max_runtime_seconds INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  running_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  finished_at INTEGER,
  metrics TEXT,
  feature_manifest TEXT,
  error_message TEXT,
  artifact_sha256 TEXT REFERENCES model_files(sha256),
  artifact_error TEXT,
  trainer_python_version TEXT
);
CREATE INDEX compute_jobs_agent ON compute_jobs(agent_id, seq);
`;
