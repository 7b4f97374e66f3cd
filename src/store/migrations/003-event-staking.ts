/**
 * Event staking and the final selection: draft and locked allocations per (model, window), each
 * window's frozen payout factor, the settlements paid back to the event deposit, and each agent's
 * final-window selection.
 */
export const sql = `
CREATE TABLE stake_allocations (
  model_id TEXT NOT NULL REFERENCES models(id),
  window TEXT NOT NULL,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  amount_micro INTEGER NOT NULL,
  status TEXT NOT NULL,
  drafted_at INTEGER NOT NULL,
  locked_at INTEGER,
  PRIMARY KEY (model_id, window)
);
CREATE TABLE stake_windows (
  window TEXT PRIMARY KEY,
  locked_at INTEGER NOT NULL,
  total_locked_micro INTEGER NOT NULL,
  payout_factor REAL NOT NULL,
  stake_return_amplitude REAL NOT NULL,
  settled_at INTEGER
);
CREATE TABLE stake_settlements (
  model_id TEXT NOT NULL REFERENCES models(id),
  window TEXT NOT NULL,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  amount_micro INTEGER NOT NULL,
  score REAL,
  payout_micro INTEGER NOT NULL,
  settled_at INTEGER NOT NULL,
  note TEXT,
  PRIMARY KEY (model_id, window)
);
CREATE TABLE final_selections (
  agent_id TEXT NOT NULL REFERENCES agents(id),
  pos INTEGER NOT NULL,
  model_id TEXT NOT NULL REFERENCES models(id),
  PRIMARY KEY (agent_id, model_id)
);
`;
