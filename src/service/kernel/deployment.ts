import type { Clock } from "../../domain/clock.js";
import {
  eventSchedule,
  phaseAt,
  tournamentSchedule,
  type CadenceState,
  type EventPlan,
  type Schedule,
  type TournamentCalendar,
} from "../../domain/cadence.js";
import { concatFrames } from "../../data/frame.js";
import { datasetFor, generatedDataset, type DatasetSettings } from "../../data/dataset-source.js";
import type { Dataset, LiveRound } from "../../data/generate.js";
import type { Aggregate } from "../../scoring/standings.js";
import type { Faults } from "./faults.js";
import type { AutoSubmitSettings } from "./settings/auto-submit.js";
import type { ComputeSettings } from "./settings/compute.js";
import type { StakingSettings, WalletSettings } from "./settings/staking.js";

export type Scope = "tournament" | "event" | "practice" | "llm";

/** An event's plan and its live limits. */
export interface EventSettings extends EventPlan {
  expeds_per_round: number;
  /** Round-lane uploads per agent for the whole event; null = uncapped. */
  upload_pool: number | null;
  scoring_seconds: number;
  /** Concurrent multipart intakes per lane (503 beyond), of which one agent holds at most `intake_per_agent`. */
  intake_concurrency: number;
  intake_per_agent: number;
  /** The pace an upload's body must keep: `intake_min_bytes_per_second` (and at least a byte) over every `intake_stall_seconds`. */
  intake_stall_seconds: number;
  intake_min_bytes_per_second: number;
  entry_limit: number;
  /**
   * The event lanes' model-file rules: the size limit, the accepted `model_pkl_python_version`s, and
   * whether a declaration outside them is refused (400 naming the set) or accepted as declared.
   */
  model_file: { max_bytes: number; python_versions: string[]; enforce_python_version: boolean };
  predictions_max_bytes: number;
  /** A predictions file's bounds before decoding (src/service/kernel/settings/upload-limits.ts). */
  predictions_max_rows: number;
  predictions_max_uncompressed_bytes: number;
  predictions_max_columns: number;
  /** The pool that reads uploaded files off the serial path: its threads and each one's heap limit. */
  upload_check_workers: number;
  upload_check_memory_mb: number;
  /** Absent: the event has no staking configured. Amounts are decimal USDC strings. */
  staking?: {
    starting_stake_usdc: string;
    min_stake_usdc: string;
    max_slots: number;
    stake_return_amplitude: number;
    payout_factor_threshold_usdc: string;
    armed_at?: string;
  };
  /** Absent: no final window (the sealed rounds are the event's boards). */
  final_window?: { rounds: number; max_selections: number };
  /** Absent: the event has no compute budget (hosted training is refused; a dry run still prices a job). */
  compute?: ComputeSettings;
}

/** What the service needs to know of a deployment: the part of a scenario that is not strategy. */
export interface Deployment {
  seed: string | number;
  kind: "tournament" | "event";
  /** Set for a tournament. */
  calendar?: TournamentCalendar;
  /** Set for an event. */
  event?: EventSettings;
  dataset: DatasetSettings;
  scoring: { weights: { corr: number; aimc: number; ncorr: number }; clip: number; aggregate: Aggregate };
  organiser_key: string;
  faults: Faults;
  /** Fixed-window rate limit per key and endpoint, and on failed authentications per client address. */
  rate_limit: { ceiling: number; window_seconds: number; failed_auth_ceiling: number };
  /** Access-gate credentials; when set, /api/v1 requests without both headers are bounced with a 302. */
  gate: { client_id: string; client_secret: string } | null;
  agents: {
    name: string;
    key: string;
    scope: Scope;
    email_confirmed: boolean;
    blocked: boolean;
    /** Whether an event enrollment carries the event-staking capability. */
    event_staking: boolean;
    wallet?: WalletSettings;
  }[];
  /** Tournament staking; absent = the defaults (src/service/kernel/settings/staking.ts). */
  staking?: StakingSettings;
  /** The tournament's auto-submit lane; absent = the defaults (src/service/kernel/settings/auto-submit.ts). */
  auto_submit?: AutoSubmitSettings;
}

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

/** Any deployment's world: its dataset read from its directory, or generated. */
export async function loadWorld(deployment: Deployment): Promise<World> {
  return worldOf(deployment, await datasetFor(deployment.dataset, deployment.seed, expedsNeeded(deployment)));
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
