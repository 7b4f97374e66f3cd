import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { packageFile } from "../../src/package-files.js";
import type { UploadInput } from "../../src/service/event/uploads.js";
import type { AgentContext } from "./strategy.js";

/** The predict callable every built-in event agent uploads beside its predictions (store-only on the lanes). */
export const samplePkl = readFileSync(packageFile("data/samples/predict.pkl"));
export const samplePklSha256 = createHash("sha256").update(samplePkl).digest("hex");

/** Predictions as the CSV the lanes take: header `id,prediction`, full-precision values. */
export function predictionsCsv(ids: string[], values: ArrayLike<number>): Uint8Array {
  const lines = ["id,prediction"];
  ids.forEach((id, i) => lines.push(`${id},${values[i]}`));
  return new TextEncoder().encode(lines.join("\n") + "\n");
}

/** The multipart fields of one upload of `ids`/`values` by the model `model`, beside the sample predict.pkl. */
export function uploadOf(model: string, ids: string[], values: Float64Array, idempotency_key?: string): UploadInput {
  return uploadWith({ bytes: samplePkl, sha256: samplePklSha256, python_version: "3.12" }, model, ids, values, idempotency_key);
}

/** The same beside another model file: its bytes, their SHA-256 and the Python version that saved it. */
export function uploadWith(
  pkl: { bytes: Uint8Array; sha256: string; python_version: string },
  model: string,
  ids: string[],
  values: Float64Array,
  idempotency_key?: string,
): UploadInput {
  return {
    model_id: model,
    predictions: { filename: "predictions.csv", bytes: predictionsCsv(ids, values) },
    model_pkl: { filename: "predict.pkl", bytes: pkl.bytes },
    model_pkl_sha256: pkl.sha256,
    model_pkl_python_version: pkl.python_version,
    idempotency_key,
  };
}

/** Registers the agent's model under a private label and returns the name the server gave it. */
export async function eventModel(ctx: AgentContext, label = ctx.model): Promise<string> {
  return (await ctx.client.createModel({ name: label })).name;
}
