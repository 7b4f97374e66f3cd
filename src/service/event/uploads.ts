import { refuse } from "../../domain/errors.js";
import { serviceId } from "../../domain/ids.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import { nextInSequence } from "../../store/sequence.js";
import { requireScope, type Principal } from "../kernel/auth.js";
import { cadenceNow, type EventSettings } from "../kernel/deployment.js";
import type { ServiceContext } from "../kernel/context.js";
import { resolveModel } from "../models/models.js";
import { requireEventOpen } from "../kernel/event-gate.js";
import { diagnosticsMaintenance } from "../kernel/faults.js";
import { countedUploads, uploadsRemaining } from "./pool.js";
import { runView, type RunView } from "./run-view.js";
import type { PreparedExped } from "../../scoring/exped.js";
import { keepPrescore } from "./run-prescoring.js";
import { laneTruth } from "./run-truth.js";
import { checkUploadFiles, passed, type CheckedFiles, type FileRules, type UploadFiles } from "./upload-files.js";
import { predictionsLimits } from "../kernel/settings/upload-limits.js";
import { filedWithDigest, runInFlight, uploadByIdempotencyKey, type Lane, type RunRow, insertUpload, runById } from "../../store/uploads.js";
import { insertPredictions, linkStage } from "../../store/upload-predictions.js";
import { dropStaged, stagePredictions } from "./predictions-staging.js";
import { keepModelFile } from "../../store/model-uploads.js";

/** One upload on either lane: the multipart fields, already read off the transport. */
export interface UploadInput extends UploadFiles {
  model_id: string;
  /** Makes a retried upload (a resumed batch) answer with the first one instead of spending twice. */
  idempotency_key?: string | null;
}

/** Seconds after acceptance at which a run moves from `accepted` to `scoring`. */
const QUEUE_SECONDS = 1;

export function eventSettings(ctx: ServiceContext): EventSettings {
  const event = ctx.world.deployment.event;
  if (!event) throw refuse("not_found", { what: "this deployment runs no event" });
  return event;
}

/**
 * How an upload reaches the store: `serial` runs a step on the service's serial path (after the
 * rounds are brought up to the clock), `checkFiles` reads the files off it.
 */
export interface UploadPath {
  serial<T>(fn: () => T): Promise<T>;
  checkFiles(files: UploadFiles, rules: FileRules): Promise<CheckedFiles>;
}

/**
 * An upload on the event round lane (`round`: cadence-fenced, draws on the pool) or the practice
 * board (`practice`: never fenced, free). Checks run in this order: the event's phase, scope, the
 * practice board's maintenance, the model file, the model, the predictions file; then a retried idempotency key answers with its
 * first outcome; then dedup by content, a run already scoring another file, and the pool. A
 * refusal writes and charges nothing. Accepted runs are scored `scoring_seconds` later.
 *
 * Three steps, so that no other call waits while the files are read: the checks that need no
 * file (and a replayed idempotency key's answer) on the serial path; the files read off it; then,
 * on the serial path again, every check once more in the order above (the phase may have moved
 * meanwhile) with the files' findings, and the insert. A large predictions file is written in
 * parts between the second and third (src/service/event/predictions-staging.ts), and the insert
 * links them; an upload refused or replayed then has them removed.
 */
export async function upload(ctx: ServiceContext, path: UploadPath, p: Principal, lane: Lane, input: UploadInput): Promise<RunView> {
  const first = await path.serial(() => ({ replay: prelude(ctx, p, lane, input), truths: expedsNow(ctx, lane) }));
  if (first.replay) return first.replay;
  const files = await path.checkFiles(input, { ...fileRules(eventSettings(ctx)), score_against: first.truths });
  const staged = files.predictions?.ok ? await stagePredictions(ctx.db, path.serial, files.predictions.value) : null;
  let run: RunView;
  try {
    run = await path.serial(() => {
      const run = accept(ctx, p, lane, input, files, staged?.stage ?? null);
      const scores = files.predictions?.ok ? files.predictions.value.scores : null;
      if (!run.idempotent_replay && first.truths && scores) keepPrescore(ctx, run.upload_id, first.truths, scores);
      return run;
    });
  } catch (e) {
    if (staged) await dropStaged(ctx.db, path.serial, staged);
    throw e;
  }
  if (staged && run.idempotent_replay) await dropStaged(ctx.db, path.serial, staged);
  return run;
}

