import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { uploadBatch } from "../../../src/service/event/batch.js";
import { eventRoundBoard, eventStandings, practiceBoard } from "../../../src/service/event/event-boards.js";
import { countedUploads, uploadsRemaining } from "../../../src/service/event/pool.js";
import { deleteRun, getRun } from "../../../src/service/event/runs.js";
import { upload, uploadInline } from "../../../src/service/event/uploads.js";
import { createModel } from "../../../src/service/models/models.js";
import { getStarted } from "../../../src/service/overview/status.js";
import { eventCount } from "../../../src/store/event-log.js";
import { runPredictions } from "../../../src/store/upload-predictions.js";
import { checkUploadFiles } from "../../../src/service/event/upload-files.js";
import type { UploadPath } from "../../../src/service/event/uploads.js";
import { refusal, refusalParts, refused } from "../../helpers/refusal.js";

import { eventHarness } from "../../helpers/event-harness.js";

/** The upload path of a caller that holds the store alone: every step on this thread, at once. */
const inline: UploadPath = {
  serial: async (fn) => fn(),
  checkFiles: async (files, rules) => checkUploadFiles(files, rules),
};

describe("event lanes (service)", () => {
  it("fences the round lane outside rounds with Retry-After, and leaves the practice board open", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const m = h.model(h.ann, "mine");
    const err = refusal(() => uploadInline(h.ctx, h.ann, "round", h.input(m, h.live(1), h.half(h.live(1)))));
    expect(err).toMatchObject({ status: 409, code: "cadence_not_open", message: "No paid round is fully open for intake." });
    expect(err.headers["Retry-After"]).toBe("540");
    expect(err.extra).toMatchObject({ retry_after_seconds: 540, intake_fenced: true });
    const run = uploadInline(h.ctx, h.ann, "practice", h.input(m, h.validation, h.half(h.validation)));
    expect(run).toMatchObject({ status: "accepted", lane: "practice", uploads_remaining: 4 });
  });

  it("keeps a run's ids as JSON text, in file order", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const run = uploadInline(h.ctx, h.ann, "practice", h.input(h.model(h.ann, "mine"), h.validation, h.half(h.validation)));
    expect(JSON.parse(runPredictions(h.ctx.db, run.upload_id).ids)).toEqual(h.validation);
  });

  it("scores a practice run after scoring_seconds and shows it on the display-only board", async () => {
    const h = eventHarness();
    const t0 = h.world.schedule.phases[0].start + 60_000;
    await h.at(t0);
    const m = h.model(h.ann, "mine");
    const run = uploadInline(h.ctx, h.ann, "practice", h.input(m, h.validation, h.half(h.validation)));
    await h.at(t0 + 30_000);
    expect(getRun(h.ctx, h.ann, run.upload_id).status).toBe("scoring");
    await h.at(t0 + 60_000);
    const done = getRun(h.ctx, h.ann, run.upload_id);
    expect(done.status).toBe("finalised");
    expect(done.scores).not.toBeNull();
    expect(done.n_matched).toBe(h.validation.length);
    const board = practiceBoard(h.ctx);
    expect(board).toMatchObject({ rank_metric: "practice_score", display_only: true });
    expect(board.rows.map((r) => r.model)).toEqual([m]);
  });

  it("logs the same finish whether the file was scored on its way in (the upload path) or at its finish (inline)", async () => {
    const logs = [];
    for (const way of ["path", "inline"]) {
      const h = eventHarness();
      const t0 = h.world.schedule.phases[0].start + 60_000;
      await h.at(t0);
      const m = h.model(h.ann, "mine");
      const input = h.input(m, h.validation, h.half(h.validation));
      const run = way === "path" ? await upload(h.ctx, inline, h.ann, "practice", input) : uploadInline(h.ctx, h.ann, "practice", input);
      await h.at(t0 + 60_000);
      expect(getRun(h.ctx, h.ann, run.upload_id).status).toBe("finalised");
      logs.push(h.ctx.db.prepare("SELECT t, type, payload FROM events WHERE type LIKE 'run.%' ORDER BY seq").all());
    }
    expect(logs[0]).toEqual(logs[1]);
    // The finish writes the scores found on the way in, and does not score the file again.
    const h = eventHarness();
    const t0 = h.world.schedule.phases[0].start + 60_000;
    await h.at(t0);
    const m = h.model(h.ann, "mine");
    const found = { n: 7, corr: 0.5, aimc: null, ncorr: 0.25 };
    const marked: UploadPath = {
      ...inline,
      checkFiles: async (files, rules) => {
        const checked = checkUploadFiles(files, rules);
        if (checked.predictions?.ok) checked.predictions.value.scores = { matched: 7, terms: [found] };
        return checked;
      },
    };
    const run = await upload(h.ctx, marked, h.ann, "practice", h.input(m, h.validation, h.half(h.validation)));
    await h.at(t0 + 60_000);
    expect(getRun(h.ctx, h.ann, run.upload_id)).toMatchObject({ status: "finalised", n_matched: 7 });
  });

  it("fails round predictions sent down the practice lane, minutes later, charging nothing", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.rounds[0].open_at + 1000);
    const m = h.model(h.ann, "mine");
    const run = uploadInline(h.ctx, h.ann, "practice", h.input(m, h.live(1), h.half(h.live(1))));
    expect(run.status).toBe("accepted");
    await h.at(h.world.schedule.rounds[0].open_at + 61_000);
    const failed = getRun(h.ctx, h.ann, run.upload_id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({
      code: "no_id_overlap_practice",
      message: `None of your predicted ids overlapped the validation set. (0 of ${h.live(1).length} predicted ids matched.)`,
    });
    expect(failed.uploads_remaining).toBe(4);
  });

  it("refuses the same predictions again: yours by name, another participant's charging nothing", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.rounds[0].open_at);
    const a = h.model(h.ann, "a");
    const b = h.model(h.ben, "b");
    const ids = h.live(1);
    uploadInline(h.ctx, h.ann, "round", h.input(a, ids, h.half(ids)));
    const a2 = h.model(h.ann, "a2");
    expect(refusalParts(() => uploadInline(h.ctx, h.ann, "round", h.input(a2, [...ids].reverse(), h.half(ids).reverse())))).toEqual({
      status: 409,
      code: "predictions_filed_by_you",
      message: `These predictions are already filed in this event by your model '${a}'.`,
    });
    const before = uploadsRemaining(h.ctx, h.ben.agent_id);
    expect(refusalParts(() => uploadInline(h.ctx, h.ben, "round", h.input(b, ids, h.half(ids))))).toEqual({
      status: 409,
      code: "predictions_already_filed",
      message: "Identical predictions are already filed in this event by another participant.",
    });
    expect(uploadsRemaining(h.ctx, h.ben.agent_id)).toBe(before);
  });

  it("refuses a different file while the model's run is scoring, and the pool once spent", async () => {
    const h = eventHarness({ upload_pool: 2 });
    await h.at(h.world.schedule.rounds[0].open_at);
    const ids = h.live(1);
    const m = h.model(h.ann, "m");
    uploadInline(h.ctx, h.ann, "round", h.input(m, ids, h.half(ids)));
    const other = ids.map((_, i) => (ids.length - i - 0.5) / ids.length);
    expect(refusalParts(() => uploadInline(h.ctx, h.ann, "round", h.input(m, ids, other)))).toEqual({
      status: 409,
      code: "run_scoring_different_file",
      message: "A run for this model is already scoring a DIFFERENT predictions file",
    });
    const m2 = h.model(h.ann, "m2");
    uploadInline(h.ctx, h.ann, "round", h.input(m2, ids, other));
    const m3 = h.model(h.ann, "m3");
    expect(refusalParts(() => uploadInline(h.ctx, h.ann, "round", h.input(m3, ids, ids.map((_, i) => ((i * 7) % ids.length + 0.5) / ids.length))))).toEqual({
      status: 409,
      code: "upload_limit_reached",
      message: "Upload limit reached: 2 uploads per agent, counted across all your models and every round.",
    });
  });

  it("cancels a scoring run (its place comes back), keeps a finalised one, removes a failed one", async () => {
    const h = eventHarness();
    const open = h.world.schedule.rounds[0].open_at;
    await h.at(open);
    const ids = h.live(1);
    const m = h.model(h.ann, "m");
    const run = uploadInline(h.ctx, h.ann, "round", h.input(m, ids, h.half(ids)));
    expect(uploadsRemaining(h.ctx, h.ann.agent_id)).toBe(3);
    expect(deleteRun(h.ctx, h.ann, run.upload_id)).toEqual({ upload_id: run.upload_id, status: "cancelled" });
    expect(uploadsRemaining(h.ctx, h.ann.agent_id)).toBe(4);
    const again = uploadInline(h.ctx, h.ann, "round", h.input(m, ids, h.half(ids)));
    await h.at(open + 60_000);
    expect(refusalParts(() => deleteRun(h.ctx, h.ann, again.upload_id))).toEqual({
      status: 409,
      code: "upload_already_finalized",
      message: `Upload ${again.upload_id} was already finalized.`,
    });
    expect(deleteRun(h.ctx, h.ann, run.upload_id).status).toBe("removed");
    expect(refusalParts(() => getRun(h.ctx, h.ben, again.upload_id))).toMatchObject({ status: 404 });
  });

  it("names event models itself; the caller's label is private", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start);
    const created = createModel(h.ctx, h.ann, { name: "my-label" });
    expect(created.name).toMatch(/^participant_[0-9a-f]{10}$/);
    expect(createModel(h.ctx, h.ann, { name: "my-label" })).toMatchObject({ id: created.id, status: "already_exists" });
    const ids = h.validation;
    expect(refusalParts(() => uploadInline(h.ctx, h.ann, "practice", h.input("my-label", ids, h.half(ids))))).toEqual({
      status: 404,
      code: "model_label_unknown",
      message: "No model is named 'my-label'",
    });
  });

  it("refuses before the event and after it, on both lanes", async () => {
    const h = eventHarness({}, 60_000);
    const m = h.model(h.ann, "m");
    expect(refusalParts(() => uploadInline(h.ctx, h.ann, "practice", h.input(m, h.validation, h.half(h.validation))))).toMatchObject({
      status: 403,
      message: "Your hackathon has not started yet",
    });
    const phases = h.world.schedule.phases;
    await h.at(phases[phases.length - 1].start);
    for (const lane of ["practice", "round"] as const) {
      expect(refusalParts(() => uploadInline(h.ctx, h.ann, lane, h.input(m, h.validation, h.half(h.validation))))).toEqual({
        status: 403,
        code: "hackathon_ended",
        message: "This hackathon has ended",
      });
    }
    expect(getStarted(h.ctx, h.ann)).toMatchObject({ mode: "event", event_status: "finished", uploads_remaining: 4 });
  });

  it("seals a round's board until the next round opens, and keeps each agent's best entry_limit rows", async () => {
    const h = eventHarness();
    const [r1, r2] = h.world.schedule.rounds;
    await h.at(r1.open_at);
    const ids = h.live(1);
    const a1 = h.model(h.ann, "a1");
    const a2 = h.model(h.ann, "a2");
    const b1 = h.model(h.ben, "b1");
    uploadInline(h.ctx, h.ann, "round", h.input(a1, ids, h.half(ids)));
    uploadInline(h.ctx, h.ann, "round", h.input(a2, ids, ids.map((_, i) => ((i * 7) % ids.length + 0.5) / ids.length)));
    uploadInline(h.ctx, h.ben, "round", h.input(b1, ids, ids.map((_, i) => ((i * 11) % ids.length + 0.5) / ids.length)));
    await h.at(r1.close_at);
    const sealed = eventRoundBoard(h.ctx, "round_1");
    expect(sealed).toMatchObject({ sealed: true, rows: [] });
    expect(getRun(h.ctx, h.ann, (h.ctx.db.prepare("SELECT upload_id FROM uploads ORDER BY seq LIMIT 1").get() as { upload_id: string }).upload_id).scores).toBeNull();
    await h.at(r2.open_at);
    const board = eventRoundBoard(h.ctx, "round_1");
    expect(board.sealed).toBe(false);
    expect(board.rows).toHaveLength(2); // entry_limit 1: ann keeps one of her two models
    expect(eventStandings(h.ctx).rounds_unsealed).toEqual(["round_1"]);
  });

  it("takes a batch of 1 to 25 items, each with its own outcome; a resumed batch spends nothing twice", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.rounds[0].open_at);
    expect(await refused(uploadBatch(h.ctx, inline, h.ann, "round", []))).toEqual({
      status: 400,
      code: "batch_empty",
      message: "A batch must declare at least one item.",
    });
    const ids = h.live(1);
    const m = h.model(h.ann, "m");
    const item = h.input(m, ids, h.half(ids), { idempotency_key: "k1" });
    expect(await refused(uploadBatch(h.ctx, inline, h.ann, "round", Array(26).fill(item)))).toEqual({
      status: 400,
      code: "batch_too_large",
      message: "A batch may declare at most 25 items (26 given).",
    });
    const bad = { ...item, idempotency_key: "k2", model_pkl_sha256: "nothex" };
    const first = await uploadBatch(h.ctx, inline, h.ann, "round", [item, bad]);
    expect(first.all_succeeded).toBe(false);
    expect(first.items.map((i) => i.outcome)).toEqual(["accepted", "refused"]);
    expect(first.uploads_remaining).toBe(3);
    const resumed = await uploadBatch(h.ctx, inline, h.ann, "round", [item]);
    expect(resumed.items[0]).toMatchObject({ outcome: "replayed", run: { upload_id: first.items[0].run?.upload_id } });
    expect(resumed.uploads_remaining).toBe(3);
  });

  it("needs an event key for the round lane; practice keys may use the practice board", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.rounds[0].open_at);
    const pia = h.who("key-pia-00000003");
    const m = h.model(pia, "p");
    expect(refusalParts(() => uploadInline(h.ctx, pia, "round", h.input(m, h.live(1), h.half(h.live(1)))))).toMatchObject({ status: 403, code: "insufficient_scope" });
    expect(uploadInline(h.ctx, pia, "practice", h.input(m, h.validation, h.half(h.validation))).status).toBe("accepted");
  });
});

