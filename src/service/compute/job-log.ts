import { iso } from "../../domain/clock.js";
import type { FoldResult } from "./cv-score.js";
import { CV_FOLDS, SETUP_SECONDS } from "./estimate.js";
import { type JobRow } from "../../store/jobs.js";
import { requestOf } from "./train-request.js";

/** One line of a job's lifecycle trail, at its simulated time. */
export type JobLogEntry =
  | { at: string; event: "queued"; model: string; gpu: string; hold_cents: number; runtime_seconds: number; max_runtime_seconds: number }
  | { at: string; event: "running" }
  | ({ at: string; event: "fold" } & FoldResult)
  | { at: string; event: "completed" | "failed" | "timeout" | "cancelled"; cost_cents: number | null; error_message: string | null };

export interface JobLog {
  job_id: string;
  status: JobRow["status"];
  entries: JobLogEntry[];
}

/**
 * A job's lifecycle trail (`get_job_log`), read from its row: queued, running once it ran, each
 * CV fold's result, and how it ended. A job's work is done when its simulated runtime is over, so
 * its fold lines appear once it has completed, each at the simulated instant its fold's fit ended
 * (setup, then the CV fits and the final fit in equal shares of the runtime).
 */
export function jobLog(row: JobRow): JobLog {
  const req = requestOf(row);
  const entries: JobLogEntry[] = [
    { at: iso(row.created_at), event: "queued", model: req.model, gpu: req.gpu, hold_cents: row.hold_cents, runtime_seconds: row.runtime_seconds, max_runtime_seconds: row.max_runtime_seconds },
  ];
  const ran = row.status !== "queued" && !(row.status === "cancelled" && (row.finished_at as number) < row.running_at);
  if (ran) entries.push({ at: iso(row.running_at), event: "running" });
  const folds = row.fold_results === null ? [] : (JSON.parse(row.fold_results) as FoldResult[]);
  const fitSeconds = Math.max(0, row.runtime_seconds - SETUP_SECONDS) / (CV_FOLDS + 1);
  folds.forEach((fold, k) => {
    const at = row.running_at + (SETUP_SECONDS + Math.ceil((k + 1) * fitSeconds)) * 1000;
    entries.push({ at: iso(at), event: "fold", ...fold });
  });
  if (row.finished_at !== null && row.status !== "queued" && row.status !== "running") {
    entries.push({ at: iso(row.finished_at), event: row.status, cost_cents: row.cost_cents, error_message: row.error_message });
  }
  return { job_id: row.job_id, status: row.status, entries };
}
