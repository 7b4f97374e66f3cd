import { z } from "zod";
import { parseUsdc } from "../domain/money.js";
import { faultsSchema } from "./faults.js";

/**
 * The deployment's settings: what the service needs to know of a scenario (all of it but the
 * strategies and the organiser's scripted actions), validated here with the types inferred. The
 * scenario schema (sim/scenario.ts) is this one plus those; an error names the path of the bad
 * field and what was expected.
 */

/** An amount of USDC written as a decimal string ("2.5"), at most 6 decimals: money never passes through a float. */
export const usdcString = z
  .string()
  .refine((t) => parseUsdc(t) !== null, 'expected a USDC amount as a decimal string with at most 6 decimals, e.g. "2.5"');

const usdc = usdcString;

/** The hosted compute tiers. */
export const GPU_TIERS = ["CPU", "T4", "A10G", "A100"] as const;
export type GpuTier = (typeof GPU_TIERS)[number];

/** Each tier's hourly rate in dollars when an event names none. */
export const defaultRateCard: Record<GpuTier, string> = { CPU: "0.10", T4: "0.50", A10G: "1.10", A100: "1.79" };

/**
 * An event's bounds on uploaded files beyond their byte sizes, and its pool of checking threads,
 * when the event names none. A round's universe is a few thousand rows, so 200 000 rows leave room
 * for any honest file and keep a hostile one's id set, digest and stored copy to tens of megabytes.
 */
export const EVENT_UPLOAD_DEFAULTS = {
  predictions_max_rows: 200_000,
  predictions_max_uncompressed_bytes: 64 * 1024 * 1024,
  predictions_max_columns: 64,
  upload_check_workers: 2,
  upload_check_memory_mb: 512,
};

/** Tournament staking's numbers when a scenario names none (Basecamp's own: the real service publishes none). */
export const defaultStakingSettings = {
  /** A payout is capped at ±payout_cap × the stake (`A` of the payout map). */
  payout_cap: 0.25,
  /** Total locked stake of a round up to which its payout factor is 1; above it, threshold / total. */
  payout_factor_threshold_micro: 10_000 * 1_000_000,
  /** Room for stakes shared by every unscored round (pending or locked); beyond it, `round_full`. */
  round_capacity_micro: 100_000 * 1_000_000,
};

/** An agent's linked wallet when the scenario names none: a passkey (without one a stake is refused) and the stake limit before any payout. */
export const defaultWallet = { passkey: true, allowance_micro: 100 * 1_000_000 };

/**
 * The tournament's auto-submit lane when a scenario names none (Basecamp's own numbers: the real
 * service publishes only the accepted python versions' default).
 */
export const defaultAutoSubmitSettings = {
  model_file: { max_bytes: 10 * 1024 * 1024, python_versions: ["3.11", "3.12", "3.13"] },
  validation_seconds: 60,
  auto_submit_delay_seconds: 300,
  predict_timeout_seconds: 60,
};


export const weights = z.strictObject({ corr: z.number(), aimc: z.number(), ncorr: z.number() });

export const clip = z.number().positive();
export const aggregate = z.enum(["sum", "exped_weighted_mean"]);

export const scoringSchema = z.strictObject({
  weights: weights.default({ corr: 1, aimc: 2, ncorr: 1 }),
  clip: clip.default(0.25),
  aggregate: aggregate.default("sum"),
});

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

/** What a key may do: a tournament entrant, an event entrant, the practice board only, or an LLM. */
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
      max_bytes: z.int().min(1).default(defaultAutoSubmitSettings.model_file.max_bytes),
      python_versions: z.array(pythonVersion).min(1).default(defaultAutoSubmitSettings.model_file.python_versions),
    })
    .default(defaultAutoSubmitSettings.model_file),
  /** Simulated seconds from an upload to its sandbox predict's verdict (validated or error). */
  validation_seconds: z.int().min(1).default(defaultAutoSubmitSettings.validation_seconds),
  /** Simulated seconds after a round opens at which the lane runs each active model. */
  auto_submit_delay_seconds: z.int().min(0).default(defaultAutoSubmitSettings.auto_submit_delay_seconds),
  /** CPU seconds one predict run may use (src/participant/call-limit.ts). */
  predict_timeout_seconds: z.number().positive().max(3600).default(defaultAutoSubmitSettings.predict_timeout_seconds),
});

/** An agent as the service knows it: its key and what the key may do (a scenario adds its strategy). */
export const deploymentAgentSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_-]*$/, "expected a lowercase name"),
  key: z.string().min(8, "expected an API key of at least 8 characters"),
  scope: z.enum(scopes).default("tournament"),
  email_confirmed: z.boolean().default(true),
  blocked: z.boolean().default(false),
  /** Whether an event enrollment carries the event-staking capability. */
  event_staking: z.boolean().default(true),
  wallet: walletSchema.optional(),
});

/** The deployment: every setting of a scenario the service reads. */
export const deploymentSchema = z.strictObject({
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
  faults: faultsSchema,
  /** Tournament staking settings (kind "tournament"). */
  staking: stakingSchema.optional(),
  /** The tournament's auto-submit lane (kind "tournament"). */
  auto_submit: autoSubmitSchema.optional(),
  agents: z.array(deploymentAgentSchema).min(1),
});

export type Deployment = z.output<typeof deploymentSchema>;
export type EventSettings = z.output<typeof eventSchema>;
export type ComputeSettings = z.output<typeof computeSchema>;
export type StakingSettings = z.output<typeof stakingSchema>;
export type WalletSettings = z.output<typeof walletSchema>;
export type AutoSubmitSettings = z.output<typeof autoSubmitSchema>;
export type Scope = (typeof scopes)[number];
