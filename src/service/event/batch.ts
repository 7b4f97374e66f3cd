import { MAX_BATCH_ITEMS } from "../../contract/event.js";
import { refuse, ServiceError } from "../../domain/errors.js";
import type { Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { uploadsRemaining } from "./pool.js";
import type { RunView } from "./run-view.js";
import type { Lane } from "../../store/uploads.js";
import { upload, type UploadInput, type UploadPath } from "./uploads.js";

/**
 * A batch item, or how to read it: a face may have each item's files read only when its turn
 * comes, so that a batch of large files is held one item at a time.
 */
export type BatchItem = UploadInput | (() => Promise<UploadInput>);

export interface BatchItemOutcome {
  index: number;
  idempotency_key: string | null;
  /** `accepted`, `replayed` (an idempotency key answered with its earlier upload) or `refused`. */
  outcome: "accepted" | "replayed" | "refused";
  run: RunView | null;
  /** A refusal; a cadence fence's carries `retry_after_seconds`, as the single upload's 409 does. */
  error: { status: number; code: string; message: string; retry_after_seconds?: number } | null;
}

export interface BatchResult {
  all_succeeded: boolean;
  items: BatchItemOutcome[];
  uploads_remaining: number | null;
  /** The longest wait a fenced item was told (the HTTP face's `Retry-After`); null when none was fenced. */
  retry_after_seconds: number | null;
}

/**
 * A batch of 1 to 25 uploads on one lane, each with its own outcome. Items with an idempotency key
 * that was already used answer with their first upload, so a resumed batch spends nothing twice.
 * The items go one after the other, each as a single upload does (its files read off the serial
 * path), so other callers' calls run between them.
 */
export async function uploadBatch(ctx: ServiceContext, path: UploadPath, p: Principal, lane: Lane, items: BatchItem[]): Promise<BatchResult> {
  if (items.length === 0) throw refuse("batch_empty");
  if (items.length > MAX_BATCH_ITEMS) throw refuse("batch_too_large", { n: items.length });
  const outcomes: BatchItemOutcome[] = [];
  for (const [index, entry] of items.entries()) {
    const item = typeof entry === "function" ? await entry() : entry;
    const idempotency_key = item.idempotency_key ?? null;
    try {
      const run = await upload(ctx, path, p, lane, item);
      outcomes.push({ index, idempotency_key, outcome: run.idempotent_replay ? "replayed" : "accepted", run, error: null });
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      const wait = e.extra.retry_after_seconds;
      const retry = typeof wait === "number" ? { retry_after_seconds: wait } : {};
      outcomes.push({ index, idempotency_key, outcome: "refused", run: null, error: { status: e.status, code: e.code, message: e.message, ...retry } });
    }
  }
  const waits = outcomes.flatMap((o) => (o.error?.retry_after_seconds === undefined ? [] : [o.error.retry_after_seconds]));
  return {
    all_succeeded: outcomes.every((o) => o.outcome !== "refused"),
    items: outcomes,
    uploads_remaining: await path.serial(() => uploadsRemaining(ctx, p.agent_id)),
    retry_after_seconds: waits.length > 0 ? Math.max(...waits) : null,
  };
}
