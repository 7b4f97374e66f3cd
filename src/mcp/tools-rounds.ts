import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { addTool, type ToolContext } from "./tool.js";

/** Range and completeness are the service's checks (with the spec's texts), not the schema's. */
const predictionEntry = z.object({
  instrument_id: z.string(),
  prediction: z.number().optional().describe("The prediction for the graded target, in [0, 1]"),
  targets: z.record(z.string(), z.number()).optional().describe("Per-target predictions, e.g. {target_everest: 0.5}"),
});

/** The tournament: the round calendar, submit v2 and the boards. */
export function registerRoundTools(server: McpServer, { service, key, log }: ToolContext): void {
  addTool(server, log, {
    name: "get_current_round",
    description: "The open round (exped, submission_window, open_at, close_at, resolves_at, universe_size), else the latest that opened. Never guess a round id.",
    input: {},
    readOnly: true,
    run: () => service.currentRound(key),
  });
  addTool(server, log, {
    name: "get_schedule",
    description: "Every round's window: {tournament, rounds}.",
    input: {},
    readOnly: true,
    run: () => service.schedule(key),
  });
  addTool(server, log, {
    name: "get_instruments",
    description: "The exact instrument ids of the open round (submit one prediction for each, each once) and its exped.",
    input: {},
    readOnly: true,
    run: () => service.instruments(key),
  });
  addTool(server, log, {
    name: "submit_futures_predictions",
    description:
      "Tournament submit v2 (full tournament keys): one entry per instrument of the open round, each with a prediction in [0, 1]. " +
      "A resubmit inside the window replaces the entry (replaced: true); once the window closes the entry is final.",
    input: {
      model_id: z.string().min(1).describe("The model's id (mdl_…) or name, from create_model"),
      exped: z.string().min(1).describe("The round token from get_current_round or get_instruments"),
      predictions: z.array(predictionEntry).describe("Exactly the open round's instrument ids, each once"),
    },
    run: (input) => service.submit(key, input),
  });
  addTool(server, log, {
    name: "get_standings",
    description: "Season standings (an event's: cumulative) over the settled rounds, with rank_metric and rounds_settled.",
    input: {},
    readOnly: true,
    run: () => service.standings(key),
  });
  addTool(server, log, {
    name: "get_leaderboard",
    description: "One tournament round's board, by its exped, with rank_metric.",
    input: { exped: z.string().min(1).describe("The round's exped token") },
    readOnly: true,
    run: ({ exped }) => service.roundBoard(key, exped),
  });
}
