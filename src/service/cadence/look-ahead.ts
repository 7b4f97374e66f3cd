import type { ServiceContext } from "../kernel/context.js";
import { roundRun } from "../auto-submit/auto-runs.js";
import { activeLaneModels } from "../models/lane.js";
import type { ModelUploadRow } from "../../store/model-uploads.js";
import { autoSubmitSettings } from "../kernel/settings/auto-submit.js";
import { liveEmptied } from "../kernel/faults.js";
import { validationRun } from "../auto-submit/validation.js";
import type { JobRow } from "../../store/jobs.js";
import { sandboxFit } from "../compute/job-steps.js";
import type { RoundRow } from "../../store/rounds.js";
import { momentNow, unmoved } from "../kernel/store-moment.js";
import { runsAhead, type AheadWork } from "../kernel/runs-ahead.js";

/**
 * Plans every participant run whose inputs the store has fixed and whose step has not applied yet:
 * a model file's validation once it is accepted, a round's auto-run for each validated lane file
 * once the round has opened, a queued or running job's sandboxed fit. Cheap reads only, and none
 * while neither the store nor the clock has moved since the last plan (a read-only call, a poll);
 * the runs themselves start off the serial path (RunsAhead). Where the store and the clock stood at
 * the last plan of the set of runs is kept (ServiceState.plannedAt): what is planned depends on nothing else.
 */
export function lookAhead(ctx: ServiceContext): void {
  const ahead = runsAhead(ctx);
  const at = momentNow(ctx);
  const planned = ctx.state.plannedAt;
  if (unmoved(planned?.ahead === ahead ? planned.at : undefined, at)) return;
  ahead.plan([...validations(ctx), ...autoRuns(ctx), ...fits(ctx)]);
  ctx.state.plannedAt = { ahead, at };
}

function validations(ctx: ServiceContext): AheadWork<unknown>[] {
  const rows = ctx.db.prepare("SELECT * FROM model_uploads WHERE status IN ('pending', 'validating')").all() as ModelUploadRow[];
  return rows.map((row) => validationRun(ctx, row));
}

/**
 * An open round the lane has not run yet: each active model's file, run as the lane step would (one
 * run per file), unless the model already has a submission for the round or the round's live split
 * is emptied (the lane would skip either).
 */
function autoRuns(ctx: ServiceContext): AheadWork<unknown>[] {
  if (ctx.world.deployment.kind !== "tournament") return [];
  const rounds = ctx.db
    .prepare("SELECT * FROM rounds WHERE status = 'open' AND exped NOT IN (SELECT exped FROM lane_rounds) ORDER BY idx")
    .all() as RoundRow[];
  const runnable = rounds.filter((round) => !liveEmptied(ctx, round.idx));
  if (runnable.length === 0) return [];
  const delay = autoSubmitSettings(ctx).auto_submit_delay_seconds * 1000;
  const models = activeLaneModels(ctx);
  const filed = ctx.db.prepare("SELECT 1 FROM submissions WHERE model_id = ? AND exped = ?");
  return runnable.flatMap((round) =>
    models.filter(({ model_id }) => !filed.get(model_id, round.exped)).map(({ upload }) => roundRun(ctx, round, upload, round.open_at + delay)),
  );
}

function fits(ctx: ServiceContext): AheadWork<unknown>[] {
  const rows = ctx.db.prepare("SELECT * FROM compute_jobs WHERE status IN ('queued', 'running') AND runtime_seconds <= max_runtime_seconds").all() as JobRow[];
  return rows.map((row) => sandboxFit(ctx, row)).filter((w) => w !== null);
}
