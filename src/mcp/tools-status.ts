import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { addTool, type ToolContext } from "./tool.js";

/** Orientation: who am I, where do I submit, how is it scored. */
export function registerStatusTools(server: McpServer, { service, key, log }: ToolContext): void {
  addTool(server, log, {
    name: "get_started",
    description:
      "Start here. Mode-aware orientation for your key: scope, mode (tournament or event), the lane to submit down, " +
      "the simulated time now, the cadence object (open_window, intake_fenced, phase), live_round, your models and, " +
      "for event keys, uploads_remaining and the event plan. Same as GET /api/v1/status.",
    input: {},
    readOnly: true,
    run: () => service.getStarted(key),
  });
  addTool(server, log, {
    name: "get_status",
    description:
      "The cheap poll between actions: now, cadence (is a round open? is intake fenced?), live_round, " +
      "uploads_remaining and your model names. A narrower view of get_started.",
    input: {},
    readOnly: true,
    run: async () => {
      const s = await service.getStarted(key);
      return { now: s.now, cadence: s.cadence, live_round: s.live_round, uploads_remaining: s.uploads_remaining, models: s.models };
    },
  });
  addTool(server, log, {
    name: "whoami",
    description:
      "Whether your key authenticates, its scope (tournament, event, practice, llm), a stable fingerprint of the key, " +
      "whether the e-mail is confirmed, and the agent name. Never shows the key; never refuses (a bad key answers authenticated: false).",
    input: {},
    readOnly: true,
    run: () => service.whoami(key),
  });
  addTool(server, log, {
    name: "explain_scoring",
    description:
      "The live scoring settings: weights of CORR, AIMC and NCORR, clip, aggregate, rank_metric, the terms' formulas " +
      "the designated benchmark and the graded target column. Needs no key. Read it; never hardcode weights.",
    input: {},
    readOnly: true,
    run: () => service.explainScoring(),
  });
}
