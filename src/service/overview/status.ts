import { iso } from "../../domain/clock.js";
import type { CadenceState } from "../../domain/cadence.js";
import { ServiceError } from "../../domain/errors.js";
import type { Principal } from "../kernel/auth.js";
import { cadenceNow } from "../kernel/deployment.js";
import type { ServiceContext } from "../kernel/context.js";
import { eventStarted } from "../kernel/event-gate.js";
import { uploadsRemaining } from "../event/pool.js";
import { diagnosticsMaintenance } from "../kernel/faults.js";
import { computeFunded } from "../compute/jobs.js";
import { rateCard } from "../kernel/settings/compute.js";
import { getModels, modelNames } from "../models/models.js";
import { finalWindow } from "../event/final-selection.js";
import { canStake } from "../event/staking/staker.js";
import { stakingHead } from "../event/staking/view.js";
import { stakingTerms } from "../event/staking/terms.js";
import { scoringSettings, type ScoringSettingsRecord } from "../kernel/setup.js";
import { stakingSettings } from "../kernel/settings/staking.js";

/** Which lane a key submits down. */
const lanes = {
  tournament: "futures_submit_v2",
  event: "event_round_upload",
  practice: "practice_board_upload",
  llm: "none",
} as const;

export interface StatusView {
  scope: Principal["scope"];
  mode: "tournament" | "event";
  agent: string;
  lane: (typeof lanes)[keyof typeof lanes];
  now: string;
  /**
   * Events add `diagnostics_maintenance` (the only thing that closes the practice board) and
   * `clock_paused` (an organiser holds the clock still: phases then last longer than planned).
   */
  cadence: CadenceState & { diagnostics_maintenance?: boolean; clock_paused?: boolean };
  live_round: string | null;
  models: string[];
  /** Tournaments only: whether the auto-submit lane will run any of the caller's models. */
  auto_run?: boolean;
  /** Event keys: what is left of the upload pool (null = uncapped); tournament keys: null. */
  uploads_remaining: number | null;
  /** Events only: `upcoming`, `running` or `finished`. */
  event_status?: "upcoming" | "running" | "finished";
  /** Events only: the plan the cadence follows. */
  build_phase_minutes?: number;
  n_rounds?: number;
  round_minutes?: number | number[];
  phase_sequence?: string[];
  /** Events only, always present: branch on `money_event`. */
  event_staking?: {
    money_event: boolean;
    can_stake: boolean;
    staking_armed: boolean;
    stake_window_open: boolean;
    draft_window: string | null;
    max_slots: number | null;
    net_micro: number | null;
    spendable_micro: number | null;
  };
  /** Events only: the final window's cap, null when the event has none. */
  max_selections?: number | null;
  /** Events only: whether the caller can launch hosted training now (an event key, a live event with a compute budget, compute not paused, credit left). */
  hosted_train_funded?: boolean;
  /** Events only: the calls that make sense now; `train` when hosted training is funded. */
  next_actions?: string[];
  /** Events only: the limits an upload's files are checked against (a 413 names the one broken). */
  upload_limits?: {
    model_file_max_bytes: number;
    predictions_max_bytes: number;
    predictions_max_rows: number;
    predictions_max_uncompressed_bytes: number;
    predictions_max_columns: number;
  };
  /** Events only: each GPU tier's price in dollars per hour. */
  compute_rate_card_usd_per_hr?: Record<string, number>;
}

/** The mode-aware orientation read (`get_started`, REST `/status`). */
export function getStarted(ctx: ServiceContext, p: Principal): StatusView {
  const cadence = cadenceNow(ctx);
  const event = ctx.world.deployment.event;
  // An event's status names the models only (their records, with each one's lane, are the tournament's).
  const models = p.scope === "llm" || event ? [] : getModels(ctx, p).models;
  const base = {
    scope: p.scope,
    agent: p.agent,
    lane: lanes[p.scope],
    now: iso(ctx.clock.now()),
    cadence,
    models: p.scope === "llm" ? [] : event ? modelNames(ctx, p) : models.map((m) => m.name),
  };
  if (!event) {
    const auto_run = models.some((m) => m.lane_active);
    return { ...base, mode: "tournament", live_round: cadence.open_window, uploads_remaining: null, auto_run };
  }
  const started = eventStarted(ctx);
  return {
    ...base,
    cadence: { ...cadence, diagnostics_maintenance: diagnosticsMaintenance(ctx), clock_paused: ctx.clock.paused?.() ?? false },
    mode: "event",
    // The round signal on an event is cadence.open_window; live_round is the tournament's.
    live_round: null,
    uploads_remaining: uploadsRemaining(ctx, p.agent_id),
    event_status: !started ? "upcoming" : cadence.phase === "done" ? "finished" : "running",
    build_phase_minutes: event.build_phase_minutes,
    n_rounds: event.n_rounds,
    round_minutes: event.round_minutes,
    phase_sequence: ctx.world.schedule.phases.map((ph) => ph.name),
    event_staking: stakingSummary(ctx, p),
    max_selections: finalWindow(ctx)?.max_selections ?? null,
    upload_limits: {
      model_file_max_bytes: event.model_file.max_bytes,
      predictions_max_bytes: event.predictions_max_bytes,
      predictions_max_rows: event.predictions_max_rows,
      predictions_max_uncompressed_bytes: event.predictions_max_uncompressed_bytes,
      predictions_max_columns: event.predictions_max_columns,
    },
    ...computeSummary(ctx, p, started && cadence.phase !== "done", !cadence.intake_fenced),
  };
}

