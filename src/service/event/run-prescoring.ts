import type { PreparedExped } from "../../scoring/exped.js";
import type { ServiceContext } from "../kernel/context.js";
import type { RunScores } from "../../scoring/run-scores.js";

/**
 * Keeps the scores an accepted run's file got on the upload check pool, for its finish: scoring a
 * file of half a million ids takes a large part of a second, which every other call would wait out
 * if the finish, on the serial path at its scheduled instant, did it. The scores are a pure
 * function of the file and the lane's expeds, so a finish that uses them logs what scoring the
 * stored file there would have.
 */
export function keepPrescore(ctx: ServiceContext, uploadId: string, truths: readonly PreparedExped[], scores: RunScores): void {
  ctx.state.prescores.set(uploadId, { truths, scores });
}

/**
 * The run's scores kept at its upload, when they were computed against the expeds its finish
 * scores against (`truths`, as the lane gives them now); else null. Either way the entry is dropped.
 */
export function takePrescore(ctx: ServiceContext, uploadId: string, truths: readonly PreparedExped[]): RunScores | null {
  const map = ctx.state.prescores;
  const entry = map.get(uploadId);
  map.delete(uploadId);
  return entry && entry.truths === truths ? entry.scores : null;
}

/** Forgets a run that will not finish (cancelled). */
export function dropPrescore(ctx: ServiceContext, uploadId: string): void {
  ctx.state.prescores.delete(uploadId);
}
