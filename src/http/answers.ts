import type { Context } from "hono";
import { fillPath } from "../contract/args.js";
import { BENCHMARK_SUFFIX } from "../contract/data.js";
import { operations } from "../contract/index.js";
import type { Frame } from "../domain/frame.js";
import { writeFrameParquet } from "../data/parquet.js";
import type { BatchResult } from "../service/event/batch.js";
import type { Service } from "../service/service.js";
import type { Route } from "./route.js";

/** How a route answers with what its operation returned, where that is not JSON with the route's status. */
type Answer = (c: Context, answer: any, args: unknown[], service: Service) => Response;

const PARQUET = "application/vnd.apache.parquet";

function parquet(frame: Frame, filename: string): Response {
  // parquet-wasm hands back a plain ArrayBuffer-backed array.
  return new Response(writeFrameParquet(frame) as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": PARQUET, "content-disposition": `attachment; filename="${filename}"` },
  });
}

/** A batch: 202 when every item succeeded, else 207; a fenced item's wait as `Retry-After`. */
const batch: Answer = (c, result: BatchResult) => {
  const retry: Record<string, string> = result.retry_after_seconds === null ? {} : { "Retry-After": String(result.retry_after_seconds) };
  return c.json(result, result.all_succeeded ? 202 : 207, retry);
};

const modelFileRoute = operations.downloadModel.rest[1];

/** The answers that are files, or whose status and headers depend on the result, by the route's `operationId`. */
const answers: Record<string, Answer> = {
  download_benchmark: (_c, frame, [split], service) => parquet(frame, `${service.ctx.world.dataset.spec.prefix}_${split}${BENCHMARK_SUFFIX}.parquet`),
  download_dataset: (_c, frame, [split], service) => parquet(frame, `${service.ctx.world.dataset.spec.prefix}_${split}.parquet`),
  get_model_download_url: (c, model, [jobId]) => {
    const download_url = `${new URL(c.req.url).origin}${fillPath(modelFileRoute, { job_id: jobId as string })}`;
    return c.json({ download_url, filename: model.filename, sha256: model.sha256 });
  },
  download_model: (_c, model) =>
    new Response(model.bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${model.filename}"`,
        "x-model-sha256": model.sha256,
      },
    }),
  read_machine_file: (_c, file) =>
    new Response(file.bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": "application/octet-stream", "content-length": String(file.size) },
    }),
  submit_event_predictions_batch: batch,
  submit_diagnostics_batch: batch,
};

/** The route's answer: its own where it has one, else JSON with the route's status. */
export function answer(r: Route, c: Context, result: unknown, args: unknown[], service: Service): Response {
  const own = answers[r.operationId];
  if (own) return own(c, result, args, service);
  const status = typeof r.status === "function" ? r.status(result) : (r.status ?? 200);
  return c.json(result, status as 200);
}
