import { createHash } from "node:crypto";
import type { ModelFileInput } from "../../../src/service/auto-submit/upload-model.js";
import { eventLines } from "../../../src/store/event-log.js";
import { harness } from "../../helpers/service-harness.js";
import { smallScenario } from "../../helpers/small-scenario.js";

export const ALICE = "key-alice-0001";
export const BOB = "key-bob-00000002";
export const EVE = "key-eve-00000007";
export const SECOND = 1000;

/** The small tournament at round 1's open, alice's model `alice-model` registered; `overrides` go to the scenario. */
export async function laneHarness(overrides: Record<string, unknown> = {}) {
  const h = harness(smallScenario(overrides));
  h.clock.set(h.round(1).open_at);
  const model = await h.service.createModel(ALICE, { name: "alice-model" });
  const upload = (bytes: Uint8Array, extra: Partial<ModelFileInput> = {}, key = ALICE) =>
    h.service.uploadModel(key, { model_id: "alice-model", file: { filename: "predict.pkl", bytes }, ...extra });
  const status = () => h.service.getUploadStatus(ALICE, "alice-model");
  /** Moves the clock to `t` and applies what fell due on the way. */
  const at = async (t: number) => {
    h.clock.set(t);
    await h.service.sync();
  };
  /** The event log's entries of these types, payloads parsed. */
  const logged = (...types: string[]) =>
    [...eventLines(h.ctx.db)].map((line) => JSON.parse(line)).filter((e) => types.includes(e.type));
  return { ...h, model, upload, status, at, logged };
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
