import type { Clock } from "../domain/clock.js";
import { phaseAt, tournamentSchedule, type CadenceState, type Schedule } from "../domain/cadence.js";
import type { TournamentCalendar } from "../domain/cadence.js";
import { Rng } from "../domain/rng.js";
import { generateDataset, type Dataset } from "../data/generate.js";
import { defaultDatasetSpec, type DatasetSpec } from "../data/schema.js";
import type { Aggregate } from "../scoring/standings.js";
import type { Db } from "../store/db.js";
import type { Faults } from "./faults.js";

export type Scope = "tournament" | "event" | "practice" | "llm";

/** What the service needs to know of a deployment: the part of a scenario that is not strategy. */
export interface Deployment {
  seed: string | number;
  calendar: TournamentCalendar;
  dataset: Partial<DatasetSpec>;
  scoring: { weights: { corr: number; aimc: number; ncorr: number }; clip: number; aggregate: Aggregate };
  organiser_key: string;
  faults: Faults;
  /** Fixed-window rate limit per key and endpoint. */
  rate_limit: { ceiling: number; window_seconds: number };
  /** Access-gate credentials; when set, /api/v1 requests without both headers are bounced with a 302. */
  gate: { client_id: string; client_secret: string } | null;
  agents: { name: string; key: string; scope: Scope; email_confirmed: boolean; blocked: boolean }[];
}

/** The deployment's fixed world: its generated dataset and its schedule, derived from the seed alone. */
export interface World {
  deployment: Deployment;
  dataset: Dataset;
  schedule: Schedule;
}

export function buildWorld(deployment: Deployment): World {
  const spec = { ...defaultDatasetSpec, ...deployment.dataset };
  const dataset = generateDataset(spec, new Rng(deployment.seed).fork("dataset"), deployment.calendar.n_rounds);
  const schedule = tournamentSchedule(deployment.calendar, (i) => dataset.rounds[i - 1].exped);
  return { deployment, dataset, schedule };
}

/** Everything an operation runs against: the store, the time and the world. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  world: World;
}

export function cadenceNow(ctx: ServiceContext): CadenceState {
  return phaseAt(ctx.world.schedule, ctx.clock.now());
}
