import { route } from "../route.js";

/** Orientation reads: who am I, where do I submit, how is it scored. */
export const statusRoutes = [
  route({
    method: "GET",
    path: "/api/v1/status",
    operationId: "get_started",
    summary: "Mode-aware orientation: key scope, lane, cadence object, uploads_remaining (MCP get_started)",
    key: "required",
    responses: { 200: "The status view" },
    handle: async ({ c, service, key }) => c.json(await service.getStarted(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/whoami",
    operationId: "whoami",
    summary: "Whether the key authenticates, its scope, fingerprint and e-mail state; 200 even for a bad or missing key",
    key: "optional",
    responses: { 200: "authenticated, scope, fingerprint, email_confirmed, agent" },
    handle: async ({ c, service, key }) => c.json(await service.whoami(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/scoring",
    operationId: "explain_scoring",
    summary: "The live scoring settings: weights, clip, aggregate, rank_metric, the terms' formulas and the graded target",
    key: "none",
    responses: { 200: "The scoring view" },
    handle: async ({ c, service }) => c.json(await service.explainScoring()),
  }),
];
