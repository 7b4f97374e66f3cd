import { createHash } from "node:crypto";
import { serviceId } from "../../domain/ids.js";
import type { ServiceContext } from "../kernel/context.js";
import { encodePredictions } from "./submission-codec.js";
import { insertEntry, lastEntryRowid } from "../../store/submissions.js";

/** A round entry's stored predictions and the sha256 the event log names them by. */
export function storedPredictions(values: Float64Array): { blob: Buffer; sha256: string } {
  const blob = encodePredictions(values);
  return { blob, sha256: createHash("sha256").update(blob).digest("hex") };
}

/**
 * Files a model's first entry for a round (revision 1), by hand (submit v2) or by the auto-submit
 * lane, under the deployment's next submission id; answers that id. Entries are never deleted and
 * each new row takes the next rowid, so the count so far is the last rowid: found at the end of the
 * table's b-tree, not by counting every entry of the season.
 */
export function insertSubmission(
  ctx: ServiceContext,
  entry: { model_id: string; exped: string; t: number; blob: Buffer; source: "manual" | "auto" },
): string {
  const id = serviceId("sub", ctx.world.deployment.seed, "submission", lastEntryRowid(ctx.db) + 1);
  insertEntry(ctx.db, { id, ...entry });
  return id;
}
