import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { defaultAutoSubmitSettings as autoDefaults } from "../src/service/kernel/settings/auto-submit.js";
import { defaultRateCard, GPU_TIERS } from "../src/service/kernel/settings/compute.js";
import { EVENT_UPLOAD_DEFAULTS } from "../src/service/kernel/settings/upload-limits.js";
import { defaultStakingSettings, defaultWallet } from "../src/service/kernel/settings/staking.js";
import { strategyByName } from "./agents/registry.js";
import { strategyFileKind } from "./agents/strategy-file.js";
import { usdcString as usdc } from "./usdc.js";

/**
 * A scenario is data: a seed, the dataset's size, the calendar, the live scoring settings, the
 * deployment's limits, faults to inject, and the agents with their strategies. Files are validated
 * here; an error names the path of the bad field and what was expected.
 */
const weights = z.strictObject({ corr: z.number(), aimc: z.number(), ncorr: z.number() });

const clip = z.number().positive();
const aggregate = z.enum(["sum", "exped_weighted_mean"]);

export const scoringSchema = z.strictObject({
  weights: weights.default({ corr: 1, aimc: 2, ncorr: 1 }),
  clip: clip.default(0.25),
  aggregate: aggregate.default("sum"),
});

/** A change to the live settings: only what it names changes (no defaults fill the rest). */
const scoringChangeSchema = z.strictObject({ weights: weights.optional(), clip: clip.optional(), aggregate: aggregate.optional() });

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a time 'HH:MM' (UTC)");

const calendarSchema = z.strictObject({
  start: z.iso.date().or(z.iso.datetime()),
  n_rounds: z.int().min(1).max(2000),
  weekdays: z.array(z.int().min(0).max(6)).min(1).default([1, 2, 3, 4, 5]),
  open_time: hhmm.default("00:00"),
  close_time: hhmm.default("16:00"),
  resolve_after_rounds: z.int().min(1).default(4),
});


/**
 * Event staking: each enrolled agent starts with a platform-granted stake it drafts onto its models
 * per round window; drafts lock as the round closes and settle back as the next round opens.
 * Absent = the event has no staking configured.
 */
const eventStakingSchema = z.strictObject({
  starting_stake_usdc: usdc.default("50"),
  min_stake_usdc: usdc.default("1"),
  /** Models an agent can stake per window. */
  max_slots: z.int().min(1).default(3),
  /** A: a window's return is A·tanh(payout_factor·score/A) of the stake. */
  stake_return_amplitude: z.number().positive().max(1).default(0.25),
  /** The payout factor is 1 while a window's locked total is at most this, threshold/total above it. */
  payout_factor_threshold_usdc: usdc.default("500"),
  /** When the staking contract is armed; before it every draft answers 409. Absent = armed from the start. */
  armed_at: z.iso.datetime().optional(),
});

/** A held-out final board: its last `rounds` rounds, on which each agent enters up to `max_selections` models it selected before they open. */
const finalWindowSchema = z.strictObject({
  rounds: z.int().min(1).default(1),
  max_selections: z.int().min(1).default(2),
});

/** Hosted compute: each enrolled agent's pre-funded grant and the tiers' hourly rates. Absent = no compute budget. */
const computeSchema = z.strictObject({
  budget_usd: usdc,
  rate_card_usd_per_hr: z
    .strictObject({
      CPU: usdc.default(defaultRateCard.CPU),
      T4: usdc.default(defaultRateCard.T4),
      A10G: usdc.default(defaultRateCard.A10G),
      A100: usdc.default(defaultRateCard.A100),
    })
    .default(defaultRateCard),
  /** Real seconds a sandboxed training run (every kind but ridge) may take before its job fails. */
  wall_seconds: z.int().min(1).optional(),
  /** The hosted machine: idle stop, daily maximum, the tier it is charged at, a command's real-time bound, its workspace's size; defaults in machine/settings.ts. */
  machine: z
    .strictObject({
      idle_minutes: z.number().positive().optional(),
      daily_max_hours: z.number().positive().max(24).optional(),
      tier: z.enum(GPU_TIERS).optional(),
      command_seconds: z.int().min(1).max(600).optional(),
      workspace_mb: z.int().min(1).max(65536).optional(),
    })
    .optional(),
});

