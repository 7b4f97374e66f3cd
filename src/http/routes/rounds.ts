import { route } from "../route.js";

/** The round calendar: the current round, the schedule, the open round's instruments. */
export const roundRoutes = [
  route({
    method: "GET",
    path: "/api/v1/rounds/current",
    operationId: "get_current_round",
    summary: "The open round, else the latest that opened (submission_window closed)",
    key: "required",
    responses: { 200: "exped, status, submission_window, open_at, close_at, resolves_at, universe_size", 404: "No active round" },
    handle: async ({ c, service, key }) => c.json(await service.currentRound(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/schedule",
    operationId: "get_schedule",
    summary: "Every round's window: {tournament, rounds}",
    key: "required",
    responses: { 200: "{tournament: 'futures', rounds: [...]}" },
    handle: async ({ c, service, key }) => c.json(await service.schedule(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/futures/rounds/current/instruments",
    operationId: "get_instruments",
    summary: "The exact instrument ids of the open round",
    key: "required",
    responses: { 200: "{exped, instrument_ids, data_datestamp}", 404: "No active round" },
    handle: async ({ c, service, key }) => c.json(await service.instruments(key)),
  }),
];
