import type { PreparedExped } from "../../scoring/exped.js";
import type { ServiceContext } from "../deployment.js";
import { laneTruth } from "./run-truth.js";
import type { RunScores } from "./run-scores.js";
import type { UploadCheckPool } from "./upload-check-pool.js";
import type { Lane } from "./upload-repo.js";

interface Prescore {
  /** The lane's expeds the run was scored against. */
  truths: readonly PreparedExped[];
  /** null when the pool could not score it (the finish then scores it on the serial path). */
  scores: Promise<RunScores | null>;
}

const byContext = new WeakMap<ServiceContext, Map<string, Prescore>>();

function prescores(ctx: ServiceContext): Map<string, Prescore> {
  let map = byContext.get(ctx);
  if (!map) byContext.set(ctx, (map = new Map()));
  return map;
}

/**
 * Starts scoring a just-accepted run on the upload check pool, so that its finish, which runs on
 * the serial path at its scheduled instant, only writes the result: scoring a file of half a
 * million ids takes a large part of a second, which every other call would otherwise wait out.
 * The result is a pure function of the stored file and the lane's expeds, so a finish that uses it
 * logs what scoring it there would have.
 */
export function prescore(
  ctx: ServiceContext,
  pool: UploadCheckPool,
  run: { upload_id: string; lane: Lane; round_window: string | null },
  ids_json: string,
  values: Uint8Array,
): void {
  const truths = laneTruth(ctx, run.lane, run.round_window);
  const scores = pool.score(ids_json, values, truths).catch(() => null);
  prescores(ctx).set(run.upload_id, { truths, scores });
}

/**
 * The run's scores computed ahead, waited for if still under way, when they were computed against
 * the expeds its finish scores against (`truths`, as the lane gives them now); else null. Either
 * way the run's entry is dropped.
 */
export async function takePrescore(ctx: ServiceContext, uploadId: string, truths: readonly PreparedExped[]): Promise<RunScores | null> {
  const map = prescores(ctx);
  const entry = map.get(uploadId);
  map.delete(uploadId);
  if (!entry || entry.truths !== truths) return null;
  return entry.scores;
}

/** Forgets a run that will not finish (cancelled). */
export function dropPrescore(ctx: ServiceContext, uploadId: string): void {
  prescores(ctx).delete(uploadId);
}
