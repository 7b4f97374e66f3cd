import { requestOf } from "../contract/args.js";
import { BENCHMARK_SUFFIX } from "../contract/data.js";
import { operations } from "../contract/index.js";
import type { Lane } from "../contract/operation.js";
import type { Frame } from "../domain/frame.js";
import { deliverModelFile, deliverParquet } from "./downloads.js";
import { fileArgument } from "./file-argument.js";
import type { ToolContext } from "./tool-context.js";
import { uploadInput, type UploadArgs } from "./upload-input.js";

/**
 * What is this face's own in the tools that carry files: reading file arguments (contents, or over
 * stdio a local path) and handing downloads over (a local file over stdio, a URL over HTTP).
 */

/** The key is checked before any file argument is read; the deployment's limits bound what is read. */
const files = async ({ service, key, transport }: ToolContext) => ({ transport, limits: await service.fileLimits(key) });

const upload = async (input: Record<string, unknown>, context: ToolContext) => [uploadInput(input as UploadArgs, await files(context))];

const batch = (lane: Lane) => async (input: Record<string, unknown>, context: ToolContext) => {
  const limits = await files(context);
  return [lane, (input.items as UploadArgs[]).map((item, i) => uploadInput(item, limits, ["items", i]))];
};

/** The operation's arguments from a tool's that carry files, by the tool's name. */
export const fileArguments: Record<string, (input: Record<string, unknown>, context: ToolContext) => Promise<unknown[]>> = {
  submit_event_predictions: upload,
  submit_validation_diagnostics: upload,
  submit_event_predictions_batch: batch("round"),
  submit_diagnostics_batch: batch("practice"),
  upload_model: async (input, context) => {
    const { limits } = await files(context);
    const { model_id, content_base64, filename, path, python_version, sha256 } = input as Record<string, string | undefined>;
    const file = fileArgument(
      context.transport,
      { path: "path", base64: "content_base64", loc: [], maxBytes: limits.auto_submit_model_file, tooLarge: "model_file_too_large" },
      { path, base64: content_base64, filename: filename ?? "model.pkl" },
    );
    return [{ model_id, file, python_version: python_version ?? null, sha256: sha256 ?? null }];
  },
};

const parquet = (name: "downloadBenchmark" | "downloadDataset", suffix: string) => (frame: Frame, [split]: unknown[], context: ToolContext) =>
  deliverParquet(
    context.downloads,
    frame,
    `${context.service.ctx.world.dataset.spec.prefix}_${split}${suffix}.parquet`,
    requestOf(operations[name].rest[0], [split]).path,
  );

/** A download tool's answer: the file handed over, by the tool's name. */
export const fileAnswers: Record<string, (result: any, args: unknown[], context: ToolContext) => unknown> = {
  download_benchmark: parquet("downloadBenchmark", BENCHMARK_SUFFIX),
  download_dataset: parquet("downloadDataset", ""),
  download_model: (model, [jobId], context) => deliverModelFile(context.downloads, jobId as string, model),
};
