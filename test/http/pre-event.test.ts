import { describe, expect, it } from "vitest";
import { refusal } from "./server.js";
import { ANN, PRACTICE_UPLOAD, csvUpload, eventServer, newModel, postForm, splitIds, spread, toPhase } from "./event-server.js";

const NOT_STARTED = { status: 403, code: "hackathon_not_started", message: "Your hackathon has not started yet" };

describe("an event served from its pre_event phase (event.pre_event_minutes)", () => {
  it("starts the served clock before the event opens: data and compute answer 403 not started, the cost preview works; at the build phase both open", async () => {
    const s = await eventServer({ pre_event_minutes: 30, compute: { budget_usd: "5" } });
    const status = (await s.get("/api/v1/status", ANN)).json;
    expect(status).toMatchObject({ now: "2026-09-23T12:30:00.000Z", event_status: "upcoming", next_actions: [] });
    expect(status.cadence).toMatchObject({ phase: "pre_event", intake_fenced: true, phase_ends_at: "2026-09-23T13:00:00.000Z", seconds_until_next_phase: 1800 });
    expect(status.phase_sequence.slice(0, 2)).toEqual(["pre_event", "build"]);
    for (const split of ["train", "validation", "live"]) expect(refusal(await s.get(`/api/v1/futures/data/${split}`, ANN)), split).toEqual(NOT_STARTED);
    expect(refusal(await s.post("/api/v1/compute/train", { model: "ridge" }, ANN))).toEqual(NOT_STARTED);
    expect((await s.post("/api/v1/compute/train", { model: "ridge", dry_run: true }, ANN)).status).toBe(200);
    const m = await newModel(s, ANN, "early");
    expect(refusal(await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, ["a", "b"], [0.2, 0.8])))).toEqual(NOT_STARTED);

    await toPhase(s, "build");
    expect((await s.get("/api/v1/status", ANN)).json).toMatchObject({ now: "2026-09-23T13:00:00.000Z", event_status: "running" });
    const validation = await splitIds(s, ANN, "validation");
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, validation, spread(validation)))).status).toBe(202);
    expect((await s.post("/api/v1/compute/train", { model: "ridge" }, ANN)).status).toBe(202);
    // The rounds keep their times: round 1 opens 10 minutes into the build phase.
    await toPhase(s, "round_1");
    expect((await s.get("/api/v1/status", ANN)).json.now).toBe("2026-09-23T13:10:00.000Z");
  });

  it("without it the served clock starts at the build phase, as before", async () => {
    const s = await eventServer();
    expect((await s.get("/api/v1/status", ANN)).json.cadence.phase).toBe("build");
  });
});
