import { iso } from "../../domain/clock.js";
import type { ServiceContext } from "../kernel/context.js";
import { uploadsRemaining } from "./pool.js";
import { isSealed, unsealsAt } from "./sealing.js";
import type { Lane, RunRow, RunStatus } from "../../store/uploads.js";
import { modelName } from "../../store/models.js";

/** An upload's run as every face shows it (upload response, run status, batch item). */
export interface RunView {
  upload_id: string;
  lane: Lane;
  model_id: string;
  model: string;
  status: RunStatus;
  round_window: string | null;
  accepted_at: string;
  finishes_at: string;
  n_rows: number;
  uploads_remaining: number | null;
  n_matched: number | null;
  /** null until finalised, and while the round's results are sealed. */
  scores: { corr: number; aimc: number | null; ncorr: number; score: number | null } | null;
  /** Round-lane results stay sealed until the next round opens. */
  sealed_until: string | null;
  error: { code: string; message: string } | null;
  /** True when an idempotency key answered with this earlier upload. */
  idempotent_replay?: boolean;
}

export function runView(ctx: ServiceContext, row: RunRow): RunView {
  const model = modelName(ctx.db, row.model_id);
  const sealed = row.lane === "round" && isSealed(ctx, row.round_window);
  const scored = row.status === "finalised" && row.corr !== null && row.ncorr !== null;
  return {
    upload_id: row.upload_id,
    lane: row.lane,
    model_id: row.model_id,
    model,
    status: row.status,
    round_window: row.round_window,
    accepted_at: iso(row.accepted_at),
    finishes_at: iso(row.finishes_at),
    n_rows: row.n_rows,
    uploads_remaining: uploadsRemaining(ctx, row.agent_id),
    n_matched: row.n_matched,
    scores: scored && !sealed ? { corr: row.corr as number, aimc: row.aimc, ncorr: row.ncorr as number, score: row.score } : null,
    sealed_until: sealed && row.round_window ? iso(unsealsAt(ctx, row.round_window)) : null,
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? "" } : null,
  };
}
