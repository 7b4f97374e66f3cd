/**
 * Event uploads: one row per upload on either lane (its run's lifecycle, the parsed predictions,
 * their content digest for dedup, the declared model file), and the store-only model files.
 */
export const sql = `
CREATE TABLE uploads (
  upload_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  model_id TEXT NOT NULL REFERENCES models(id),
  lane TEXT NOT NULL,
  round_window TEXT,
  status TEXT NOT NULL,
  accepted_at INTEGER NOT NULL,
  scoring_at INTEGER NOT NULL,
  finishes_at INTEGER NOT NULL,
  digest TEXT NOT NULL,
  n_rows INTEGER NOT NULL,
  ids TEXT NOT NULL,
  predictions BLOB NOT NULL,
  model_pkl_sha256 TEXT NOT NULL,
  python_version TEXT NOT NULL,
  idempotency_key TEXT,
  error_code TEXT,
  error_message TEXT,
  n_matched INTEGER,
  corr REAL,
  aimc REAL,
  ncorr REAL,
  score REAL
);
CREATE UNIQUE INDEX uploads_idempotency ON uploads(agent_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX uploads_digest ON uploads(digest);
CREATE TABLE model_files (sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL);
`;
