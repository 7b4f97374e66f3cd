import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { logDigest } from "../../../src/store/event-log.js";
import type { PredictionEntry } from "../../../src/service/tournament/tournament.js";
import { predictPickles } from "../../helpers/predict-pickles.js";
import { requires } from "../../helpers/requires.js";
import { refused } from "../../helpers/refusal.js";
import { eventHarness } from "../../helpers/event-harness.js";
import { ALICE, SECOND, laneHarness } from "./lane-harness.js";

let pickle: (name: string) => Uint8Array;
const makePickles = async () => {
  pickle = await predictPickles();
};

const sample = readFileSync(new URL("../../../data/samples/predict.pkl", import.meta.url));
const DELAY = 300 * SECOND;

/** Alice's model with `bytes` validated 5 s into round 1, before the lane's time in round 1. */
async function validated(bytes: Uint8Array = sample, overrides: Record<string, unknown> = {}) {
  const h = await laneHarness({ auto_submit: { validation_seconds: 5 }, ...overrides });
  await h.upload(bytes);
  await h.at(h.clock.now() + 5 * SECOND);
  expect((await h.status()).status).toBe("validated");
  const entry = (exped: string) =>
    h.ctx.db.prepare("SELECT id, revision, source FROM submissions WHERE model_id = ? AND exped = ?").get(h.model.id, exped) as
      | { id: string; revision: number; source: string }
      | undefined;
  return { ...h, entry };
}

requires("python").describe("the auto-submit lane's runs", () => {
  beforeAll(makePickles);

  it("files an auto entry auto_submit_delay_seconds after each round opens, at that instant", async () => {
    const h = await validated();
    const r1 = h.round(1);
    await h.at(r1.open_at + DELAY - 1);
    expect(h.entry(r1.window)).toBeUndefined();
    await h.at(r1.open_at + DELAY + 3 * 60 * SECOND);
    expect(h.entry(r1.window)).toMatchObject({ revision: 1, source: "auto" });
    const [auto] = h.logged("submission.auto");
    expect(auto).toMatchObject({ t: r1.open_at + DELAY, payload: { exped: r1.window, model_id: h.model.id, n: 40, revision: 1 } });
    expect((await h.status()).last_auto_run).toEqual({
      exped: r1.window,
      outcome: "submitted",
      detail: null,
      submission_id: auto.payload.submission_id,
      ran_at: new Date(r1.open_at + DELAY).toISOString(),
    });
    await h.at(h.round(2).open_at + DELAY);
    expect(h.logged("submission.auto").map((e) => e.payload.exped)).toEqual([r1.window, h.round(2).window]);
  });

  it("waits for the next round when the file validates after the round's lane time", async () => {
    const h = await laneHarness({ auto_submit: { validation_seconds: 5 } });
    await h.at(h.round(1).open_at + DELAY + SECOND);
    await h.upload(sample);
    await h.at(h.round(2).open_at + DELAY);
    expect(h.logged("submission.auto").map((e) => e.payload.exped)).toEqual([h.round(2).window]);
  });

  it("lets a manual submit v2 replace the auto entry (revision 2), and skips a round already submitted by hand", async () => {
    const h = await validated();
    const r2 = h.round(2);
    await h.at(r2.open_at + DELAY);
    const { instrument_ids } = await h.service.instruments(ALICE);
    const full: PredictionEntry[] = instrument_ids.map((instrument_id) => ({ instrument_id, prediction: 0.5 }));
    const manual = await h.service.submit(ALICE, { model_id: "alice-model", exped: r2.window, predictions: full });
    expect(manual).toMatchObject({ submission_id: h.entry(r2.window)?.id, replaced: true, revision: 2 });
    expect(h.entry(r2.window)).toMatchObject({ revision: 2, source: "manual" });

    const r3 = h.round(3);
    await h.at(r3.open_at + 60 * SECOND);
    const third = await h.service.instruments(ALICE);
    await h.service.submit(ALICE, { model_id: "alice-model", exped: r3.window, predictions: third.instrument_ids.map((instrument_id) => ({ instrument_id, prediction: 0.25 })) });
    await h.at(r3.open_at + DELAY);
    expect(h.entry(r3.window)).toMatchObject({ revision: 1, source: "manual" });
    expect(h.logged("auto_run.skipped")).toMatchObject([
      { t: r3.open_at + DELAY, payload: { exped: r3.window, model_ids: [h.model.id], reason: "a manual submission is already filed for this round" } },
    ]);
    expect((await h.status()).last_auto_run).toMatchObject({ exped: r3.window, outcome: "skipped" });
  });

  it("runs nothing for a model switched off, and nothing in a round whose live split is empty", async () => {
    const off = await validated();
    await off.service.setAutoSubmit(ALICE, { model_id: "alice-model", enabled: false });
    await off.at(off.round(2).open_at + DELAY);
    expect(off.entry(off.round(2).window)).toBeUndefined();
    expect(off.logged("submission.auto", "auto_run.skipped", "auto_run.failed")).toEqual([]);

    const empty = await validated(sample, { faults: { empty_live_rounds: [2] } });
    await empty.at(empty.round(2).open_at + DELAY);
    expect(empty.entry(empty.round(2).window)).toBeUndefined();
    expect(empty.logged("auto_run.skipped")).toMatchObject([
      { payload: { reason: "the round's live split is empty (empty_live fault): nothing to run the model on" } },
    ]);
  });

  it("logs a failed run's reason and files nothing", async () => {
    const h = await validated(pickle("only_sixty_rows"));
    const r1 = h.round(1);
    await h.at(r1.open_at + DELAY);
    expect(h.entry(r1.window)).toBeUndefined();
    expect(h.logged("auto_run.failed")).toMatchObject([
      { t: r1.open_at + DELAY, payload: { exped: r1.window, model_id: h.model.id, reason: "predict raised ValueError: expected 60 rows, got 40" } },
    ]);
    expect((await h.status()).last_auto_run).toMatchObject({ outcome: "failed", submission_id: null });
  });

  it("logs the same events whether the clock is synced at every step or once at the end", async () => {
    const stepwise = await validated();
    const once = await validated();
    const end = stepwise.round(3).close_at + SECOND;
    for (let t = stepwise.clock.now(); t < end; t += 30 * 60 * SECOND) await stepwise.at(t);
    await stepwise.at(end);
    await once.at(end);
    expect(logDigest(once.ctx.db)).toBe(logDigest(stepwise.ctx.db));
    expect(once.logged("submission.auto")).toHaveLength(3);
  });
});

describe("the lane on an event", () => {
  it("does not exist: the calls answer 404 and every model's note says so", async () => {
    const h = eventHarness();
    const name = h.model(h.ann, "ann-label");
    const [model] = (await h.service.getModels("key-ann-00000001")).models;
    expect(model).toMatchObject({ name, auto_submit: false, lane_active: false });
    expect(model.lane_note).toBe("Events have no auto-submit lane: upload each round's predictions file on the event round lane.");
    expect(await refused(h.service.getUploadStatus("key-ann-00000001", name))).toEqual({
      status: 404,
      code: "not_found",
      message: "Not found: this deployment runs no tournament auto-submit lane",
    });
  });
});
