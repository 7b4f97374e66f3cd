/**
 * The tournament's auto-submit lane: each model's switch (on by default for models created on a
 * tournament), its uploaded model files and their validation (`pending → validating → validated |
 * error`, or `replaced` by a later upload; the bytes live in `model_files`), the rounds the lane
 * has run, each model's outcome in each of them, and whether a submission was filed by the lane
 * (`source` 'auto') or by the agent ('manual').
 */
export const sql = `
ALTER TABLE models ADD COLUMN auto_submit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE submissions ADD COLUMN source TEXT NOT NULL DEFAULT 'manual';
CREATE TABLE model_uploads (
  upload_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  model_id TEXT NOT NULL REFERENCES models(id),
  filename TEXT NOT NULL,
  sha256 TEXT NOT NULL REFERENCES model_files(sha256),
  python_version TEXT NOT NULL,
  n_bytes INTEGER NOT NULL,
  status TEXT NOT NULL,
  uploaded_at INTEGER NOT NULL,
  validating_at INTEGER NOT NULL,
  validates_at INTEGER NOT NULL,
  validated_at INTEGER,
  error TEXT
);
CREATE INDEX model_uploads_model ON model_uploads(model_id, seq);
CREATE TABLE lane_rounds (exped TEXT PRIMARY KEY REFERENCES rounds(exped), ran_at INTEGER NOT NULL);
CREATE TABLE lane_runs (
  model_id TEXT NOT NULL REFERENCES models(id),
  exped TEXT NOT NULL REFERENCES rounds(exped),
  upload_id TEXT REFERENCES model_uploads(upload_id),
  outcome TEXT NOT NULL,
  detail TEXT,
  submission_id TEXT,
  ran_at INTEGER NOT NULL,
  PRIMARY KEY (model_id, exped)
);
`;
