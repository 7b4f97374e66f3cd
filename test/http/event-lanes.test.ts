import { describe, expect, it } from "vitest";
import { refusal } from "./server.js";
import {
  ANN, BEN, PRACTICE_UPLOAD, ROUND_UPLOAD, csvUpload, eventServer, newModel, postForm, splitIds, spread, toPhase, uploadsRemaining,
} from "./event-server.js";

describe("the cadence fence and the two lanes", () => {
  it("fences the round lane outside rounds (409, Retry-After, retry_after_seconds) while the practice board takes uploads", async () => {
    const s = await eventServer();
    const validation = await splitIds(s, ANN, "validation");
    const m = await newModel(s, ANN, "m");
    // Build phase: 10 minutes until round_1 opens.
    const fenced = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, validation, spread(validation)));
    expect(refusal(fenced)).toEqual({ status: 409, code: "cadence_not_open", message: "No paid round is fully open for intake." });
    expect(fenced.headers.get("retry-after")).toBe("600");
    expect(fenced.json.detail).toMatchObject({ retry_after_seconds: 600, intake_fenced: true, phase: "build" });
    const practice = await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, validation, spread(validation)));
    expect(practice.status).toBe(202);
    expect(practice.json).toMatchObject({ lane: "practice", status: "accepted", round_window: null, uploads_remaining: 4 });
    // A round boundary is fenced too: the wait runs to the next round's opening (2 minutes).
    await toPhase(s, "round_1_boundary");
    const boundary = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, validation, spread(validation, 3)));
    expect(boundary.status).toBe(409);
    expect(boundary.headers.get("retry-after")).toBe("120");
    expect((await s.get("/api/v1/status", ANN)).json.cadence).toMatchObject({ intake_fenced: true, open_window: null });
    // The last boundary: no round follows, so the wait runs to the end of the phase (then the event is done).
    await toPhase(s, "round_3_boundary");
    await s.advance({ seconds: 30 });
    const last = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, validation, spread(validation, 5)));
    expect(refusal(last)).toMatchObject({ status: 409, code: "cadence_not_open" });
    expect(last.headers.get("retry-after")).toBe("90");
    expect(last.json.detail).toMatchObject({ retry_after_seconds: 90, phase: "round_3_boundary" });
    await s.advance({ seconds: 90 });
    expect(refusal(await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, validation, spread(validation, 5))))).toMatchObject({ status: 403, code: "hackathon_ended" });
  });

  it("accepts round predictions sent down the practice lane with 202, then fails them with the counted text; the round lane's variant has no count", async () => {
    const s = await eventServer();
    const validation = await splitIds(s, ANN, "validation");
    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    const m = await newModel(s, ANN, "wrong-lane");
    const m2 = await newModel(s, ANN, "stale");
    const practice = await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, live, spread(live)));
    expect(practice.status).toBe(202);
    const round = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m2, validation, spread(validation)));
    expect(round.status).toBe(202);
    expect(round.json.uploads_remaining).toBe(3);
    await s.advance({ seconds: 30 });
    expect((await s.get(`/api/v1/diagnostics/runs/${practice.json.upload_id}`, ANN)).json.status).toBe("scoring");
    await s.advance({ seconds: 31 });
    const failed = await s.get(`/api/v1/diagnostics/runs/${practice.json.upload_id}`, ANN);
    expect(failed.json).toMatchObject({
      status: "failed",
      n_matched: 0,
      error: {
        code: "no_id_overlap_practice",
        message: `None of your predicted ids overlapped the validation set. (0 of ${live.length} predicted ids matched.)`,
      },
    });
    const stale = await s.get(`/api/v1/diagnostics/runs/${round.json.upload_id}`, ANN);
    expect(stale.json).toMatchObject({
      status: "failed",
      error: { code: "no_id_overlap", message: "None of your predicted ids overlapped the validation set." },
    });
    // A failed run frees its place in the pool.
    expect(stale.json.uploads_remaining).toBe(4);
    expect(await uploadsRemaining(s, ANN)).toBe(4);
  });

  it("reports uploads_remaining in the upload response and in /api/v1/status; practice uploads are free", async () => {
    const s = await eventServer();
    const validation = await splitIds(s, ANN, "validation");
    expect((await s.get("/api/v1/status", ANN)).json).toMatchObject({ mode: "event", uploads_remaining: 4, event_status: "running" });
    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    const m = await newModel(s, ANN, "m");
    const up = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, live, spread(live)));
    expect(up.status).toBe(202);
    expect(up.json).toMatchObject({ lane: "round", round_window: "round_1", status: "accepted", uploads_remaining: 3, n_rows: live.length });
    expect(up.json.upload_id).toEqual(expect.any(String));
    expect(await uploadsRemaining(s, ANN)).toBe(3);
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, validation, spread(validation)))).json.uploads_remaining).toBe(3);
    expect(await uploadsRemaining(s, ANN)).toBe(3);
    expect(await uploadsRemaining(s, BEN)).toBe(4);
  });
});

