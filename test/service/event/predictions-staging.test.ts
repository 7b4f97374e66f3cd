import { describe, expect, it } from "vitest";
import { STAGE_PART_BYTES } from "../../../src/service/event/predictions-staging.js";
import { checkUploadFiles } from "../../../src/service/event/upload-files.js";
import { upload, type UploadPath } from "../../../src/service/event/uploads.js";
import { decodePredictions } from "../../../src/service/rounds/submission-codec.js";
import { runPredictions } from "../../../src/store/upload-predictions.js";
import { eventHarness } from "../../helpers/event-harness.js";
import { refused } from "../../helpers/refusal.js";

/** Every step on this thread, the serial ones counted. */
function countingPath(): UploadPath & { steps: number } {
  const path = {
    steps: 0,
    serial: async <T>(fn: () => T) => {
      path.steps++;
      return fn();
    },
    checkFiles: async (files: Parameters<UploadPath["checkFiles"]>[0], rules: Parameters<UploadPath["checkFiles"]>[1]) => checkUploadFiles(files, rules),
  };
  return path;
}

/** The validation ids and enough more (unknown to the event, so unscored) that the stored file passes `bytes`. */
function largeFile(validation: string[], bytes: number): { ids: string[]; values: number[] } {
  const ids = [...validation];
  for (let i = 0; ids.length * 28 < bytes; i++) ids.push(`extra-${i.toString(16).padStart(10, "0")}`);
  return { ids, values: ids.map((_, i) => (i + 0.5) / ids.length) };
}

const partsOf = (db: ReturnType<typeof eventHarness>["ctx"]["db"]) => db.prepare("SELECT stage, part, length(ids) + length(predictions) AS bytes FROM predictions_parts ORDER BY stage, part").all() as { stage: number; part: number; bytes: number }[];

describe("a large predictions file is stored in parts before its upload is accepted", () => {
  it("writes each part in a serial step of its own, links them in the accepting one, and reads the file back whole", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const file = largeFile(h.validation, 3 * STAGE_PART_BYTES);
    const path = countingPath();
    const run = await upload(h.ctx, path, h.ann, "practice", h.input(h.model(h.ann, "big"), file.ids, file.values));
    expect(run.status).toBe("accepted");
    const parts = partsOf(h.ctx.db);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(parts.map((p) => p.stage)).size).toBe(1);
    expect(Math.max(...parts.map((p) => p.bytes))).toBeLessThanOrEqual(STAGE_PART_BYTES + 1);
    // The prelude, one step per part, and the accepting step.
    expect(path.steps).toBe(parts.length + 2);
    const stored = runPredictions(h.ctx.db, run.upload_id);
    expect(JSON.parse(stored.ids)).toEqual(file.ids);
    expect([...decodePredictions(stored.predictions)]).toEqual(file.values);
  });

  it("lets the event loop serve what arrived between two parts: a large file's parts never hold a request for the whole file", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const file = largeFile(h.validation, 3 * STAGE_PART_BYTES);
    const order: string[] = [];
    const path = countingPath();
    const serial = path.serial;
    path.serial = (fn) => serial(() => (order.push("step"), fn()));
    // A request that arrives while the first part is written: its turn comes before the next part.
    const staging = upload(h.ctx, path, h.ann, "practice", h.input(h.model(h.ann, "big"), file.ids, file.values));
    const served = new Promise<void>((resolve) => setImmediate(() => (order.push("request"), resolve())));
    await Promise.all([staging, served]);
    const parts = partsOf(h.ctx.db).length;
    expect(parts).toBeGreaterThanOrEqual(3);
    // The prelude, the first part, the request, then the other parts and the accepting step.
    expect(order.slice(0, 3)).toEqual(["step", "step", "request"]);
    expect(order.filter((o) => o === "step")).toHaveLength(parts + 2);
  });

  it("writes a small file in the accepting commit: one part, no step of its own", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const path = countingPath();
    const run = await upload(h.ctx, path, h.ann, "practice", h.input(h.model(h.ann, "small"), h.validation, h.half(h.validation)));
    expect(path.steps).toBe(2);
    expect(partsOf(h.ctx.db)).toHaveLength(1);
    expect(JSON.parse(runPredictions(h.ctx.db, run.upload_id).ids)).toEqual(h.validation);
  });

  it("removes the parts of an upload refused after its file was staged; the accepted file's stay", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const file = largeFile(h.validation, 2 * STAGE_PART_BYTES);
    const first = await upload(h.ctx, countingPath(), h.ann, "practice", h.input(h.model(h.ann, "one"), file.ids, file.values));
    const kept = partsOf(h.ctx.db);
    const again = await refused(upload(h.ctx, countingPath(), h.ben, "practice", h.input(h.model(h.ben, "two"), file.ids, file.values)));
    expect(again.code).toBe("predictions_already_filed");
    expect(partsOf(h.ctx.db)).toEqual(kept);
    expect(JSON.parse(runPredictions(h.ctx.db, first.upload_id).ids)).toEqual(file.ids);
  });
});
