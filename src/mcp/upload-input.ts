import { createHash } from "node:crypto";
import type { z } from "zod";
import type { uploadArgs } from "../contract/upload-args.js";
import { refuse } from "../domain/errors.js";
import type { FilePart } from "../data/file-part.js";
import type { UploadInput } from "../service/event/uploads.js";
import type { FileLimits } from "../service/kernel/file-limits.js";
import { fileArgument, type Transport } from "./file-argument.js";

export type UploadArgs = z.output<z.ZodObject<typeof uploadArgs>>;

/** What reading a call's files depends on: the transport it came by and the deployment's limits (read after the key was checked). */
export interface FileContext {
  transport: Transport;
  limits: FileLimits;
}

/** A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** Inline predictions as the CSV file the lanes take; the service parses and checks it like any upload. */
function inlineCsv(records: Record<string, number>): FilePart {
  const lines = ["id,prediction", ...Object.entries(records).map(([id, v]) => `${csvField(id)},${v}`)];
  return { filename: "predictions.csv", bytes: new TextEncoder().encode(`${lines.join("\n")}\n`) };
}

/**
 * The tool's arguments as the service's upload input: the files as given, nothing checked that the
 * service checks. A missing file stays null, for the service to refuse with the spec's text. The
 * declared SHA-256 defaults to the file's own, as a client would declare it.
 */
export function uploadInput(args: UploadArgs, files: FileContext, loc: (string | number)[] = []): UploadInput {
  const predictionSources = [args.predictions_path, args.predictions_base64, args.predictions].filter((a) => a !== undefined);
  if (predictionSources.length > 1) {
    throw refuse(
      "validation_error",
      { message: "predictions: give one of predictions_base64, predictions_path or inline predictions" },
      { extra: { loc: ["arguments", ...loc, "predictions"] } },
    );
  }
  const predictions =
    args.predictions !== undefined
      ? inlineCsv(args.predictions)
      : fileArgument(
          files.transport,
          { path: "predictions_path", base64: "predictions_base64", loc, maxBytes: files.limits.event_predictions, tooLarge: "predictions_file_too_large" },
          { path: args.predictions_path, base64: args.predictions_base64, filename: args.predictions_filename ?? "predictions.csv" },
        );
  const model_pkl = fileArgument(
    files.transport,
    { path: "model_pkl_path", base64: "model_pkl_base64", loc, maxBytes: files.limits.event_model_file, tooLarge: "model_file_too_large" },
    { path: args.model_pkl_path, base64: args.model_pkl_base64, filename: args.model_pkl_filename ?? "model.pkl" },
  );
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
