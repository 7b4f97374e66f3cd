import { iso } from "../../domain/clock.js";
import { inTransaction, totalChanges } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "../kernel/context.js";
import { roundsDue, setRoundStatus, type RoundRow } from "../../store/rounds.js";
import { applyRunStep, dueRunSteps, type RunStep } from "../event/runs.js";
import { applyLaneStep, dueLaneSteps, type LaneStep } from "../auto-submit/lane-steps.js";
import { applyJobStep, dueJobSteps, type JobStep } from "../compute/job-steps.js";
import { applyMachineStep, dueMachineSteps, type MachineStep } from "../compute/machine/machine-steps.js";
import { lockWindow } from "../event/staking/lock.js";
import { dueStakeSettlements, settleStakeWindow } from "../event/staking/settle.js";
import { scoreAhead } from "../tournament/settlement/scores-ahead.js";
import { settleRound } from "../tournament/settlement/settlement.js";
import { momentNow, unmoved } from "../kernel/store-moment.js";
import { lockStakes } from "../tournament/staking/stake-settlement.js";
import { publishUniverse } from "../../store/round-universe.js";
import { entryCount } from "../../store/submissions.js";

/** A change of round state that falls due at `t`. */
export interface DueStep {
  t: number;
  kind: "settle" | "close" | "open";
  round: RoundRow;
}

/** Same-instant steps run settle, close, open, then by round: one fixed order, so one log. */
const kindOrder = { settle: 0, close: 1, open: 2 } as const;

/** The round transitions due by `now`, found by status and instant (indexed): no pass over past rounds. */
export function dueSteps(ctx: ServiceContext, now: number): DueStep[] {
  const due: DueStep[] = [];
  for (const r of roundsDue(ctx.db, now)) {
    if (r.status === "scheduled" && r.open_at <= now) due.push({ t: r.open_at, kind: "open", round: r });
    if ((r.status === "scheduled" || r.status === "open") && r.close_at <= now) due.push({ t: r.close_at, kind: "close", round: r });
    if (r.status !== "settled" && r.status !== "unsettled" && r.resolves_at <= now) due.push({ t: r.resolves_at, kind: "settle", round: r });
  }
  return due.sort((a, b) => a.t - b.t || kindOrder[a.kind] - kindOrder[b.kind] || a.round.idx - b.round.idx);
}

/**
 * Brings the service up to the clock: opens, closes (locking its stakes) and settles (paying its
 * tournament stakes) every round whose time has come, moves every event run through scoring,
 * moves tournament model files through validation and runs the auto-submit lane, moves hosted
 * training jobs through their runs, stops hosted machines at their idle stop or limit, and settles
 * event stakes as their results unseal, all in time order (at one instant: rounds, then runs, then
 * lane steps, then jobs, then machines, then event stakes), each
 * logged at its scheduled time rather than when it was noticed, however long a predict run takes.
 *
 * It keeps the instant at which it last found nothing to do, and the store's change count then
 * (ServiceState.quietAt). What falls due depends only on the store and the instant, so until the
 * clock moves or something is written, asking again would find nothing again: the calls of one
 * replay step (or one burst of requests at one instant) ask once. Written rows count even when
 * rolled back, so a change is never missed; only a rollback of writes made before the quiet pass
 * could mislead it, and the one caller holding a transaction that wide (the replay's step) stops
 * the run on a rollback.
 */
export async function advanceRounds(ctx: ServiceContext): Promise<DueStep[]> {
  const at = momentNow(ctx);
  if (unmoved(ctx.state.quietAt, at)) return [];
  const now = at.now;
  // One read transaction for the five lookups: a statement on its own takes and drops the WAL's
  // read lock, and this pass runs before every call (their cost halves, on a served event's main thread).
  // Within a transaction already open (a replay's step) they read under its lock: no savepoint.
  const lookups = () => {
    const rounds = dueSteps(ctx, now);
    const all: Step[] = [...rounds, ...dueRunSteps(ctx, now), ...dueLaneSteps(ctx, now), ...dueJobSteps(ctx, now), ...dueMachineSteps(ctx, now)];
    return { rounds, all: all.sort((a, b) => a.t - b.t || stepRank(a) - stepRank(b)) };
  };
  const { rounds, all } = ctx.db.inTransaction ? lookups() : inTransaction(ctx.db, lookups);
  for (const step of all) {
    settleStakesBefore(ctx, step.t);
    if (isMachineStep(step)) await applyMachineStep(ctx, step);
    else if (isJobStep(step)) await applyJobStep(ctx, step);
    else if (isLaneStep(step)) await applyLaneStep(ctx, step);
    else if (isRunStep(step)) applyRunStep(ctx, step);
    else if (step.kind === "open") openStep(ctx, step);
    else if (step.kind === "close") closeStep(ctx, step);
    else await settleRound(ctx, step.round, step.t);
  }
  settleStakesBefore(ctx, now + 1);
  ctx.state.quietAt = totalChanges(ctx.db) === at.changes ? at : undefined;
  return rounds;
}

/**
 * Settles, in time order, every locked stake window whose results unseal before `t`. Asked afresh
 * before each step: a window locks at its round's close, which may be a step of this same pass.
 */
function settleStakesBefore(ctx: ServiceContext, t: number): void {
  for (const step of dueStakeSettlements(ctx, t - 1)) settleStakeWindow(ctx, step);
}

type Step = DueStep | RunStep | LaneStep | JobStep | MachineStep;

function isMachineStep(s: Step): s is MachineStep {
  return "machine_id" in s;
}

function isJobStep(s: Step): s is JobStep {
  return "job_id" in s;
}

function isRunStep(s: Step): s is RunStep {
  return "upload_id" in s;
}

function isLaneStep(s: Step): s is LaneStep {
  return "lane" in s;
}

function stepRank(s: Step): number {
  return isMachineStep(s) ? 4 : isJobStep(s) ? 3 : isLaneStep(s) ? 2 : isRunStep(s) ? 1 : 0;
}

function openStep(ctx: ServiceContext, { t, round }: DueStep): void {
  const live = ctx.world.dataset.rounds[round.idx - 1];
  inTransaction(ctx.db, () => {
    publishUniverse(ctx.db, round.exped, live.frame.ids);
    setRoundStatus(ctx.db, round.exped, "open");
    appendEvent(ctx.db, t, "round.opened", {
      exped: round.exped,
      index: round.idx,
      universe_size: live.frame.ids.length,
      close_at: iso(round.close_at),
    });
  });
}

function closeStep(ctx: ServiceContext, { t, round }: DueStep): void {
  inTransaction(ctx.db, () => {
    const n = entryCount(ctx.db, round.exped);
    setRoundStatus(ctx.db, round.exped, "closed");
    appendEvent(ctx.db, t, "round.closed", { exped: round.exped, entries: n });
    if (ctx.world.deployment.kind === "event") lockWindow(ctx, round.exped, t);
    else lockStakes(ctx, round, t);
    scoreAhead(ctx, round, n);
  });
}
