/**
 * A key's models in creation order, for `GET /api/v1/status` (every call names the caller's
 * models) and the label lookups of create_model: without it each scanned every agent's models.
 */
export const sql = `
CREATE INDEX models_agent ON models(agent_id, seq);
`;
