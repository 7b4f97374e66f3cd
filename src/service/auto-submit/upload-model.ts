import { createHash } from "node:crypto";
import { refuse } from "../../domain/errors.js";
import { serviceId } from "../../domain/ids.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import { nextInSequence } from "../../store/sequence.js";
import { requireScope, type Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import type { CheckedModelFile } from "../../participant/model-file.js";
import { passed } from "../event/upload-files.js";
import type { FilePart } from "../../data/file-part.js";
import type { UploadPath } from "../event/uploads.js";
import { resolveModel, type ModelRecord } from "../models/models.js";
import { currentModelUpload, modelUploadById, setModelUploadStatus, type ModelUploadRow } from "../../store/model-uploads.js";
import { autoSubmitSettings, requireTournamentLane } from "../kernel/settings/auto-submit.js";
import { uploadView, type ModelUploadView } from "./upload-view.js";
import { insertModelUpload, keepModelFile } from "../../store/model-uploads.js";

/** `upload_model`'s fields, already read off the transport. */
export interface ModelFileInput {
  model_id: string;
  /** Null when the face read no file (the lane is refused first, or `model_pkl_required`). */
  file: FilePart | null;
  /** "major.minor" of the interpreter that saved the pickle; omitted = 3.11. */
  python_version?: string | null;
  /** Lowercase hex SHA-256 the caller declares; checked against the bytes when given. */
  sha256?: string | null;
}

/** Seconds after an upload at which its validation starts (status `validating`). */
const QUEUE_SECONDS = 1;

/**
 * Uploads a model file for the tournament's auto-submit lane. The structural gate runs at once,
 * with the model-file refusals of the event lanes: a .pkl name, the size limit (413 naming it),
 * the SHA-256 when declared, the python version's form and the accepted set (an unsupported
 * declaration is refused here, naming the set), a cloudpickled callable, no torch, no unsafe
 * global. Accepted files answer `pending`; `QUEUE_SECONDS` later they are `validating`, and
 * `validation_seconds` after the upload the sandbox predict's verdict makes them `validated` or
 * `error`. A later upload replaces the model's file at once: the earlier one becomes `replaced`,
 * its validation (if unfinished) cancelled, so the lane waits for the new file to validate.
 *
 * As an event upload, in three steps so that no other call waits while the file is scanned: the
 * lane, scope and model on the serial path; the file's checks on the upload check pool; then the
 * lane, scope and model again (they may have changed meanwhile), the file's verdict, and the insert.
 */
export async function uploadModel(ctx: ServiceContext, path: UploadPath, p: Principal, input: ModelFileInput): Promise<ModelUploadView> {
  await path.serial(() => prelude(ctx, p, input));
  const file = input.file;
  const files = await path.checkFiles(
    {
      model_pkl: file,
      predictions: null,
      model_pkl_sha256: input.sha256 ?? (file ? createHash("sha256").update(file.bytes).digest("hex") : null),
      model_pkl_python_version: input.python_version,
    },
    { model_file: { ...autoSubmitSettings(ctx).model_file, enforce_python_version: true }, predictions: null },
  );
  return path.serial(() => accept(ctx, p, input, passed(files.model_file)));
}

/** The checks before the file's, in their order. */
function prelude(ctx: ServiceContext, p: Principal, input: ModelFileInput): ModelRecord {
  requireTournamentLane(ctx);
  requireScope(p, ["tournament"], "upload_model");
  return resolveModel(ctx, p, input.model_id);
}

function accept(ctx: ServiceContext, p: Principal, input: ModelFileInput, checked: CheckedModelFile): ModelUploadView {
  const model = prelude(ctx, p, input);
  const settings = autoSubmitSettings(ctx);
  // The checks refused a missing file (model_pkl_required).
  const { bytes, filename } = input.file as FilePart;
  return inTransaction(ctx.db, () => {
    const t = ctx.clock.now();
    const previous = currentModelUpload(ctx.db, model.id);
    if (previous && previous.status !== "replaced") {
      setModelUploadStatus(ctx.db, previous.upload_id, "replaced");
      appendEvent(ctx.db, t, "model_upload.replaced", { upload_id: previous.upload_id, model_id: model.id, was: previous.status });
    }
    const seq = nextInSequence(ctx.db, "model_upload");
    const upload_id = serviceId("mup", ctx.world.deployment.seed, "model_upload", seq);
    keepModelFile(ctx.db, checked.sha256, bytes);
    insertModelUpload(ctx.db, {
      upload_id, seq, model_id: model.id, filename, sha256: checked.sha256, python_version: checked.python_version, n_bytes: bytes.length, uploaded_at: t,
      validating_at: t + Math.min(QUEUE_SECONDS, settings.validation_seconds) * 1000, validates_at: t + settings.validation_seconds * 1000,
    });
    appendEvent(ctx.db, t, "model_upload.pending", {
      upload_id, model_id: model.id, agent: p.agent, sha256: checked.sha256, python_version: checked.python_version, n_bytes: bytes.length,
    });
    return uploadView(ctx, modelUploadById(ctx.db, upload_id) as ModelUploadRow, resolveModel(ctx, p, model.id));
  });
}

/** `get_upload_status`: the model's current model file (404 when none was uploaded) and its lane. */
export function getUploadStatus(ctx: ServiceContext, p: Principal, modelRef: string): ModelUploadView {
  requireTournamentLane(ctx);
  requireScope(p, ["tournament"], "get_upload_status");
  const model = resolveModel(ctx, p, modelRef);
  const row = currentModelUpload(ctx.db, model.id);
  if (!row) throw refuse("model_upload_not_found", { name: model.name });
  return uploadView(ctx, row, model);
}
