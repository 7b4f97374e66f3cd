import { iso } from "../../domain/clock.js";
import type { ServiceContext } from "../kernel/context.js";
import type { ModelRecord } from "../models/models.js";
import type { ModelUploadRow, ModelUploadStatus } from "../../store/model-uploads.js";
import { lastLaneRunOf } from "../../store/lane-runs.js";

/** The lane's latest outcome for a model in one round. */
export interface LaneRunView {
  exped: string;
  /** `submitted`: an auto entry was filed; `failed`: the run failed (nothing filed); `skipped`: see detail. */
  outcome: "submitted" | "failed" | "skipped";
  detail: string | null;
  submission_id: string | null;
  ran_at: string;
}

/** A model's current model file and lane, as `upload_model` and `get_upload_status` answer. */
export interface ModelUploadView {
  upload_id: string;
  model_id: string;
  model: string;
  status: ModelUploadStatus;
  filename: string;
  sha256: string;
  python_version: string;
  n_bytes: number;
  uploaded_at: string;
  /** When the sandbox predict starts, and when its verdict is due. */
  validating_at: string;
  validates_at: string;
  validated_at: string | null;
  /** Why validation failed (status `error`). */
  error: string | null;
  auto_submit: boolean;
  lane_active: boolean;
  lane_note: string;
  last_auto_run: LaneRunView | null;
}

export function uploadView(ctx: ServiceContext, row: ModelUploadRow, model: ModelRecord): ModelUploadView {
  return {
    upload_id: row.upload_id,
    model_id: model.id,
    model: model.name,
    status: row.status,
    filename: row.filename,
    sha256: row.sha256,
    python_version: row.python_version,
    n_bytes: row.n_bytes,
    uploaded_at: iso(row.uploaded_at),
    validating_at: iso(row.validating_at),
    validates_at: iso(row.validates_at),
    validated_at: row.validated_at === null ? null : iso(row.validated_at),
    error: row.error,
    auto_submit: model.auto_submit,
    lane_active: model.lane_active,
    lane_note: model.lane_note,
    last_auto_run: lastLaneRun(ctx, model.id),
  };
}

function lastLaneRun(ctx: ServiceContext, modelId: string): LaneRunView | null {
  const row = lastLaneRunOf(ctx.db, modelId);
  return row ? { ...row, ran_at: iso(row.ran_at) } : null;
}
