/**
 * Indexes for reads that a page left open, or every agent, makes again and again, which scanned as
 * the event grew: a key's models in creation order (`GET /api/v1/status` names them on every call;
 * create_model looks a label up among them), and each model's latest scored run on a lane (every
 * board: one seek per model instead of a pass over every run ever finalised, 0.7 s at 30,000
 * practice runs).
 */
export const sql = `
CREATE INDEX models_agent ON models(agent_id, seq);
CREATE INDEX uploads_scored ON uploads(lane, round_window, model_id, seq) WHERE status = 'finalised' AND score IS NOT NULL;
`;
