/**
 * The runs whose move to `scoring` is due, sought by the instant it falls due. The pass before
 * every call of a served event asks for them; through `uploads_due` (status, finishes_at) it read
 * every accepted run's row to compare its `scoring_at` (hundreds at 20 looping agents: about 70
 * against 5 µs a pass at 320 accepted runs, on a shared machine). The status leads, so the planner
 * takes this index without statistics; an entry lives only while its run is accepted, so it costs
 * one index write as a run is accepted and one as it moves on.
 */
export const sql = `CREATE INDEX uploads_queued ON uploads(status, scoring_at) WHERE status = 'accepted';`;
