import { describe, expect, it } from "vitest";
import { eventCount } from "../../../src/store/event-log.js";
import type { PredictionEntry } from "../../../src/service/tournament/tournament.js";
import { refused } from "../../helpers/refusal.js";
import { harness } from "../../helpers/service-harness.js";

const ALICE = "key-alice-0001";
const BOB = "key-bob-00000002";

/** A service with round 1 open and alice's model registered. */
async function openRoundOne() {
  const h = harness();
  h.clock.set(h.round(1).open_at);
  await h.service.createModel(ALICE, { name: "alice-model" });
  const { exped, instrument_ids } = await h.service.instruments(ALICE);
  const full = (value = 0.5): PredictionEntry[] => instrument_ids.map((instrument_id) => ({ instrument_id, prediction: value }));
  const submit = (predictions: PredictionEntry[], extra: Partial<{ model_id: string; exped: string }> = {}, key = ALICE) =>
    h.service.submit(key, { model_id: "alice-model", exped, predictions, ...extra });
  return { ...h, exped, instrument_ids, full, submit };
}

describe("tournament submit v2", () => {
  it("accepts exactly the round's instruments, and a resubmit inside the window replaces the entry", async () => {
    const { submit, full, exped, instrument_ids } = await openRoundOne();
    const first = await submit(full(0.4));
    expect(first).toMatchObject({ exped, n_predictions: instrument_ids.length, replaced: false, revision: 1 });
    const second = await submit(full(0.6));
    expect(second).toMatchObject({ submission_id: first.submission_id, replaced: true, revision: 2 });
  });

  it("stores entries given in another order in the round's published order", async () => {
    const { submit, instrument_ids, ctx, exped } = await openRoundOne();
    const value = (i: number) => (i % 7) / 7;
    const stored = () => ctx.db.prepare("SELECT predictions FROM submissions WHERE exped = ?").get(exped) as { predictions: Buffer };
    await submit(instrument_ids.map((instrument_id, i) => ({ instrument_id, prediction: value(i) })));
    const inOrder = stored().predictions;
    await submit(instrument_ids.map((instrument_id, i) => ({ instrument_id, prediction: value(i) })).reverse());
    expect(stored().predictions).toEqual(inOrder);
    expect([...new Float64Array(inOrder.buffer.slice(inOrder.byteOffset, inOrder.byteOffset + inOrder.byteLength))]).toEqual(instrument_ids.map((_, i) => value(i)));
  });

  it("refuses duplicates, strangers and gaps with the spec's texts", async () => {
    const { submit, full, instrument_ids } = await openRoundOne();
    const dup = [...full(), { instrument_id: instrument_ids[0], prediction: 0.1 }, { instrument_id: instrument_ids[1], prediction: 0.1 }];
    expect(await refused(submit(dup))).toEqual({
      status: 400,
      code: "duplicate_instruments",
      message: "Duplicate instrument_id values in predictions (2 duplicates).",
    });
    expect(await refused(submit([...full(), { instrument_id: "ffffffffffffffff", prediction: 0.5 }]))).toEqual({
      status: 400,
      code: "unknown_instruments",
      message: "Submission contains 1 instrument_id values not in the current round.",
    });
    const twiceStranger = { instrument_id: "eeeeeeeeeeeeeeee", prediction: 0.5 };
    expect(await refused(submit([...full().slice(1), twiceStranger, twiceStranger]))).toMatchObject({ code: "duplicate_instruments", message: "Duplicate instrument_id values in predictions (1 duplicates)." });
    expect(await refused(submit(full().slice(3)))).toEqual({
      status: 400,
      code: "missing_instruments",
      message: "Missing predictions for 3 instruments.",
    });
  });

  it("refuses values outside [0, 1] naming the target, and non-finite values", async () => {
    const { submit, full } = await openRoundOne();
    const entries = full();
    entries[5] = { ...entries[5], prediction: 1.5 };
    expect(await refused(submit(entries))).toEqual({
      status: 422,
      code: "prediction_out_of_range",
      message: "Target 'target_everest': prediction 1.5 is outside the allowed range [0, 1].",
    });
    entries[5] = { ...entries[5], prediction: -0.25 };
    expect((await refused(submit(entries))).message).toBe(
      "Target 'target_everest': prediction -0.25 is outside the allowed range [0, 1].",
    );
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      entries[5] = { ...entries[5], prediction: bad };
      expect(await refused(submit(entries))).toEqual({
        status: 422,
        code: "prediction_not_finite",
        message: "prediction must be a finite number (no NaN or Infinity)",
      });
    }
  });

  it("accepts the per-target map and refuses a target the round does not score", async () => {
    const { submit, instrument_ids } = await openRoundOne();
    const ok = await submit(instrument_ids.map((instrument_id) => ({ instrument_id, targets: { target_everest: 0.3 } })));
    expect(ok.n_predictions).toBe(instrument_ids.length);
    const r = await refused(submit(instrument_ids.map((instrument_id) => ({ instrument_id, targets: { target_other: 0.3 } }))));
    expect(r).toMatchObject({ status: 422, code: "validation_error" });
    expect(r.message).toContain("target_other");
  });

  it("accepts 0 and 1, the ends of the range", async () => {
    const { submit, full } = await openRoundOne();
    const entries = full();
    entries[0] = { ...entries[0], prediction: 0 };
    entries[1] = { ...entries[1], prediction: 1 };
    await expect(submit(entries)).resolves.toMatchObject({ replaced: false });
  });

  it("refuses unknown models by name and by id, and another agent's model as not found", async () => {
    const h = await openRoundOne();
    expect(await refused(h.submit(h.full(), { model_id: "nope" }))).toEqual({
      status: 404,
      code: "model_name_unknown",
      message: "No model 'nope'. Create it first with create_model.",
    });
    expect(await refused(h.submit(h.full(), { model_id: "mdl_0123456789abcdef" }))).toEqual({
      status: 404,
      code: "model_not_found",
      message: "Model not found",
    });
    const { models } = await h.service.getModels(ALICE);
    const bobTries = h.service.submit(BOB, { model_id: models[0].id, exped: h.exped, predictions: h.full() });
    expect(await refused(bobTries)).toMatchObject({ status: 404, message: "Model not found" });
  });

  it("refuses a round that does not exist or has not opened", async () => {
    const h = await openRoundOne();
    expect(await refused(h.submit(h.full(), { exped: "exped_9999" }))).toEqual({ status: 404, code: "round_not_found", message: "Round not found" });
    expect(await refused(h.submit(h.full(), { exped: h.round(2).window }))).toMatchObject({ status: 404, message: "Round not found" });
  });

  it("makes the entry final once the window closes", async () => {
    const h = await openRoundOne();
    await h.submit(h.full(0.4));
    await h.service.createModel(BOB, { name: "bob-model" });
    h.clock.set(h.round(1).close_at);
    expect(await refused(h.submit(h.full(0.6)))).toEqual({
      status: 409,
      code: "submission_final",
      message: "Submission already exists for this model and exped.",
    });
    const late = await refused(h.service.submit(BOB, { model_id: "bob-model", exped: h.exped, predictions: h.full() }));
    expect(late).toMatchObject({ status: 409, code: "submission_window_closed" });
    expect(late.message).toBe(`The submission window for ${h.exped} closed at 2026-01-05T16:00:00.000Z; no entry was recorded.`);
  });

  it("writes nothing on a refusal", async () => {
    const h = await openRoundOne();
    await h.submit(h.full(0.4));
    const before = eventCount(h.ctx.db);
    const stored = h.ctx.db.prepare("SELECT predictions, revision FROM submissions").all();
    await refused(h.submit(h.full().slice(1)));
    await refused(h.submit(h.full(2)));
    expect(eventCount(h.ctx.db)).toBe(before);
    expect(h.ctx.db.prepare("SELECT predictions, revision FROM submissions").all()).toEqual(stored);
  });

  it("needs a full tournament key", async () => {
    const h = await openRoundOne();
    expect(await refused(h.submit(h.full(), {}, "key-eve-00000007"))).toMatchObject({ status: 403, code: "scope_restricted" });
    expect(await refused(h.submit(h.full(), {}, "not-a-key"))).toEqual({ status: 401, code: "invalid_api_key", message: "Invalid API key" });
    expect(await refused(h.service.submit(undefined, { model_id: "x", exped: h.exped, predictions: [] }))).toEqual({
      status: 401,
      code: "missing_api_key",
      message: "Missing API key",
    });
  });
});

describe("models", () => {
  it("create_model is idempotent by name, a taken name is refused, archive frees the name", async () => {
    const h = harness();
    const a = await h.service.createModel(ALICE, { name: "shared" });
    expect(a).toMatchObject({ status: "created", lane_active: false });
    expect(typeof a.lane_note).toBe("string");
    expect(await h.service.createModel(ALICE, { name: "shared" })).toMatchObject({ id: a.id, status: "already_exists" });
    expect(await refused(h.service.createModel(BOB, { name: "shared" }))).toMatchObject({ status: 409, code: "model_name_taken" });
    await h.service.archiveModel(ALICE, a.id);
    const b = await h.service.createModel(BOB, { name: "shared" });
    expect(b.id).not.toBe(a.id);
    expect((await h.service.getModels(ALICE)).models).toEqual([]);
  });
});
