/**
 * Indexes for a replay's hot queries, which grew with the season (EXPLAIN QUERY PLAN scanned the
 * table, or sorted it, for each): a round's instruments in published order; the rounds due to open,
 * close or settle (status, then the instant); the open or settled rounds in order (status, idx); a
 * round's entries, at close and at settlement (by model); and a round's scores, for its board.
 */
export const sql = `
CREATE INDEX instruments_order ON instruments(exped, pos);
CREATE INDEX rounds_opening ON rounds(status, open_at);
CREATE INDEX rounds_closing ON rounds(status, close_at);
CREATE INDEX rounds_resolving ON rounds(status, resolves_at);
CREATE INDEX rounds_status ON rounds(status, idx);
CREATE INDEX submissions_round ON submissions(exped, model_id);
CREATE INDEX scores_round ON scores(exped, model_id);
`;
