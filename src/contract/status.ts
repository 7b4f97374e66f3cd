import { operation } from "./operation.js";

/** Orientation reads: who am I, where do I submit, how is it scored. */
export const statusOperations = {
  getStarted: operation({
    scope: "key",
    rate: "get_started",
    rest: [
      {
        method: "GET",
        path: "/api/v1/status",
        operationId: "get_started",
        summary: "Mode-aware orientation: key scope, lane, cadence object, uploads_remaining (MCP get_started)",
        responses: { 200: "The status view" },
      },
    ],
    mcp: [
      {
        name: "get_started",
        description:
          "Start here. Mode-aware orientation for your key: scope, mode (tournament or event), the lane to submit down, " +
          "the simulated time now, the cadence object (open_window, intake_fenced, phase), live_round, your models and, " +
          "for event keys, uploads_remaining and the event plan. Same as GET /api/v1/status.",
        input: {},
        readOnly: true,
      },
      {
        name: "get_status",
        description:
          "The cheap poll between actions: now, cadence (is a round open? is intake fenced?), live_round, " +
          "uploads_remaining and your model names. A narrower view of get_started.",
        input: {},
        readOnly: true,
        answer: (s) => ({ now: s.now, cadence: s.cadence, live_round: s.live_round, uploads_remaining: s.uploads_remaining, models: s.models }),
      },
    ],
  }),
  whoami: operation({
    scope: "optional",
    rest: [
      {
        method: "GET",
        path: "/api/v1/whoami",
        operationId: "whoami",
        summary: "Whether the key authenticates, its scope, fingerprint and e-mail state; 200 even for a bad or missing key",
        responses: { 200: "authenticated, scope, fingerprint, email_confirmed, agent" },
      },
    ],
    mcp: [
      {
        name: "whoami",
        description:
          "Whether your key authenticates, its scope (tournament, event, practice, llm), a stable fingerprint of the key, " +
          "whether the e-mail is confirmed, and the agent name. Never shows the key; never refuses (a bad key answers authenticated: false).",
        input: {},
        readOnly: true,
      },
    ],
  }),
  explainScoring: operation({
    scope: "none",
    rest: [
      {
        method: "GET",
        path: "/api/v1/scoring",
        operationId: "explain_scoring",
        summary: "The live scoring settings: weights, clip, aggregate, rank_metric, the terms' formulas and the graded target",
        responses: { 200: "The scoring view" },
      },
    ],
    mcp: [
      {
        name: "explain_scoring",
        description:
          "The live scoring settings: weights of CORR, AIMC and NCORR, clip, aggregate, rank_metric, the terms' formulas " +
          "the designated benchmark and the graded target column. Needs no key. Read it; never hardcode weights.",
        input: {},
        readOnly: true,
      },
    ],
  }),
};
