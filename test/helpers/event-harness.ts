import { authenticate } from "../../src/service/kernel/auth.js";
import { advanceRounds } from "../../src/service/cadence/cadence-steps.js";
import type { UploadInput } from "../../src/service/event/uploads.js";
import { createModel } from "../../src/service/models/models.js";
import { uploadOf } from "../../sim/agents/event-upload.js";
import { harness } from "./service-harness.js";
import { smallEvent } from "./small-event.js";

/** A small event's service with its agents, a model maker, upload inputs, and a clock that applies due steps. */
export function eventHarness(event: Record<string, unknown> = {}, before = 0, overrides: Record<string, unknown> = {}) {
  const h = harness(smallEvent(overrides, event), before);
  const who = (key: string) => authenticate(h.ctx, key);
  const ann = who("key-ann-00000001");
  const ben = who("key-ben-00000002");
  const model = (p: ReturnType<typeof who>, label: string) => createModel(h.ctx, p, { name: label }).name;
  /** The built-in agents' upload (CSV predictions beside the sample predict.pkl), with any field replaced. */
  const input = (modelName: string, ids: string[], values: ArrayLike<number>, extra: Partial<UploadInput> = {}): UploadInput => ({
    ...uploadOf(modelName, ids, Float64Array.from(values)),
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

