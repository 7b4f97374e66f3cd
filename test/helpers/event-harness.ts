import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { authenticate } from "../../src/service/auth.js";
import { advanceRounds } from "../../src/service/cadence-steps.js";
import type { UploadInput } from "../../src/service/event/uploads.js";
import { createModel } from "../../src/service/models.js";
import { harness } from "./service-harness.js";
import { smallEvent } from "./small-event.js";

const pkl = readFileSync(new URL("../../data/samples/predict.pkl", import.meta.url));
const sha = createHash("sha256").update(pkl).digest("hex");

export function csv(ids: string[], values: ArrayLike<number>): Uint8Array {
  return new TextEncoder().encode(["id,prediction", ...ids.map((id, i) => `${id},${values[i]}`)].join("\n"));
}

/** A small event's service with its agents, a model maker, upload inputs, and a clock that applies due steps. */
export function eventHarness(event: Record<string, unknown> = {}, before = 0, overrides: Record<string, unknown> = {}) {
  const h = harness(smallEvent(overrides, event), before);
  const who = (key: string) => authenticate(h.ctx, key);
  const ann = who("key-ann-00000001");
  const ben = who("key-ben-00000002");
  const model = (p: ReturnType<typeof who>, label: string) => createModel(h.ctx, p, { name: label }).name;
  const input = (modelName: string, ids: string[], values: ArrayLike<number>, extra: Partial<UploadInput> = {}): UploadInput => ({
    model_id: modelName,
    predictions: { filename: "p.csv", bytes: csv(ids, values) },
    model_pkl: { filename: "predict.pkl", bytes: pkl },
    model_pkl_sha256: sha,
    model_pkl_python_version: "3.12",
    ...extra,
  });
  const at = async (t: number) => {
    h.clock.set(t);
    await advanceRounds(h.ctx);
  };
  const live = (round: number) => h.world.dataset.rounds[round - 1].frame.ids;
  const validation = h.world.dataset.validation.ids;
  const half = (ids: string[]) => ids.map((_, i) => (i + 0.5) / ids.length);
  return { ...h, who, ann, ben, model, input, at, live, validation, half };
}

