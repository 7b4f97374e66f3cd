import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { z } from "zod";
import { refuse } from "../domain/errors.js";
import type { FilePart, UploadInput } from "../service/event/uploads.js";

/** One upload's arguments on either event lane: files by local path, or the predictions inline. */
export const uploadArgs = {
  model_id: z.string().min(1).describe("The model's returned name (participant_…) or id (mdl_…)"),
  predictions_path: z.string().optional().describe("Local path of the predictions file: .csv (header id,prediction) or .parquet (id, prediction)"),
  predictions: z
    .record(z.string(), z.number())
    .optional()
    .describe("Instead of predictions_path: the predictions inline as {id: value}, ids copied from the dataset, values in [0, 1]"),
  model_pkl_path: z.string().optional().describe("Local path of the cloudpickled predict callable (.pkl); required by the service"),
  model_pkl_sha256: z
    .string()
    .optional()
    .describe("Lowercase 64-hex SHA-256 you declare for the .pkl; omitted: the SHA-256 of the file read from model_pkl_path"),
  model_pkl_python_version: z.string().optional().describe("'major.minor' of the interpreter that saved the pickle (omitted: 3.11)"),
  idempotency_key: z.string().optional().describe("A retried upload with the same key answers with the first one"),
};

export type UploadArgs = z.output<z.ZodObject<typeof uploadArgs>>;

/** The bytes of a local file the caller named; an unreadable one is a 422 on its argument. */
export function readPart(path: string, argument: string, loc: (string | number)[]): FilePart {
  try {
    return { filename: basename(path), bytes: readFileSync(path) };
  } catch (e) {
    throw refuse(
      "validation_error",
      { message: `${argument}: cannot read '${path}' (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` },
      { extra: { loc: ["arguments", ...loc] } },
    );
  }
}

/** A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** Inline predictions as the CSV file the lanes take; the service parses and checks it like any upload. */
function inlineCsv(records: Record<string, number>): FilePart {
  const lines = ["id,prediction", ...Object.entries(records).map(([id, v]) => `${csvField(id)},${v}`)];
  return { filename: "predictions.csv", bytes: new TextEncoder().encode(`${lines.join("\n")}\n`) };
}

/**
 * The tool's arguments as the service's upload input: the named files read as they are, nothing
 * checked that the service checks. A missing file stays null, for the service to refuse with the
 * spec's text. The declared SHA-256 defaults to the file's own, as a client would declare it.
 */
export function uploadInput(args: UploadArgs, loc: (string | number)[] = []): UploadInput {
  if (args.predictions_path !== undefined && args.predictions !== undefined) {
    throw refuse(
      "validation_error",
      { message: "predictions: give predictions_path or inline predictions, not both" },
      { extra: { loc: ["arguments", ...loc, "predictions"] } },
    );
  }
  const predictions =
    args.predictions_path !== undefined
      ? readPart(args.predictions_path, "predictions_path", [...loc, "predictions_path"])
      : args.predictions !== undefined
        ? inlineCsv(args.predictions)
        : null;
  const model_pkl = args.model_pkl_path !== undefined ? readPart(args.model_pkl_path, "model_pkl_path", [...loc, "model_pkl_path"]) : null;
  const declared = args.model_pkl_sha256 ?? (model_pkl ? createHash("sha256").update(model_pkl.bytes).digest("hex") : null);
  return {
    model_id: args.model_id,
    predictions,
    model_pkl,
    model_pkl_sha256: declared,
    model_pkl_python_version: args.model_pkl_python_version ?? null,
    idempotency_key: args.idempotency_key ?? null,
  };
}
