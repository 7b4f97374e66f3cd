/**
 * A key's live model names in creation order, from the index alone: `GET /api/v1/status` lists
 * them on every call, and through `models_agent` (agent_id, seq) each of an agent's models was a
 * second lookup into the table for its name and archived_at. A small cut: about 27 against 23.5 µs
 * a call at 64 models (most of what is left is handing the 64 rows over). The index keeps its name
 * and its prefix, so every read that used it still can.
 */
export const sql = `
DROP INDEX models_agent;
CREATE INDEX models_agent ON models(agent_id, seq, archived_at, name);
`;
