import type { ServiceContext } from "../kernel/context.js";
import { currentModelUpload, type ModelUploadRow } from "../../store/model-uploads.js";
import { autoSubmitSettings } from "../kernel/settings/auto-submit.js";
import { autoSubmitModelIds } from "../../store/models.js";

/** Whether the auto-submit lane will run a model, and why (not). */
export interface LaneState {
  lane_active: boolean;
  lane_note: string;
}

const EVENT_NOTE = "Events have no auto-submit lane: upload each round's predictions file on the event round lane.";

/**
 * A model's lane: active when its auto-submit switch is on and its current model file has
 * validated. The note names what stands in the way (no file, a file still validating, a failed
 * file and its reason, the switch) or, when active, when the lane runs and that a manual
 * submission wins.
 */
export function laneOf(ctx: ServiceContext, modelId: string, autoSubmit: boolean): LaneState {
  if (ctx.world.deployment.kind !== "tournament") return { lane_active: false, lane_note: EVENT_NOTE };
  const upload = currentModelUpload(ctx.db, modelId);
  const active = autoSubmit && upload?.status === "validated";
  if (active) {
    const delay = autoSubmitSettings(ctx).auto_submit_delay_seconds;
    return {
      lane_active: true,
      lane_note:
        `Active: the lane runs model file ${upload.upload_id} ${delay} s after each round opens and submits its predictions ` +
        "unless you have already submitted for the round; a manual submit v2 always replaces the auto entry while the window is open.",
    };
  }
  const switchNote = autoSubmit ? "" : " Auto-submit is switched off: switch it on with set_auto_submit.";
  return { lane_active: false, lane_note: fileNote(upload) + switchNote };
}

function fileNote(upload: ModelUploadRow | undefined): string {
  if (!upload) return "No model file uploaded: upload one with upload_model (or submit each round with submit v2).";
  switch (upload.status) {
    case "pending":
    case "validating":
      return `Model file ${upload.upload_id} is ${upload.status}: the lane runs it once it has validated.`;
    case "error":
      return `Model file ${upload.upload_id} failed validation: ${upload.error}. Upload a fixed file with upload_model.`;
    default:
      return `Model file ${upload.upload_id} is validated.`;
  }
}

/** Models whose lane is active now, in creation order: those the lane runs for a round. */
export function activeLaneModels(ctx: ServiceContext): { model_id: string; upload: ModelUploadRow }[] {
  const active: { model_id: string; upload: ModelUploadRow }[] = [];
  for (const id of autoSubmitModelIds(ctx.db)) {
    const upload = currentModelUpload(ctx.db, id);
    if (upload?.status === "validated") active.push({ model_id: id, upload });
  }
  return active;
}
