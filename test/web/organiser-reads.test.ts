import { describe, expect, it } from "vitest";
import { isLoopback } from "../../src/commands/serve.js";
import { ANN, csvUpload, eventServer, newModel, postForm, PRACTICE_UPLOAD, splitIds } from "../http/event-server.js";
import { ORGANISER, refusal } from "../http/server.js";

describe("the organiser's reads for the console", () => {
  it("GET /sim/v1/boards: the boards as participants read them; refused to a participant key", async () => {
    const s = await eventServer();
    expect(refusal(await s.get("/sim/v1/boards", ANN))).toMatchObject({ status: 403, code: "organiser_key_required" });
    const before = await s.get("/sim/v1/boards", ORGANISER);
    expect(before.json).toMatchObject({ standings: { rows: [] }, rounds: [], practice: { rank_metric: "practice_score", rows: [] } });
    const model = await newModel(s, ANN, "mine");
    const ids = await splitIds(s, ANN, "validation");
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(model, ids, ids.map((_, i) => i / ids.length)))).status).toBe(202);
    await s.advance({ to: "next_phase" });
    await s.advance({ seconds: 120 });
    const after = (await s.get("/sim/v1/boards", ORGANISER)).json;
    expect(after.practice).toEqual((await s.get("/api/v1/diagnostics/board", ANN)).json);
    expect(after.rounds).toEqual([(await s.get("/api/v1/event/rounds/round_1/board", ANN)).json]);
    expect(after.standings).toEqual((await s.get("/api/v1/futures/standings", ANN)).json);
  });

  it("GET /sim/v1/faults: the faults in force, as the last toggle answered", async () => {
    const s = await eventServer();
    expect(refusal(await s.get("/sim/v1/faults", ANN))).toMatchObject({ status: 403, code: "organiser_key_required" });
    const toggled = await s.post("/sim/v1/faults", { fault: "empty_live", round: 2, on: true }, ORGANISER);
    expect((await s.get("/sim/v1/faults", ORGANISER)).json).toEqual(toggled.json);
    expect(toggled.json.empty_live_rounds).toEqual([2]);
  });
});

describe("serve's web app", () => {
  it("is served at / with --web (the loopback default), and not with --no-web", async () => {
    const on = await eventServer();
    const page = await on.get("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const off = await eventServer({}, { web: false });
    expect(refusal(await off.get("/"))).toMatchObject({ status: 404, code: "not_found" });
    expect((await off.get("/api/v1/live", ANN)).status).toBe(404);
  });

  it("defaults on only for a loopback host", () => {
    expect(["127.0.0.1", "127.0.0.2", "localhost", "::1"].map(isLoopback)).toEqual([true, true, true, true]);
    expect(["0.0.0.0", "192.168.1.4", "::", "example.org"].map(isLoopback)).toEqual([false, false, false, false]);
  });
});
