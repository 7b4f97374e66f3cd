import { describe, expect, it } from "vitest";
import { ALICE, ORGANISER, refusal, testServer } from "./server.js";

/** A season starting on a Saturday: pre-season until Monday's round opens. */
const weekendStart = { calendar: { start: "2026-01-03", n_rounds: 3, resolve_after_rounds: 1 } };

/** The Data download rows about the live split that need a round state or a fault to show. */
describe("live split availability over HTTP", () => {
  it("answers 503 'Live dataset not available' before any round has opened", async () => {
    const s = await testServer(weekendStart);
    for (const path of ["/api/v1/futures/data/live", "/api/v1/futures/data/live_benchmark_models"]) {
      expect(refusal(await s.get(path, ALICE))).toEqual({ status: 503, code: "live_not_available", message: "Live dataset not available" });
    }
  });

  it("answers 503 'Live dataset is empty' for a round under the empty_live fault, and serves it once lifted", async () => {
    const s = await testServer(weekendStart);
    const on = await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "empty_live", round: 1, on: true } });
    expect(on.json).toEqual({ missing_benchmark_rounds: [], empty_live_rounds: [1] });
    await s.advance({ to: "next_phase" });
    expect(refusal(await s.get("/api/v1/futures/data/live", ALICE))).toEqual({ status: 503, code: "live_empty", message: "Live dataset is empty" });
    await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "empty_live", round: 1, on: false } });
    expect((await s.get("/api/v1/futures/data/live", ALICE)).status).toBe(200);
  });
});
