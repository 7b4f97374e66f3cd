import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ServeOptions } from "../../src/commands/serve.js";
import { readFrameParquet } from "../../src/data/parquet.js";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../sim/agents/event-upload.js";
import { smallEvent } from "../helpers/small-event.js";
import { serveScenario, type Answer, type TestServer } from "./server.js";

/** The small event's keys: two event keys, a practice key, a tournament key. */
export const ANN = "key-ann-00000001";
export const BEN = "key-ben-00000002";
export const PIA = "key-pia-00000003";

export const ROUND_UPLOAD = "/api/v1/event/predictions/upload";
export const PRACTICE_UPLOAD = "/api/v1/diagnostics/upload";
export const ROUND_BATCH = "/api/v1/event/predictions/batch";
export const PRACTICE_BATCH = "/api/v1/diagnostics/batch";

/** The sample predict.pkl the built-in agents upload, and its digest. */
export const PKL = samplePkl;
export const PKL_SHA = samplePklSha256;

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function fixturePickle(name: string): Uint8Array {
  return readFileSync(new URL(`../fixtures/pickles/${name}`, import.meta.url));
}

/** A real server over the small event (3 rounds, 10 min build, pool 4, 60 s scoring) at its start. */
export function eventServer(event: Record<string, unknown> = {}, opts: Partial<ServeOptions> = {}): Promise<TestServer> {
  return serveScenario(smallEvent({}, event), opts);
}

export const csv = predictionsCsv;

/** Values in (0, 1), one per id; another `k` gives other content. */
export function spread(ids: string[], k = 1): number[] {
  return ids.map((_, i) => (((i * k) % ids.length) + 0.5) / ids.length);
}

export interface UploadFields {
  model_id: string;
  predictions?: { name: string; bytes: Uint8Array } | null;
  model_pkl?: { name: string; bytes: Uint8Array } | null;
  model_pkl_sha256?: string | null;
  model_pkl_python_version?: string | null;
  idempotency_key?: string;
}

/** An upload's multipart form; the model file defaults to the sample predict.pkl with its digest, null leaves a part out. */
export function uploadForm(f: UploadFields): FormData {
  const form = new FormData();
  form.set("model_id", f.model_id);
  const pkl = f.model_pkl === undefined ? { name: "predict.pkl", bytes: PKL } : f.model_pkl;
  if (f.predictions) form.set("predictions", new Blob([f.predictions.bytes as Uint8Array<ArrayBuffer>]), f.predictions.name);
  if (pkl) form.set("model_pkl", new Blob([pkl.bytes as Uint8Array<ArrayBuffer>]), pkl.name);
  const sha = f.model_pkl_sha256 === undefined ? PKL_SHA : f.model_pkl_sha256;
  if (sha !== null) form.set("model_pkl_sha256", sha);
  const python = f.model_pkl_python_version === undefined ? "3.12" : f.model_pkl_python_version;
  if (python !== null) form.set("model_pkl_python_version", python);
  if (f.idempotency_key) form.set("idempotency_key", f.idempotency_key);
  return form;
}

/** A CSV upload of `values` for `ids`. */
export function csvUpload(model_id: string, ids: string[], values: ArrayLike<number>, extra: Partial<UploadFields> = {}): FormData {
  return uploadForm({ model_id, predictions: { name: "predictions.csv", bytes: csv(ids, values) }, ...extra });
}

export function postForm(s: TestServer, path: string, key: string, form: FormData): Promise<Answer> {
  return s.call("POST", path, { key, raw: form });
}

/** Resolves once `n` uploads have taken a place in a lane: the face takes one through `service.intakeSlot`, and starts its body's pace watch right after. */
export function placesTaken(s: TestServer, n: number): Promise<void> {
  const take = s.service.intakeSlot.bind(s.service);
  let count = 0;
  return new Promise((resolve) => {
    s.service.intakeSlot = (key, lane) => {
      const release = take(key, lane);
      if (++count === n) resolve();
      return release;
    };
  });
}

/** A new model's server-given name. */
export async function newModel(s: TestServer, key: string, label: string): Promise<string> {
  const a = await s.post("/api/v1/models", { name: label }, key);
  if (a.status !== 201) throw new Error(`create_model ${label}: ${a.status} ${JSON.stringify(a.json)}`);
  return a.json.name as string;
}

export async function splitIds(s: TestServer, key: string, split: string): Promise<string[]> {
  const a = await s.get(`/api/v1/futures/data/${split}`, key);
  if (a.status !== 200) throw new Error(`download ${split}: ${a.status} ${JSON.stringify(a.json)}`);
  return readFrameParquet(a.bytes).ids;
}

/** Moves the organiser's clock to the start of `phase` (a later one). */
export async function toPhase(s: TestServer, phase: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const a = await s.advance({ to: "next_phase" });
    if (a.status !== 200) throw new Error(`advance: ${a.status} ${JSON.stringify(a.json)}`);
    if (a.json.cadence.phase === phase) return;
  }
  throw new Error(`never reached phase ${phase}`);
}

export async function uploadsRemaining(s: TestServer, key: string): Promise<number | null> {
  return (await s.get("/api/v1/status", key)).json.uploads_remaining;
}