/** The event's hosted-compute orientation: funded or not, what to do next, and the rate card. */
function computeSummary(ctx: ServiceContext, p: Principal, live: boolean, roundOpen: boolean) {
  const funded = computeFunded(ctx, p);
  const next_actions = [
    ...(live && p.scope !== "llm" ? ["download_dataset", "submit_validation_diagnostics"] : []),
    ...(live && roundOpen && p.scope === "event" ? ["submit_event_predictions"] : []),
    ...(funded ? ["train"] : []),
  ];
  const card = rateCard(ctx);
  return {
    hosted_train_funded: funded,
    next_actions,
    compute_rate_card_usd_per_hr: Object.fromEntries(Object.entries(card).map(([tier, usd]) => [tier, Number(usd)])),
  };
}

function stakingSummary(ctx: ServiceContext, p: Principal): NonNullable<StatusView["event_staking"]> {
  const s = stakingHead(ctx, p);
  return {
    money_event: s.money_event,
    can_stake: canStake(ctx, p),
    staking_armed: s.staking_armed,
    stake_window_open: s.stake_window_open,
    draft_window: s.draft_window,
    max_slots: s.max_slots,
    net_micro: s.net_micro,
    spendable_micro: s.spendable_micro,
  };
}

export interface WhoAmI {
  authenticated: boolean;
  scope: Principal["scope"] | null;
  fingerprint: string | null;
  email_confirmed: boolean | null;
  agent: string | null;
}

/**
 * Whether a key authenticates (by `authenticate`), and as what; never shows the key. Only a
 * failed-authentication 429 propagates: past that ceiling, whoami must not tell a right key from a wrong one.
 */
export function whoami(authenticate: (key: string | undefined) => Principal, key: string | undefined): WhoAmI {
  try {
    const p = authenticate(key);
    return { authenticated: true, scope: p.scope, fingerprint: p.fingerprint, email_confirmed: p.email_confirmed, agent: p.agent };
  } catch (e) {
    if (e instanceof ServiceError && e.code === "auth_rate_limited") throw e;
    return { authenticated: false, scope: null, fingerprint: null, email_confirmed: null, agent: null };
  }
}

export interface ScoringView extends ScoringSettingsRecord {
  rank_metric: string;
  round_score: string;
  standings: string;
  terms: Record<"corr" | "aimc" | "ncorr", string>;
  designated_benchmark: string;
  /** The graded target column: the one `prediction` is scored against, among the target columns of train and validation. */
  target: string;
  /** The staking payout map and its live parameters (tournaments; events with staking configured). */
  payout?: string;
  payout_cap?: number;
  payout_factor_threshold_micro?: number;
  round_capacity_micro?: number;
  /** Events: A in the payout map. */
  stake_return_amplitude?: number;
}

/** The tournament's payout map (src/scoring/payout.ts) and the numbers it runs with. */
function tournamentPayout(ctx: ServiceContext) {
  const s = stakingSettings(ctx);
  return {
    payout:
      "payout_micro = trunc(principal_micro * clamp(round_score * payout_factor, -payout_cap, +payout_cap)); " +
      "payout_factor = min(1, payout_factor_threshold_micro / the round's total locked stake), frozen when the round locks at its close",
    payout_cap: s.payout_cap,
    payout_factor_threshold_micro: s.payout_factor_threshold_micro,
    round_capacity_micro: s.round_capacity_micro,
  };
}

/** An event's payout map (src/scoring/payout.ts) and its numbers; nothing when it has no staking. */
function eventPayoutTerms(ctx: ServiceContext) {
  const terms = stakingTerms(ctx);
  if (!terms) return {};
  return {
    payout:
      "payout_micro = trunc(stake_micro * A * tanh(payout_factor * round_score / A)), A = stake_return_amplitude; " +
      "payout_factor = min(1, payout_factor_threshold_micro / the window's total locked stake), frozen when the round closes; " +
      "paid as the next round opens",
    stake_return_amplitude: terms.stake_return_amplitude,
    payout_factor_threshold_micro: terms.threshold_micro,
  };
}

/** The live scoring settings and how they are applied (`explain_scoring`). */
export function explainScoring(ctx: ServiceContext): ScoringView {
  const s = scoringSettings(ctx);
  return {
    ...s,
    rank_metric: s.aggregate === "sum" ? "total_score" : "exped_weighted_mean_score",
    round_score: "clip(w_corr*CORR + w_aimc*AIMC + w_ncorr*NCORR, -clip, +clip), settings in force when the round settles",
    standings:
      s.aggregate === "sum"
        ? "sum of round scores over all settled rounds; a round never entered counts 0"
        : "exped-weighted mean of the model's round scores",
    terms: {
      corr: "pearson(s(g(p)), s(t - mean(t))), g = rank-gaussianisation, s(x) = sign(x)|x|^1.5",
      aimc: "mean(r * (t - mean(t))), r = g(p) orthogonalised against g(v1_designated)",
      ncorr: "CORR of g(p) after least-squares neutralisation against the core features plus an intercept",
    },
    designated_benchmark: "v1_designated",
    target: ctx.world.dataset.target,
    ...(ctx.world.deployment.kind === "tournament" ? tournamentPayout(ctx) : eventPayoutTerms(ctx)),
  };
}
