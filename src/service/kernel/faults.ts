import { refuse } from "../../domain/errors.js";
import { canonicalJson } from "../../store/canonical-json.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "./context.js";
import { faultsJson, setFaultsJson } from "../../store/settings.js";

/** Faults an organiser can inject; they start as the scenario sets them and can be toggled live. */
export interface Faults {
  /** Rounds (1-based) whose live benchmark file lacks `v1_designated`: they never settle. */
  missing_benchmark_rounds: number[];
  /** Rounds (1-based) whose live split is served empty: 503 `Live dataset is empty`. */
  empty_live_rounds: number[];
  /**
   * Event rounds (1-based) during which the event deposit balance cannot be read. Absent until set,
   * like the next one, so deployments that never use it are unchanged.
   */
  balance_unavailable_rounds?: number[];
  /**
   * Rounds (1-based) whose staking chain cannot be reached: a stake on them is refused with 503
   * `Chain RPC unavailable`. Absent until set, so deployments that never use it are unchanged.
   */
  chain_rpc_unavailable_rounds?: number[];
  /** The practice board is under maintenance (whatever the round): its uploads answer 503. Absent until set. */
  diagnostics_maintenance?: boolean;
  /** Hosted compute is paused by an administrator: training launches answer 503. Absent until set. */
  compute_paused?: boolean;
}

/** Faults that strike one round. */
export type RoundFaultName = "missing_benchmark" | "empty_live" | "balance_unavailable" | "chain_rpc_unavailable";
/** Faults that strike the whole deployment (they take no round). */
export type DeploymentFaultName = "diagnostics_maintenance" | "compute_paused";
export type FaultName = RoundFaultName | DeploymentFaultName;

const deploymentWide = (f: FaultName): f is DeploymentFaultName => f === "diagnostics_maintenance" || f === "compute_paused";

const fieldOf: Record<RoundFaultName, keyof Faults> = {
  missing_benchmark: "missing_benchmark_rounds",
  empty_live: "empty_live_rounds",
  balance_unavailable: "balance_unavailable_rounds",
  chain_rpc_unavailable: "chain_rpc_unavailable_rounds",
};

export function faults(ctx: ServiceContext): Faults {
  const json = faultsJson(ctx.db);
  return json !== undefined ? (JSON.parse(json) as Faults) : ctx.world.deployment.faults;
}

export function benchmarkWithheld(ctx: ServiceContext, roundIndex: number): boolean {
  return faults(ctx).missing_benchmark_rounds.includes(roundIndex);
}

export function liveEmptied(ctx: ServiceContext, roundIndex: number): boolean {
  return faults(ctx).empty_live_rounds.includes(roundIndex);
}

export function balanceUnavailable(ctx: ServiceContext, roundIndex: number): boolean {
  return faults(ctx).balance_unavailable_rounds?.includes(roundIndex) ?? false;
}

export function chainRpcDown(ctx: ServiceContext, roundIndex: number): boolean {
  return faults(ctx).chain_rpc_unavailable_rounds?.includes(roundIndex) ?? false;
}

export function diagnosticsMaintenance(ctx: ServiceContext): boolean {
  return faults(ctx).diagnostics_maintenance === true;
}

export function computePaused(ctx: ServiceContext): boolean {
  return faults(ctx).compute_paused === true;
}

export function storeFaults(ctx: Pick<ServiceContext, "db">, f: Faults): void {
  setFaultsJson(ctx.db, canonicalJson(f));
}

/**
 * Turns a fault on or off (an organiser action): a round fault for the round named, practice-board
 * maintenance or a compute pause for the whole deployment (they take no round).
 */
export function toggleFault(ctx: ServiceContext, fault: FaultName, round: number | undefined, on: boolean): Faults {
  const roundError = (message: string) => refuse("validation_error", { message: `round: ${message}` }, { extra: { loc: ["body", "round"] } });
  const n = ctx.world.schedule.rounds.length;
  if (deploymentWide(fault)) {
    if (round !== undefined) throw roundError(`${fault} is not tied to a round (got ${round})`);
  } else if (round === undefined || !Number.isInteger(round) || round < 1 || round > n) {
    throw roundError(`expected a round number from 1 to ${n} (got ${round})`);
  }
  return inTransaction(ctx.db, () => {
    const current = faults(ctx);
    const next = deploymentWide(fault) ? { ...current, [fault]: on } : withRound(current, fault, round as number, on);
    storeFaults(ctx, next);
    appendEvent(ctx.db, ctx.clock.now(), "faults.changed", next);
    return next;
  });
}

function withRound(current: Faults, fault: RoundFaultName, round: number, on: boolean): Faults {
  const rounds = new Set(current[fieldOf[fault]] as number[] | undefined);
  if (on) rounds.add(round);
  else rounds.delete(round);
  return { ...current, [fieldOf[fault]]: [...rounds].sort((a, b) => a - b) };
}
