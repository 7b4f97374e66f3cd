import type { PreparedExped } from "../../scoring/exped.js";
import type { ServiceContext } from "../kernel/deployment.js";
import type { RunScores } from "./run-scores.js";

interface Prescore {
  /** The lane's expeds the run was scored against. */
  truths: readonly PreparedExped[];
  scores: RunScores;
}

const byContext = new WeakMap<ServiceContext, Map<string, Prescore>>();

function prescores(ctx: ServiceContext): Map<string, Prescore> {
  let map = byContext.get(ctx);
  if (!map) byContext.set(ctx, (map = new Map()));
  return map;
}

/**
 * Keeps the scores an accepted run's file got on the upload check pool, for its finish: scoring a
 * file of half a million ids takes a large part of a second, which every other call would wait out
 * if the finish, on the serial path at its scheduled instant, did it. The scores are a pure
 * function of the file and the lane's expeds, so a finish that uses them logs what scoring the
 * stored file there would have.
 */
export function keepPrescore(ctx: ServiceContext, uploadId: string, truths: readonly PreparedExped[], scores: RunScores): void {
  prescores(ctx).set(uploadId, { truths, scores });
}

/**
 * The run's scores kept at its upload, when they were computed against the expeds its finish
 * scores against (`truths`, as the lane gives them now); else null. Either way the entry is dropped.
 */
export function takePrescore(ctx: ServiceContext, uploadId: string, truths: readonly PreparedExped[]): RunScores | null {
  const map = prescores(ctx);
  const entry = map.get(uploadId);
  map.delete(uploadId);
  return entry && entry.truths === truths ? entry.scores : null;
}

/** Forgets a run that will not finish (cancelled). */
export function dropPrescore(ctx: ServiceContext, uploadId: string): void {
  prescores(ctx).delete(uploadId);
}