const eventSchema = z.strictObject({
  start: z.iso.datetime(),
  /**
   * Minutes of a `pre_event` phase before `start`, where the clock of `serve` (and of `run`) begins:
   * the event announced but not open, data and compute refused with 403 `Your hackathon has not
   * started yet`. Absent: the clock begins at the build phase.
   */
  pre_event_minutes: z.number().positive().optional(),
  build_phase_minutes: z.number().positive(),
  stake_window_minutes: z.number().min(0).default(0),
  n_rounds: z.int().min(1).max(50),
  round_minutes: z.union([z.number().positive(), z.array(z.number().positive())]),
  boundary_minutes: z.number().min(0).default(3),
  /** Expeds in each round's live split, labelled era_001… afresh every round. */
  expeds_per_round: z.int().min(1).default(5),
  /** Round-lane uploads per agent for the whole event; null = uncapped. */
  upload_pool: z.int().min(0).nullable().default(150),
  /** Simulated seconds a run spends scoring before it finalises or fails. */
  scoring_seconds: z.int().min(1).default(60),
  /** Concurrent multipart intakes per lane before a 503. */
  intake_concurrency: z.int().min(1).default(4),
  /** Of those, the places one agent may hold at once per lane; its next concurrent upload gets the 503. */
  intake_per_agent: z.int().min(1).default(1),
  /**
   * The pace an upload's body must keep: every `intake_stall_seconds` of wall-clock time at least
   * `intake_min_bytes_per_second` × that many bytes (and at least one) must arrive, or the body is
   * dropped with 408 and its intake place returned.
   */
  intake_stall_seconds: z.number().positive().default(5),
  intake_min_bytes_per_second: z.int().min(0).default(1024),
  /** Rows per agent kept on each round board (submitting is entering). */
  entry_limit: z.int().min(1).default(3),
  /**
   * The event lanes' model file. `enforce_python_version` (default true, the spec's behaviour: "the
   * accepted set is per deployment and a rejection names it"): a `model_pkl_python_version` outside
   * `python_versions` is refused with 400 naming the set; false accepts it as declared.
   */
  model_file: z
    .strictObject({
      max_bytes: z.int().min(1).default(10 * 1024 * 1024),
      python_versions: z.array(z.string().regex(/^\d+\.\d+$/, "expected 'major.minor'")).min(1).default(["3.11", "3.12", "3.13"]),
      enforce_python_version: z.boolean().default(true),
    })
    .default({ max_bytes: 10 * 1024 * 1024, python_versions: ["3.11", "3.12", "3.13"], enforce_python_version: true }),
  predictions_max_bytes: z.int().min(1).default(20 * 1024 * 1024),
  /**
   * Bounds on what a predictions file may claim, checked before it is decoded (a parquet file's
   * footer, a CSV file's rows as they are counted): a file past one is refused with 413 naming it.
   */
  predictions_max_rows: z.int().min(1).default(EVENT_UPLOAD_DEFAULTS.predictions_max_rows),
  predictions_max_uncompressed_bytes: z.int().min(1).default(EVENT_UPLOAD_DEFAULTS.predictions_max_uncompressed_bytes),
  predictions_max_columns: z.int().min(1).default(EVENT_UPLOAD_DEFAULTS.predictions_max_columns),
  /** Worker threads that read uploaded files off the service's serial path, and each one's heap limit (MiB). */
  upload_check_workers: z.int().min(1).max(8).default(EVENT_UPLOAD_DEFAULTS.upload_check_workers),
  upload_check_memory_mb: z.int().min(64).default(EVENT_UPLOAD_DEFAULTS.upload_check_memory_mb),
  staking: eventStakingSchema.optional(),
  final_window: finalWindowSchema.optional(),
  compute: computeSchema.optional(),
});

const generatorKnobs = {
  n_features: z.int().min(2),
  n_core: z.int().min(1),
  missing_share: z.number().min(0).max(0.9),
  train_expeds: z.int().min(1),
  validation_expeds: z.int().min(1),
  rows_per_exped: z.int().min(5),
  gap_expeds: z.int().min(0),
  universe_size: z.int().min(5),
  signal: z.number().min(0),
  regime_length: z.int().min(1),
};

/** What only a directory dataset takes (src/data/dataset-dir.ts). */
const dirFields = {
  dir: z.string().min(1),
  target: z.string().min(1),
  core_features: z.array(z.string().min(1)),
};

