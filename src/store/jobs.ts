import type { Db } from "./db.js";
import { mayHoldRows, rowsInserted } from "./lifecycle-tables.js";

export type JobStatus = "queued" | "running" | "completed" | "failed" | "timeout" | "cancelled";
export const OPEN_STATUSES: JobStatus[] = ["queued", "running"];

export interface JobRow {
  job_id: string;
  seq: number;
  agent_id: string;
  /** The resolved TrainRequest, as JSON. */
  request: string;
  status: JobStatus;
  hold_cents: number;
  cost_cents: number | null;
  runtime_seconds: number;
  max_runtime_seconds: number;
  created_at: number;
  running_at: number;
  ends_at: number;
  finished_at: number | null;
  metrics: string | null;
  /** The CV folds' results (cv-score.ts FoldResult[]), as JSON; null until the job completes. */
  fold_results: string | null;
  feature_manifest: string | null;
  error_message: string | null;
  artifact_sha256: string | null;
  artifact_error: string | null;
  trainer_python_version: string | null;
}

export function jobById(db: Db, jobId: string): JobRow | undefined {
  return db.prepare("SELECT * FROM compute_jobs WHERE job_id = ?").get(jobId) as JobRow | undefined;
}

export function jobsOf(db: Db, agentId: string): JobRow[] {
  return db.prepare("SELECT * FROM compute_jobs WHERE agent_id = ? ORDER BY seq").all(agentId) as JobRow[];
}

/** An agent's compute money in cents: held by queued and running jobs, and charged by ended ones. */
export function agentCents(db: Db, agentId: string): { reserved: number; spent: number } {
  const r = db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN status IN ('queued', 'running') THEN hold_cents ELSE 0 END), 0) AS reserved,
              COALESCE(SUM(COALESCE(cost_cents, 0)), 0) AS spent
       FROM compute_jobs WHERE agent_id = ?`,
    )
    .get(agentId) as { reserved: number; spent: number };
  return r;
}

/** Ends a job: its status, charge and end time (its hold is released by leaving queued/running). */
export function endJob(db: Db, jobId: string, status: JobStatus, costCents: number, t: number, fields: Partial<JobRow> = {}): void {
  const extra = Object.keys(fields);
  const sets = ["status = ?", "cost_cents = ?", "finished_at = ?", ...extra.map((k) => `${k} = ?`)].join(", ");
  db.prepare(`UPDATE compute_jobs SET ${sets} WHERE job_id = ?`).run(status, costCents, t, ...extra.map((k) => fields[k as keyof JobRow]), jobId);
}

/** Jobs still queued or running within their time limit: those a sandboxed fit may go ahead for. */
export function jobsToFit(db: Db): JobRow[] {
  if (!mayHoldRows(db, "compute_jobs")) return [];
  return db.prepare("SELECT * FROM compute_jobs WHERE status IN ('queued', 'running') AND runtime_seconds <= max_runtime_seconds").all() as JobRow[];
}

/** Queues a job. */
export function insertJob(
  db: Db,
  j: Pick<JobRow, "job_id" | "seq" | "agent_id" | "request" | "hold_cents" | "runtime_seconds" | "max_runtime_seconds" | "created_at" | "running_at" | "ends_at" | "feature_manifest">,
): void {
  rowsInserted(db, "compute_jobs");
  db.prepare(
    `INSERT INTO compute_jobs (job_id, seq, agent_id, request, status, hold_cents, runtime_seconds, max_runtime_seconds,
           created_at, running_at, ends_at, feature_manifest) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    j.job_id, j.seq, j.agent_id, j.request, j.hold_cents, j.runtime_seconds, j.max_runtime_seconds, j.created_at, j.running_at, j.ends_at,
    j.feature_manifest,
  );
}

export function markJobRunning(db: Db, jobId: string): void {
  db.prepare("UPDATE compute_jobs SET status = 'running' WHERE job_id = ?").run(jobId);
}
