/** The tournament schema: agents and keys, models, rounds and their instruments, submissions, scores, the event log. */
export const sql = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  email_confirmed INTEGER NOT NULL,
  blocked INTEGER NOT NULL
);
CREATE TABLE keys (
  key TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  scope TEXT NOT NULL,
  fingerprint TEXT NOT NULL
);
CREATE TABLE models (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  name TEXT NOT NULL,
  label TEXT,
  created_at INTEGER NOT NULL,
  archived_at INTEGER
);
CREATE UNIQUE INDEX models_active_name ON models(name) WHERE archived_at IS NULL;
CREATE TABLE rounds (
  exped TEXT PRIMARY KEY,
  idx INTEGER NOT NULL UNIQUE,
  open_at INTEGER NOT NULL,
  close_at INTEGER NOT NULL,
  resolves_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  note TEXT
);
CREATE TABLE instruments (
  exped TEXT NOT NULL REFERENCES rounds(exped),
  pos INTEGER NOT NULL,
  instrument_id TEXT NOT NULL,
  PRIMARY KEY (exped, instrument_id)
);
CREATE TABLE submissions (
  id TEXT PRIMARY KEY,
  model_id TEXT NOT NULL REFERENCES models(id),
  exped TEXT NOT NULL REFERENCES rounds(exped),
  submitted_at INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  predictions BLOB NOT NULL,
  UNIQUE (model_id, exped)
);
CREATE TABLE scores (
  model_id TEXT NOT NULL REFERENCES models(id),
  exped TEXT NOT NULL REFERENCES rounds(exped),
  n INTEGER NOT NULL,
  corr REAL NOT NULL,
  aimc REAL NOT NULL,
  ncorr REAL NOT NULL,
  score REAL NOT NULL,
  PRIMARY KEY (model_id, exped)
);
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  t INTEGER NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL
);
`;