/** The generator's knobs, or `dir` (a directory in the service's file layout) with its own fields: never both. */
const datasetSchema = z
  .strictObject({ prefix: z.string().regex(/^[a-z][a-z0-9_]*$/, "expected a lowercase file prefix"), ...generatorKnobs, ...dirFields })
  .partial()
  .superRefine((d, ctx) => {
    const fromDir = d.dir !== undefined;
    const wrong = fromDir ? Object.keys(generatorKnobs) : Object.keys(dirFields).filter((k) => k !== "dir");
    for (const key of wrong) {
      if (d[key as keyof typeof d] === undefined) continue;
      const message = fromDir ? "a dataset read from dir takes no generator knobs" : "only a dataset read from dir takes it";
      ctx.addIssue({ code: "custom", path: [key], message });
    }
  })
  .default({});

export const scopes = ["tournament", "event", "practice", "llm"] as const;

const micro = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

/** An agent's linked wallet for tournament staking; absent = a passkey and the default allowance. */
const walletSchema = z.strictObject({
  passkey: z.boolean().default(defaultWallet.passkey),
  /** The stake limit before any payout, in micro USDC (1 USDC = 1 000 000). */
  allowance_micro: micro.default(defaultWallet.allowance_micro),
});

/** Tournament staking; absent = the defaults, so a scenario that never stakes needs no block. */
const stakingSchema = z.strictObject({
  payout_cap: z.number().positive().max(1).default(defaultStakingSettings.payout_cap),
  payout_factor_threshold_micro: micro.min(1).default(defaultStakingSettings.payout_factor_threshold_micro),
  round_capacity_micro: micro.default(defaultStakingSettings.round_capacity_micro),
});

const pythonVersion = z.string().regex(/^\d+\.\d+$/, "expected 'major.minor'");

/** The tournament's auto-submit lane (upload_model, set_auto_submit); absent = the defaults. */
const autoSubmitSchema = z.strictObject({
  model_file: z
    .strictObject({
      max_bytes: z.int().min(1).default(autoDefaults.model_file.max_bytes),
      python_versions: z.array(pythonVersion).min(1).default(autoDefaults.model_file.python_versions),
    })
    .default(autoDefaults.model_file),
  /** Simulated seconds from an upload to its sandbox predict's verdict (validated or error). */
  validation_seconds: z.int().min(1).default(autoDefaults.validation_seconds),
  /** Simulated seconds after a round opens at which the lane runs each active model. */
  auto_submit_delay_seconds: z.int().min(0).default(autoDefaults.auto_submit_delay_seconds),
  /** Wall-clock seconds one predict run may take. */
  predict_timeout_seconds: z.number().positive().max(3600).default(autoDefaults.predict_timeout_seconds),
});

const agentSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_-]*$/, "expected a lowercase name"),
  key: z.string().min(8, "expected an API key of at least 8 characters"),
  scope: z.enum(scopes).default("tournament"),
  email_confirmed: z.boolean().default(true),
  blocked: z.boolean().default(false),
  /** Whether an event enrollment carries the event-staking capability. */
  event_staking: z.boolean().default(true),
  wallet: walletSchema.optional(),
  /** A built-in strategy's name, or a file's path relative to the scenario file (.py, .pkl, .ts/.js/.mjs, .csv/.parquet). */
  strategy: z.string(),
  params: z.record(z.string(), z.unknown()).default({}),
  /** A Python or model-file strategy: wall-clock seconds its fit(train) may take (default 600). */
  fit_timeout_seconds: z.number().positive().max(86_400).optional(),
  /** A Python or model-file strategy: wall-clock seconds one predict may take (default 60). */
  predict_timeout_seconds: z.number().positive().max(3600).optional(),
});

/** Faults that strike the whole deployment, not one round. */
const deploymentFaults = ["diagnostics_maintenance", "compute_paused"] as const;

/** A fault switched on or off mid-replay; `round` for a round fault, none for diagnostics_maintenance and compute_paused. */
const faultChangeSchema = z.strictObject({
  fault: z.enum(["missing_benchmark", "empty_live", "balance_unavailable", "chain_rpc_unavailable", ...deploymentFaults]),
  round: z.int().min(1).optional(),
  on: z.boolean(),
});

