import { iso } from "../../domain/clock.js";
import type { JobRow, JobStatus } from "../../store/jobs.js";
import { requestOf } from "./train-request.js";
import type { CvMetrics } from "./cv-score.js";
import type { ModelParams } from "./model-kinds.js";
import type { TrainFilter } from "./train-filter.js";

/** A job as its owner reads it (launch answer, status, list). */
export interface JobView {
  job_id: string;
  status: JobStatus;
  model: string;
  gpu: string;
  universe: string;
  target: string;
  params: ModelParams;
  max_hours: number;
  /** Present when the job trains on part of the train split. */
  train_filter?: TrainFilter;
  hold_cents: number;
  cost_cents: number | null;
  /** Simulated seconds the job's work takes (a job longer than max_runtime_seconds times out). */
  runtime_seconds: number;
  max_runtime_seconds: number;
  created_at: string;
  running_at: string;
  ends_at: string;
  finished_at: string | null;
  error_message: string | null;
  metrics: { cv: CvMetrics } | null;
  feature_manifest: { features: string[]; preprocessing: Record<string, string> };
  trainer_python_version: string | null;
  artifact: { available: boolean; sha256: string | null; error: string | null };
}

export function jobView(row: JobRow): JobView {
  const req = requestOf(row);
  return {
    job_id: row.job_id,
    status: row.status,
    model: req.model,
    gpu: req.gpu,
    universe: req.universe,
    target: req.target,
    params: req.params,
    max_hours: req.max_hours,
    ...(req.train_filter ? { train_filter: req.train_filter } : {}),
    hold_cents: row.hold_cents,
    cost_cents: row.cost_cents,
    runtime_seconds: row.runtime_seconds,
    max_runtime_seconds: row.max_runtime_seconds,
    created_at: iso(row.created_at),
    running_at: iso(row.running_at),
    ends_at: iso(row.ends_at),
    finished_at: row.finished_at === null ? null : iso(row.finished_at),
    error_message: row.error_message,
    metrics: row.metrics === null ? null : { cv: JSON.parse(row.metrics) as CvMetrics },
    feature_manifest: JSON.parse(row.feature_manifest as string) as JobView["feature_manifest"],
    trainer_python_version: row.trainer_python_version,
    artifact: { available: row.artifact_sha256 !== null, sha256: row.artifact_sha256, error: row.artifact_error },
  };
}
