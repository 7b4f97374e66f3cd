/**
 * Tournament staking: one row per model and round, holding the principal staked from the agent's
 * wallet on that round. Status moves `pending` (round open) → `locked` (at the round's close, with
 * the payout factor frozen) → `paid` (the round settled) or `returned` (no entry, or the round did
 * not settle: payout 0).
 */
export const sql = `
CREATE TABLE stakes (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  model_id TEXT NOT NULL REFERENCES models(id),
  exped TEXT NOT NULL REFERENCES rounds(exped),
  principal_micro INTEGER NOT NULL,
  status TEXT NOT NULL,
  staked_at INTEGER NOT NULL,
  locked_at INTEGER,
  payout_factor REAL,
  score REAL,
  payout_micro INTEGER,
  settled_at INTEGER,
  note TEXT,
  UNIQUE (model_id, exped)
);
CREATE INDEX stakes_agent ON stakes(agent_id, status);
CREATE INDEX stakes_round ON stakes(exped, status);
`;
