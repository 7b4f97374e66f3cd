import type { Deployment } from "../../contract/deployment.js";
import type { Clock } from "../../domain/clock.js";
import {
  eventSchedule,
  phaseAt,
  tournamentSchedule,
  type CadenceState,
  type Schedule,
} from "../../domain/cadence.js";
import { concatFrames } from "../../domain/frame.js";
import { checkGeneratedDataset, datasetFor, generatedDataset } from "../../data/dataset-source.js";
import type { DatasetRead } from "../../data/dataset-dir.js";
import type { Dataset, LiveRound } from "../../data/generate.js";

export type { Deployment, EventSettings, Scope } from "../../contract/deployment.js";

/** The deployment's fixed world: its dataset (generated from the seed, or read from a directory) and its schedule. */
export interface World {
  deployment: Deployment;
  dataset: Dataset;
  schedule: Schedule;
}

/** The world of a deployment whose dataset is generated (a dataset directory needs `loadWorld`). */
export function buildWorld(deployment: Deployment): World {
  return worldOf(deployment, generatedDataset(deployment.dataset, deployment.seed, expedsNeeded(deployment)));
}

/** Any deployment's world: its dataset read from its directory (as `read` says), or generated. */
export async function loadWorld(deployment: Deployment, read: DatasetRead = {}): Promise<World> {
  return worldOf(deployment, await datasetFor(deployment.dataset, deployment.seed, expedsNeeded(deployment), read));
}

/** Refuses a deployment whose generated dataset could not be drawn (checkGeneratedDataset), before any work: a world's size checked before it is built. */
export function checkWorldSize(deployment: Deployment): void {
  checkGeneratedDataset(deployment.dataset, expedsNeeded(deployment));
}

/** How many live expeds the deployment's rounds take. */
function expedsNeeded(deployment: Deployment): number {
  if (deployment.kind !== "event") return requireSetting(deployment.calendar, "calendar").n_rounds;
  const event = requireSetting(deployment.event, "event");
  return event.n_rounds * event.expeds_per_round;
}

function worldOf(deployment: Deployment, dataset: Dataset): World {
  if (deployment.kind === "event") {
    const event = requireSetting(deployment.event, "event");
    const k = event.expeds_per_round;
    const rounds = Array.from({ length: event.n_rounds }, (_, r) => eraRound(dataset.rounds.slice(r * k, (r + 1) * k)));
    return { deployment, dataset: { ...dataset, rounds }, schedule: eventSchedule(event) };
  }
  const calendar = requireSetting(deployment.calendar, "calendar");
  const schedule = tournamentSchedule(calendar, (i) => dataset.rounds[i - 1].exped);
  return { deployment, dataset, schedule };
}

function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`the deployment has no ${name} settings`);
  return value;
}

/**
 * One event round's live split from consecutive generated expeds, relabelled `era_001…`: event
 * rounds restart the numbering, so data kept across rounds is keyed on (round, era).
 */
function eraRound(parts: LiveRound[]): LiveRound {
  const relabel = (i: number) => `era_${String(i + 1).padStart(3, "0")}`;
  const frame = concatFrames(parts.map((p, i) => ({ ...p.frame, exped: p.frame.exped.map(() => relabel(i)) })));
  const benchmark = concatFrames(parts.map((p, i) => ({ ...p.benchmark, exped: p.benchmark.exped.map(() => relabel(i)) })));
  const target = new Float64Array(frame.ids.length);
  let at = 0;
  for (const p of parts) {
    target.set(p.target, at);
    at += p.target.length;
  }
  return { exped: relabel(0), frame, target, benchmark };
}

/** The deployment's settings for the agent named `name` (undefined for a name it does not list). */
export function deploymentAgent(ctx: { world: World }, name: string): Deployment["agents"][number] | undefined {
  return ctx.world.deployment.agents.find((a) => a.name === name);
}

export function cadenceNow(ctx: { world: World; clock: Clock }): CadenceState {
  return phaseAt(ctx.world.schedule, ctx.clock.now());
}
