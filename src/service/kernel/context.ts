import type { Clock } from "../../domain/clock.js";
import type { Isolation } from "../../participant/isolation.js";
import type { ExpedTerms, PreparedExped } from "../../scoring/exped.js";
import type { RunScores } from "../../scoring/run-scores.js";
import type { Db } from "../../store/db.js";
import type { RoundEntry } from "../../store/submissions.js";
import type { World } from "./deployment.js";
import type { RunsAhead } from "./runs-ahead.js";
import type { Moment } from "./store-moment.js";

/** Everything an operation runs against: the store, the time, the world, and what the service holds beside its store. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  world: World;
  /** How the lanes run uploaded model files; unset: sandboxed when this machine can, else trusted (localIsolation). */
  modelIsolation?: Isolation;
  state: ServiceState;
}

/**
 * What one service holds in memory beside its store: caches of what the store already says, and
 * work under way off the serial path. None of it is ever logged; a service made afresh on the same
 * store (a resumed run) starts with it empty and finds the same answers.
 */
export interface ServiceState {
  /** Keys found in the store and their digests, so a known key is hashed once (kernel/auth.ts). */
  knownDigests: Map<string, string>;
  /** Where the clock and the store stood when an advance last found nothing due (cadence/cadence-steps.ts). */
  quietAt: Moment | undefined;
  /** The participants' runs going ahead of their steps; none until planned, and none once stopped (kernel/runs-ahead.ts). */
  runsAhead: RunsAhead | undefined;
  /** Where the clock and the store stood at the last plan of `runsAhead` (cadence/look-ahead.ts). */
  plannedAt: { ahead: RunsAhead; at: Moment } | undefined;
  /** Closed rounds being scored on a worker thread, by exped, until they settle (tournament/settlement/scores-ahead.ts). */
  scoredAhead: Map<string, ScoredAhead>;
  /** Scores an accepted event run's file got on the upload check pool, by upload id, until its finish (event/run-prescoring.ts). */
  prescores: Map<string, Prescore>;
  /** Running hosted machines' host directories, by machine id (compute/machine/workspace.ts). */
  workspaces: Map<string, Workspace>;
}

/** A closed round's terms, being scored on a worker thread, and what they were scored on. */
export interface ScoredAhead {
  benchmark: Float64Array;
  entries: RoundEntry[];
  /** null when the scoring failed: settlement then scores as usual (and meets the failure itself). */
  terms: Promise<ExpedTerms[] | null>;
}

/** An event run's scores from the upload check pool, and the lane's expeds they were scored against. */
export interface Prescore {
  truths: readonly PreparedExped[];
  scores: RunScores;
}

/** A running machine's host directories: `dir` holds the runner, `scratch` is the workspace its commands see. */
export interface Workspace {
  dir: string;
  scratch: string;
  runner: string;
  /** Aborted when the workspace is discarded: the commands running in it (runShell's `abort`) are killed at once. */
  discarded: AbortController;
}

/** The one place a service's context is made: its state starts empty. */
export function serviceContext(base: { db: Db; clock: Clock; world: World; modelIsolation?: Isolation }): ServiceContext {
  return {
    ...base,
    state: {
      knownDigests: new Map(),
      quietAt: undefined,
      runsAhead: undefined,
      plannedAt: undefined,
      scoredAhead: new Map(),
      prescores: new Map(),
      workspaces: new Map(),
    },
  };
}