describe("the upload pool (property)", () => {
  it("never goes below 0, always equals the pool minus the counted runs; dedup refusals and failed runs never change it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant("upload" as const), variant: fc.integer({ min: 0, max: 5 }), model: fc.integer({ min: 0, max: 2 }), lane: fc.constantFrom("round" as const, "practice" as const), wrong: fc.boolean() }),
            fc.record({ op: fc.constant("delete" as const), which: fc.nat() }),
            fc.record({ op: fc.constant("wait" as const), seconds: fc.integer({ min: 1, max: 120 }) }),
          ),
          { maxLength: 25, size: "max" },
        ),
        async (ops) => {
          const h = eventHarness({ upload_pool: 3 });
          let t = h.world.schedule.rounds[0].open_at;
          await h.at(t);
          const models = [0, 1, 2].map((i) => h.model(h.ann, `m${i}`));
          const ids = h.live(1);
          const uploaded: string[] = [];
          for (const op of ops) {
            const before = uploadsRemaining(h.ctx, h.ann.agent_id);
            const events = eventCount(h.ctx.db);
            if (op.op === "wait") {
              t += op.seconds * 1000;
              if (t >= h.world.schedule.rounds[0].close_at) break;
              await h.at(t);
              const failedNow = h.ctx.db.prepare("SELECT COUNT(*) AS n FROM uploads WHERE status = 'failed'").get() as { n: number };
              expect(failedNow.n).toBeGreaterThanOrEqual(0);
            } else if (op.op === "delete") {
              if (uploaded.length === 0) continue;
              try {
                deleteRun(h.ctx, h.ann, uploaded[op.which % uploaded.length]);
              } catch {
                expect(uploadsRemaining(h.ctx, h.ann.agent_id)).toBe(before);
              }
            } else {
              const rowIds = op.wrong ? h.validation : op.lane === "practice" ? h.validation : ids;
              const values = rowIds.map((_, i) => ((i * (op.variant + 1)) % rowIds.length + 0.5) / rowIds.length);
              try {
                uploaded.push(uploadInline(h.ctx, h.ann, op.lane, h.input(models[op.model], rowIds, values)).upload_id);
              } catch (e) {
                const code = (e as { code: string }).code;
                expect(uploadsRemaining(h.ctx, h.ann.agent_id)).toBe(before);
                expect(eventCount(h.ctx.db)).toBe(events);
                expect(["predictions_filed_by_you", "run_scoring_different_file", "upload_limit_reached"]).toContain(code);
              }
            }
            const remaining = uploadsRemaining(h.ctx, h.ann.agent_id) as number;
            expect(remaining).toBeGreaterThanOrEqual(0);
            expect(remaining).toBe(3 - countedUploads(h.ctx, h.ann.agent_id));
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
