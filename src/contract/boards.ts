import { z } from "zod";
import { operation } from "./operation.js";

/** Standings, one round's board, and the benchmark catalogue. */
export const boardOperations = {
  standings: operation({
    scope: "reader",
    rate: "standings",
    rest: [
      {
        method: "GET",
        path: "/api/v1/futures/standings",
        operationId: "get_standings",
        summary: "Season standings over the settled rounds, with rank_metric and rounds_settled",
        responses: { 200: "Board + rounds_settled" },
      },
    ],
    mcp: [
      {
        name: "get_standings",
        description: "Season standings (an event's: cumulative) over the settled rounds, with rank_metric and rounds_settled.",
        input: {},
        readOnly: true,
      },
    ],
  }),
  roundBoard: operation({
    scope: "reader",
    rate: "round_board",
    rest: [
      {
        method: "GET",
        path: "/api/v1/futures/rounds/{exped}/board",
        operationId: "get_round_board",
        summary: "One round's board",
        responses: { 200: "Board + exped", 404: "Round not found" },
      },
    ],
    mcp: [
      {
        name: "get_leaderboard",
        description: "One tournament round's board, by its exped, with rank_metric.",
        input: { exped: z.string().min(1).describe("The round's exped token") },
        readOnly: true,
      },
    ],
  }),
  benchmarks: operation({
    scope: "reader",
    rate: "get_benchmarks",
    rest: [
      {
        method: "GET",
        path: "/api/v1/benchmarks/board",
        operationId: "get_benchmarks",
        summary: "Benchmark catalogue: mean CORR, mean AIMC, Sharpe per benchmark model over settled rounds",
        responses: { 200: "{rank_metric, models: [{name, mean_corr, mean_aimc, sharpe, rounds}]}" },
      },
    ],
    mcp: [
      {
        name: "get_benchmarks",
        description: "The benchmark catalogue: mean CORR, mean AIMC and Sharpe per published benchmark model over the scored rounds, with rank_metric.",
        input: {},
        readOnly: true,
      },
    ],
  }),
};
