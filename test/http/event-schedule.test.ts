import { describe, expect, it } from "vitest";
import { ANN, eventServer } from "./event-server.js";
import { ALICE, testServer } from "./server.js";

describe("GET /api/v1/schedule names the product it schedules", () => {
  it("an event's schedule says mode event, claims no tournament, and lists its rounds' windows", async () => {
    const s = await eventServer();
    const a = await s.get("/api/v1/schedule", ANN);
    expect(a.status).toBe(200);
    expect(a.json.mode).toBe("event");
    expect(a.json).not.toHaveProperty("tournament");
    expect(a.json.rounds.map((r: { exped: string; open_at: string }) => `${r.exped}@${r.open_at}`)).toEqual([
      "round_1@2026-09-23T13:10:00.000Z",
      "round_2@2026-09-23T13:22:00.000Z",
      "round_3@2026-09-23T13:34:00.000Z",
    ]);
  });

  it("a tournament's schedule names the futures tournament", async () => {
    const s = await testServer();
    expect((await s.get("/api/v1/schedule", ALICE)).json).toMatchObject({ mode: "tournament", tournament: "futures" });
  });
});
