import { route } from "../route.js";

/** Standings, one round's board, and the benchmark catalogue. */
export const boardRoutes = [
  route({
    method: "GET",
    path: "/api/v1/futures/standings",
    operationId: "get_standings",
    summary: "Season standings over the settled rounds, with rank_metric and rounds_settled",
    key: "required",
    responses: { 200: "Board + rounds_settled" },
    handle: async ({ c, service, key }) => c.json(await service.standings(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/futures/rounds/{exped}/board",
    operationId: "get_round_board",
    summary: "One round's board",
    key: "required",
    responses: { 200: "Board + exped", 404: "Round not found" },
    handle: async ({ c, service, key }) => c.json(await service.roundBoard(key, c.req.param("exped") as string)),
  }),
  route({
    method: "GET",
    path: "/api/v1/benchmarks/board",
    operationId: "get_benchmarks",
    summary: "Benchmark catalogue: mean CORR, mean AIMC, Sharpe per benchmark model over settled rounds",
    key: "required",
    responses: { 200: "{rank_metric, models: [{name, mean_corr, mean_aimc, sharpe, rounds}]}" },
    handle: async ({ c, service, key }) => c.json(await service.benchmarks(key)),
  }),
];
