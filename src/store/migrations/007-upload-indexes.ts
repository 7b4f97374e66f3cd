/**
 * Indexes for the upload table's hot queries (EXPLAIN QUERY PLAN scanned the whole table for each):
 * the runs due a transition, which every call looks for (status, then the instant it is due); a
 * model's runs on a lane (the run in flight, a staked window's submission and score); an agent's
 * pool count; and a lane's board.
 */
export const sql = `
CREATE INDEX uploads_due ON uploads(status, finishes_at);
CREATE INDEX uploads_model ON uploads(model_id, lane, round_window, status);
CREATE INDEX uploads_agent ON uploads(agent_id, lane, status);
CREATE INDEX uploads_board ON uploads(lane, round_window, status);
`;
