import type { ServiceContext } from "../kernel/context.js";
import { roundRun } from "../auto-submit/auto-runs.js";
import { activeLaneModels } from "../models/lane.js";
import { autoSubmitSettings } from "../kernel/settings/auto-submit.js";
import { liveEmptied } from "../kernel/faults.js";
import { validationRun } from "../auto-submit/validation.js";
import { sandboxFit } from "../compute/job-steps.js";
import { momentNow, unmoved } from "../kernel/store-moment.js";
import { runsAhead, type AheadWork } from "../kernel/runs-ahead.js";
import { jobsToFit } from "../../store/jobs.js";
import { openRoundsAwaitingLane } from "../../store/lane-runs.js";
import { unvalidatedModelUploads } from "../../store/model-uploads.js";
import { hasEntry } from "../../store/submissions.js";

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
  return unvalidatedModelUploads(ctx.db).map((row) => validationRun(ctx, row));
}

/**
 * An open round the lane has not run yet: each active model's file, run as the lane step would (one
 * run per file), unless the model already has a submission for the round or the round's live split
 * is emptied (the lane would skip either).
 */
function autoRuns(ctx: ServiceContext): AheadWork<unknown>[] {
  if (ctx.world.deployment.kind !== "tournament") return [];
  // The lane's models first: without one (no validated file), no round is looked at.
  const models = activeLaneModels(ctx);
  if (models.length === 0) return [];
  const runnable = openRoundsAwaitingLane(ctx.db).filter((round) => !liveEmptied(ctx, round.idx));
  if (runnable.length === 0) return [];
  const delay = autoSubmitSettings(ctx).auto_submit_delay_seconds * 1000;
  return runnable.flatMap((round) =>
    models.filter(({ model_id }) => !hasEntry(ctx.db, model_id, round.exped)).map(({ upload }) => roundRun(ctx, round, upload, round.open_at + delay)),
  );
}

function fits(ctx: ServiceContext): AheadWork<unknown>[] {
  return jobsToFit(ctx.db).map((row) => sandboxFit(ctx, row)).filter((w) => w !== null);
}