/** An organiser action at a simulated instant: change the live scoring settings, or toggle a fault. */
const actionSchema = z.union([
  z.strictObject({ at: z.iso.datetime(), set_scoring: scoringChangeSchema }),
  z.strictObject({ at: z.iso.datetime(), set_fault: faultChangeSchema }),
]);

const faultsSchema = z
  .strictObject({
    /** Rounds (1-based) whose live benchmark file lacks `v1_designated`: they never settle. */
    missing_benchmark_rounds: z.array(z.int().min(1)).default([]),
    /** Rounds (1-based) whose live split is served empty: 503 `Live dataset is empty`. */
    empty_live_rounds: z.array(z.int().min(1)).default([]),
    /** Event rounds (1-based) during which the event deposit balance cannot be read: drafts answer 503. */
    balance_unavailable_rounds: z.array(z.int().min(1)).optional(),
    /** Rounds (1-based) whose staking chain is unreachable: stakes on them get 503 `Chain RPC unavailable`. */
    chain_rpc_unavailable_rounds: z.array(z.int().min(1)).optional(),
    /** The practice board starts under maintenance: its uploads answer 503. */
    diagnostics_maintenance: z.boolean().optional(),
    /** Hosted compute starts paused by an administrator: launches answer 503. */
    compute_paused: z.boolean().optional(),
  })
  .default({ missing_benchmark_rounds: [], empty_live_rounds: [] });

export const scenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(""),
  seed: z.union([z.int(), z.string().min(1)]),
  kind: z.enum(["tournament", "event"]).default("tournament"),
  dataset: datasetSchema,
  /** The tournament calendar (kind "tournament"). */
  calendar: calendarSchema.optional(),
  /** The event plan and its limits (kind "event"). */
  event: eventSchema.optional(),
  scoring: scoringSchema.default({ weights: { corr: 1, aimc: 2, ncorr: 1 }, clip: 0.25, aggregate: "sum" }),
  organiser_key: z.string().min(8).default("organiser-key-0000"),
  /**
   * Fixed window per key and endpoint; the 429 names the ceiling. `failed_auth_ceiling`: unknown
   * keys a client address may send per window before its every keyed call gets 429 for the rest of it.
   */
  rate_limit: z
    .strictObject({ ceiling: z.int().min(1), window_seconds: z.int().min(1), failed_auth_ceiling: z.int().min(1).default(60) })
    .default({ ceiling: 1000, window_seconds: 60, failed_auth_ceiling: 60 }),
  /** Access-gate service-token credentials; null = no gate (production hosts need only the key). */
  gate: z.strictObject({ client_id: z.string().min(1), client_secret: z.string().min(1) }).nullable().default(null),
  actions: z.array(actionSchema).default([]),
  faults: faultsSchema,
  /** Tournament staking settings (kind "tournament"). */
  staking: stakingSchema.optional(),
  /** The tournament's auto-submit lane (kind "tournament"). */
  auto_submit: autoSubmitSchema.optional(),
  agents: z.array(agentSchema).min(1),
});

export type Scenario = z.infer<typeof scenarioSchema>;

export type ScenarioAgent = Scenario["agents"][number];
export type ScoringSettingsInput = z.infer<typeof scoringSchema>;

export class ScenarioError extends Error {}

/**
 * Validates parsed JSON; the error lists each bad field as `path: what was expected`. A relative
 * `dataset.dir` and a file strategy's path are made absolute against `baseDir` (the scenario file's directory when loaded).
 */