describe("runs: GET and DELETE /api/v1/diagnostics/runs/{upload_id}", () => {
  it("cancels a scoring run (its place comes back), refuses a finalised one with 409, removes a failed one; another agent's run is 404", async () => {
    const s = await eventServer();
    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    const validation = await splitIds(s, ANN, "validation");
    const m = await newModel(s, ANN, "m");
    const first = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, live, spread(live)));
    expect(first.json.uploads_remaining).toBe(3);
    const cancel = await s.call("DELETE", `/api/v1/diagnostics/runs/${first.json.upload_id}`, { key: ANN });
    expect(cancel.status).toBe(200);
    expect(cancel.json).toEqual({ upload_id: first.json.upload_id, status: "cancelled" });
    expect(await uploadsRemaining(s, ANN)).toBe(4);
    expect((await s.get(`/api/v1/diagnostics/runs/${first.json.upload_id}`, ANN)).json.status).toBe("cancelled");

    const again = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, live, spread(live)));
    const m2 = await newModel(s, ANN, "m2");
    const wrong = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m2, validation, spread(validation)));
    await s.advance({ seconds: 61 });
    expect((await s.get(`/api/v1/diagnostics/runs/${again.json.upload_id}`, ANN)).json.status).toBe("finalised");
    const final = await s.call("DELETE", `/api/v1/diagnostics/runs/${again.json.upload_id}`, { key: ANN });
    expect(refusal(final)).toEqual({
      status: 409,
      code: "upload_already_finalized",
      message: `Upload ${again.json.upload_id} was already finalized.`,
    });
    expect(refusal(await s.get(`/api/v1/diagnostics/runs/${again.json.upload_id}`, BEN))).toMatchObject({ status: 404, code: "upload_not_found" });
    expect(refusal(await s.call("DELETE", `/api/v1/diagnostics/runs/${again.json.upload_id}`, { key: BEN }))).toMatchObject({ status: 404 });

    // A failed run is removed before a retry; then it is gone.
    expect((await s.get(`/api/v1/diagnostics/runs/${wrong.json.upload_id}`, ANN)).json.status).toBe("failed");
    const removed = await s.call("DELETE", `/api/v1/diagnostics/runs/${wrong.json.upload_id}`, { key: ANN });
    expect(removed.json).toEqual({ upload_id: wrong.json.upload_id, status: "removed" });
    expect(refusal(await s.get(`/api/v1/diagnostics/runs/${wrong.json.upload_id}`, ANN))).toEqual({
      status: 404,
      code: "upload_not_found",
      message: `Upload ${wrong.json.upload_id} not found`,
    });
  });
});

describe("boards", () => {
  it("seals a round's board (and its runs' scores) until the next round opens; the practice board is display only", async () => {
    const s = await eventServer();
    const validation = await splitIds(s, ANN, "validation");
    const p = await newModel(s, ANN, "practice");
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(p, validation, spread(validation)))).status).toBe(202);
    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    const a = await newModel(s, ANN, "a");
    const b = await newModel(s, BEN, "b");
    const run = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(a, live, spread(live)));
    expect((await postForm(s, ROUND_UPLOAD, BEN, csvUpload(b, live, spread(live, 7)))).status).toBe(202);
    await s.advance({ seconds: 61 });

    const practice = await s.get("/api/v1/diagnostics/board", ANN);
    expect(practice.json).toMatchObject({ rank_metric: "practice_score", display_only: true });
    expect(practice.json.rows.map((r: { model: string }) => r.model)).toEqual([p]);

    const sealed = await s.get("/api/v1/event/rounds/round_1/board", ANN);
    expect(sealed.status).toBe(200);
    expect(sealed.json).toMatchObject({ window: "round_1", sealed: true, rows: [] });
    const runView = (await s.get(`/api/v1/diagnostics/runs/${run.json.upload_id}`, ANN)).json;
    expect(runView).toMatchObject({ status: "finalised", scores: null, sealed_until: sealed.json.unseals_at });

    await toPhase(s, "round_2");
    const open = await s.get("/api/v1/event/rounds/round_1/board", BEN);
    expect(open.json.sealed).toBe(false);
    expect(open.json.rows.map((r: { model: string }) => r.model).sort()).toEqual([a, b].sort());
    expect((await s.get(`/api/v1/diagnostics/runs/${run.json.upload_id}`, ANN)).json.scores).toMatchObject({ corr: expect.any(Number) });
    expect(refusal(await s.get("/api/v1/event/rounds/round_9/board", ANN))).toEqual({ status: 404, code: "round_not_found", message: "Round not found" });
  });
});

describe("the event's ends", () => {
  it("refuses both lanes with 403 This hackathon has ended once done; train stays downloadable, live does not", async () => {
    const s = await eventServer();
    const validation = await splitIds(s, ANN, "validation");
    const m = await newModel(s, ANN, "m");
    await toPhase(s, "done");
    for (const path of [ROUND_UPLOAD, PRACTICE_UPLOAD]) {
      const a = await postForm(s, path, ANN, csvUpload(m, validation, spread(validation)));
      expect(refusal(a), path).toEqual({ status: 403, code: "hackathon_ended", message: "This hackathon has ended" });
    }
    expect(refusal(await s.get("/api/v1/futures/data/live", ANN))).toMatchObject({ status: 403, message: "This hackathon has ended" });
    expect((await s.get("/api/v1/futures/data/train", ANN)).status).toBe(200);
    expect((await s.get("/api/v1/status", ANN)).json).toMatchObject({ event_status: "finished", uploads_remaining: 4 });
  });
});
