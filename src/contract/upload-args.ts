import { z } from "zod";

/** One upload's arguments on either event lane: each file as base64 contents (or, over stdio, a local path), or the predictions inline. */
export const uploadArgs = {
  model_id: z.string().min(1).describe("The model's returned name (participant_…) or id (mdl_…)"),
  predictions_base64: z.string().optional().describe("The predictions file's bytes, base64: .csv (header id,prediction) or .parquet (id, prediction)"),
  predictions_filename: z.string().optional().describe("The predictions file's name, which says its type (omitted: predictions.csv)"),
  predictions_path: z.string().optional().describe("stdio only: a local path instead of predictions_base64 (refused over HTTP)"),
  predictions: z
    .record(z.string(), z.number())
    .optional()
    .describe("Instead of a file: the predictions inline as {id: value}, ids copied from the dataset, values in [0, 1]"),
  model_pkl_base64: z.string().optional().describe("The cloudpickled predict callable's bytes (.pkl), base64; required by the service"),
  model_pkl_filename: z.string().optional().describe("The model file's name (omitted: model.pkl)"),
  model_pkl_path: z.string().optional().describe("stdio only: a local path instead of model_pkl_base64 (refused over HTTP)"),
  model_pkl_sha256: z
    .string()
    .optional()
    .describe("Lowercase 64-hex SHA-256 you declare for the .pkl; omitted: the SHA-256 of the bytes given"),
  model_pkl_python_version: z.string().optional().describe("'major.minor' of the interpreter that saved the pickle (omitted: 3.11)"),
  idempotency_key: z.string().optional().describe("A retried upload with the same key answers with the first one"),
};