/** The expeds a run on `lane` accepted now is scored against; null on the round lane outside a round. */
function expedsNow(ctx: ServiceContext, lane: Lane): readonly PreparedExped[] | null {
  if (lane === "practice") return laneTruth(ctx, "practice", null);
  const window = cadenceNow(ctx).open_window;
  return window === null ? null : laneTruth(ctx, "round", window);
}

/** The same upload in one go on this thread, files and all: for a caller that holds the store alone. */
export function uploadInline(ctx: ServiceContext, p: Principal, lane: Lane, input: UploadInput): RunView {
  return prelude(ctx, p, lane, input) ?? accept(ctx, p, lane, input, checkUploadFiles(input, fileRules(eventSettings(ctx))), null);
}

export function fileRules(event: EventSettings): FileRules {
  return { model_file: event.model_file, predictions: predictionsLimits(event) };
}

/** The checks before the files, in their order; a replayed idempotency key's first answer, else null. */
function prelude(ctx: ServiceContext, p: Principal, lane: Lane, input: UploadInput): RunView | null {
  eventSettings(ctx);
  requireEventOpen(ctx, lane === "round");
  requireScope(p, lane === "round" ? ["event"] : ["event", "practice"], lane === "round" ? "the event round lane" : "the practice board");
  if (lane === "practice" && diagnosticsMaintenance(ctx)) throw refuse("diagnostics_maintenance");
  if (input.idempotency_key) {
    const earlier = uploadByIdempotencyKey(ctx.db, p.agent_id, input.idempotency_key);
    if (earlier) return { ...runView(ctx, earlier), idempotent_replay: true };
  }
  return null;
}

/** The last checks and the insert; `staged`: the stage holding the predictions' parts, else they are written here. */
function accept(ctx: ServiceContext, p: Principal, lane: Lane, input: UploadInput, files: CheckedFiles, staged: number | null): RunView {
  const replay = prelude(ctx, p, lane, input);
  if (replay) return replay;
  const event = eventSettings(ctx);
  const modelFile = passed(files.model_file);
  const model = resolveModel(ctx, p, input.model_id);
  if (!files.predictions) {
    throw refuse("validation_error", { message: "predictions: a predictions file part is required" }, { extra: { loc: ["body", "predictions"] } });
  }
  const predictions = passed(files.predictions);
  const { digest } = predictions;

  const filed = filedWithDigest(ctx.db, digest);
  if (filed) {
    if (filed.agent_id === p.agent_id) throw refuse("predictions_filed_by_you", { name: filed.model });
    throw refuse("predictions_already_filed");
  }
  const inFlight = runInFlight(ctx.db, model.id, lane);
  if (inFlight && inFlight.digest !== digest) throw refuse("run_scoring_different_file");
  if (lane === "round" && event.upload_pool !== null && countedUploads(ctx, p.agent_id) >= event.upload_pool) {
    throw refuse("upload_limit_reached", { limit: event.upload_pool }, { extra: { uploads_remaining: 0 } });
  }

  return inTransaction(ctx.db, () => {
    const t = ctx.clock.now();
    const seq = nextInSequence(ctx.db, "upload");
    const upload_id = serviceId("upl", ctx.world.deployment.seed, "upload", seq);
    const round_window = lane === "round" ? cadenceNow(ctx).open_window : null;
    keepModelFile(ctx.db, modelFile.sha256, input.model_pkl?.bytes);
    insertUpload(ctx.db, {
      upload_id, seq, agent_id: p.agent_id, model_id: model.id, lane, round_window, accepted_at: t,
      scoring_at: t + Math.min(QUEUE_SECONDS, event.scoring_seconds) * 1000, finishes_at: t + event.scoring_seconds * 1000,
      digest, n_rows: predictions.n_rows, model_pkl_sha256: modelFile.sha256, python_version: modelFile.python_version, idempotency_key: input.idempotency_key ?? null,
    });
    if (staged === null) insertPredictions(ctx.db, upload_id, blob(predictions.ids_json), blob(predictions.values));
    else linkStage(ctx.db, upload_id, staged);
    appendEvent(ctx.db, t, "upload.accepted", {
      upload_id, lane, round_window, model_id: model.id, agent: p.agent, digest, n_rows: predictions.n_rows,
      model_pkl_sha256: modelFile.sha256, uploads_remaining: uploadsRemaining(ctx, p.agent_id),
    });
    return runView(ctx, runById(ctx.db, upload_id) as RunRow);
  });
}

/** Bytes that crossed a thread boundary arrive as a plain Uint8Array; the store binds a Buffer as a BLOB. */
function blob(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
