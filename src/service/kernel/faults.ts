import { deploymentFaultNames, type DeploymentFaultName, type FaultName, type Faults, type RoundFaultName } from "../../contract/faults.js";
import { refuse } from "../../domain/errors.js";
import { canonicalJson } from "../../store/canonical-json.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "./context.js";
import { faultsJson, setFaultsJson } from "../../store/settings.js";

export type { DeploymentFaultName, FaultName, Faults, RoundFaultName } from "../../contract/faults.js";

const deploymentWide = (f: FaultName): f is DeploymentFaultName => (deploymentFaultNames as readonly string[]).includes(f);

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