export function parseScenario(raw: unknown, source = "scenario", baseDir = "."): Scenario {
  const result = scenarioSchema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new ScenarioError(`${source} is not a valid scenario: ${issues.join("; ")}`);
  }
  const scenario = result.data;
  if (scenario.dataset.dir !== undefined) scenario.dataset.dir = resolve(baseDir, scenario.dataset.dir);
  for (const agent of scenario.agents) if (strategyFileKind(agent.strategy) !== null) agent.strategy = resolve(baseDir, agent.strategy);
  if (scenario.kind === "tournament" && !scenario.calendar) {
    throw new ScenarioError(`${source}: calendar: a tournament scenario needs a calendar`);
  }
  if (scenario.kind === "event" && !scenario.event) {
    throw new ScenarioError(`${source}: event: an event scenario needs an event block`);
  }
  const finalRounds = scenario.event?.final_window?.rounds;
  if (scenario.event && finalRounds !== undefined && finalRounds > scenario.event.n_rounds) {
    throw new ScenarioError(`${source}: event.final_window.rounds: ${finalRounds} final rounds, but the event has ${scenario.event.n_rounds}`);
  }
  if (scenario.kind === "event" && scenario.auto_submit) {
    throw new ScenarioError(`${source}: auto_submit: the auto-submit lane needs a tournament scenario`);
  }
  const nRounds = (scenario.calendar ?? scenario.event)?.n_rounds ?? 0;
  for (const [i, action] of scenario.actions.entries()) {
    if (!("set_fault" in action)) continue;
    const { fault, round } = action.set_fault;
    const where = `${source}: actions[${i}].set_fault.round`;
    const wide = (deploymentFaults as readonly string[]).includes(fault);
    if (wide && round !== undefined) throw new ScenarioError(`${where}: ${fault} is not tied to a round`);
    if (!wide && (round === undefined || round > nRounds)) {
      throw new ScenarioError(`${where}: ${fault} needs a round number from 1 to ${nRounds}`);
    }
  }
  if (scenario.kind === "event" && scenario.staking) {
    throw new ScenarioError(`${source}: staking: tournament staking needs a tournament scenario`);
  }
  const seen = new Set<string>();
  for (const [i, agent] of scenario.agents.entries()) {
    if (seen.has(agent.name)) throw new ScenarioError(`${source}: agents[${i}].name: '${agent.name}' is used twice`);
    seen.add(agent.name);
  }
  const keys = new Set<string>();
  for (const [i, agent] of scenario.agents.entries()) {
    if (keys.has(agent.key)) throw new ScenarioError(`${source}: agents[${i}].key: the key is used twice`);
    keys.add(agent.key);
  }
  for (const [i, agent] of scenario.agents.entries()) {
    const file = strategyFileKind(agent.strategy);
    if (file === "module") continue; // a module declares its own kind and parameters: checked when it loads
    if (file !== null) {
      if (scenario.kind !== "tournament") throw new ScenarioError(`${source}: agents[${i}].strategy: a ${file} strategy plays tournaments, and this scenario is an event`);
      continue;
    }
    let strategy;
    try {
      strategy = strategyByName(agent.strategy);
    } catch (e) {
      throw new ScenarioError(`${source}: agents[${i}].strategy: ${(e as Error).message}`);
    }
    if (strategy.kind !== scenario.kind) {
      throw new ScenarioError(`${source}: agents[${i}].strategy: '${agent.strategy}' plays ${strategy.kind}s, and this scenario is ${scenario.kind === "event" ? "an event" : "a tournament"}`);
    }
    const params = strategy.params.safeParse(agent.params);
    if (!params.success) {
      const issues = params.error.issues.map((issue) => `agents[${i}].params${issue.path.length ? "." : ""}${formatPath(issue.path)}: ${issue.message}`);
      throw new ScenarioError(`${source} is not a valid scenario: ${issues.join("; ")}`);
    }
  }
  return scenario;
}

/** Reads and validates a scenario file; its relative paths are taken relative to the file. */
export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ScenarioError(`cannot read scenario ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ScenarioError(jsonSyntaxError(path, text, e as Error));
  }
  return parseScenario(raw, path, dirname(path));
}

/** `file:line:column: not JSON: what`, the place computed from the parser's character position. */
function jsonSyntaxError(path: string, text: string, e: Error): string {
  const before = text.slice(0, errorOffset(text, e.message)).split("\n");
  const what = e.message.replace(/ (in JSON )?at position \d+.*$/, "").replace(/, (\.\.\.)?".*" is not valid JSON$/s, "");
  return `${path}:${before.length}:${before[before.length - 1].length + 1}: not JSON: ${what}`;
}

/**
 * Where JSON.parse gave up: the position its message names, else (an "Unexpected token" names
 * none) the end of the shortest prefix that cannot be the start of a JSON text, found by halving.
 */
function errorOffset(text: string, message: string): number {
  const at = /at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const viable = (n: number) => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (e) {
      const m = (e as Error).message;
      return m === "Unexpected end of JSON input" || new RegExp(`at position ${n}\\b`).test(m);
    }
  };
  let [good, bad] = [0, text.length];
  if (viable(bad)) return bad;
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (viable(mid)) good = mid;
    else bad = mid;
  }
  return bad - 1;
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return "(top level)";
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}
