import { describe, expect, it } from "vitest";
import { ORGANISER, refusal } from "./server.js";
import { ANN, PRACTICE_UPLOAD, ROUND_UPLOAD, csvUpload, eventServer, newModel, postForm, splitIds, spread, toPhase } from "./event-server.js";

const fault = (on: boolean, round?: number) => ({ fault: "diagnostics_maintenance", on, ...(round === undefined ? {} : { round }) });

describe("practice-board maintenance (an organiser fault)", () => {
  it("closes the practice board with 503 while on, shows it in the cadence, and leaves the round lane open", async () => {
    const s = await eventServer();
    const model = await newModel(s, ANN, "m");
    const validation = await splitIds(s, ANN, "validation");
    const toggle = (on: boolean, round?: number) => s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: fault(on, round) });

    expect(refusal(await toggle(true, 1))).toMatchObject({ status: 422, code: "validation_error", message: "round: diagnostics_maintenance is not tied to a round (got 1)" });
    const on = await toggle(true);
    expect(on.status).toBe(200);
    expect(on.json.diagnostics_maintenance).toBe(true);
    expect((await s.get("/api/v1/status", ANN)).json.cadence.diagnostics_maintenance).toBe(true);
    expect(refusal(await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(model, validation, spread(validation))))).toEqual({
      status: 503,
      code: "diagnostics_maintenance",
      message: "The practice board is under maintenance; uploads to it resume when it ends.",
    });

    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    expect((await postForm(s, ROUND_UPLOAD, ANN, csvUpload(model, live, spread(live)))).status).toBe(202);

    await toggle(false);
    expect((await s.get("/api/v1/status", ANN)).json.cadence.diagnostics_maintenance).toBe(false);
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(model, validation, spread(validation, 3)))).status).toBe(202);
  });

  it("refuses a round fault without its round", async () => {
    const s = await eventServer();
    const a = await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "empty_live", on: true } });
    expect(refusal(a)).toMatchObject({ status: 422, code: "validation_error", message: "round: expected a round number from 1 to 3 (got undefined)" });
  });
});
