import { operation } from "./operation.js";

/** The round calendar: the current round, the schedule, the open round's instruments. */
export const roundOperations = {
  currentRound: operation({
    scope: "reader",
    rate: "current_round",
    rest: [
      {
        method: "GET",
        path: "/api/v1/rounds/current",
        operationId: "get_current_round",
        summary: "The open round, else the latest that opened (submission_window closed)",
        responses: { 200: "exped, status, submission_window, open_at, close_at, resolves_at, universe_size", 404: "No active round" },
      },
    ],
    mcp: [
      {
        name: "get_current_round",
        description: "The open round (exped, submission_window, open_at, close_at, resolves_at, universe_size), else the latest that opened. Never guess a round id.",
        input: {},
        readOnly: true,
      },
    ],
  }),
  schedule: operation({
    scope: "reader",
    rate: "schedule",
    rest: [
      {
        method: "GET",
        path: "/api/v1/schedule",
        operationId: "get_schedule",
        summary: "Every round's window: {tournament, rounds}",
        responses: { 200: "{tournament: 'futures', rounds: [...]}" },
      },
    ],
    mcp: [{ name: "get_schedule", description: "Every round's window: {tournament, rounds}.", input: {}, readOnly: true }],
  }),
  instruments: operation({
    scope: "reader",
    rate: "instruments",
    rest: [
      {
        method: "GET",
        path: "/api/v1/futures/rounds/current/instruments",
        operationId: "get_instruments",
        summary: "The exact instrument ids of the open round",
        responses: { 200: "{exped, instrument_ids, data_datestamp}", 404: "No active round" },
      },
    ],
    mcp: [
      {
        name: "get_instruments",
        description: "The exact instrument ids of the open round (submit one prediction for each, each once) and its exped.",
        input: {},
        readOnly: true,
      },
    ],
  }),
};
