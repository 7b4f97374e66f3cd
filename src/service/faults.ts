import { refuse } from "../domain/errors.js";
import { canonicalJson } from "../store/canonical-json.js";
import { inTransaction } from "../store/db.js";
import { appendEvent } from "../store/event-log.js";
import type { ServiceContext } from "./deployment.js";

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
}

export type FaultName = "missing_benchmark" | "empty_live" | "balance_unavailable" | "chain_rpc_unavailable";

const fieldOf: Record<FaultName, keyof Faults> = {
  missing_benchmark: "missing_benchmark_rounds",
  empty_live: "empty_live_rounds",
  balance_unavailable: "balance_unavailable_rounds",
  chain_rpc_unavailable: "chain_rpc_unavailable_rounds",
};

export function faults(ctx: ServiceContext): Faults {
  const row = ctx.db.prepare("SELECT value FROM settings WHERE key = 'faults'").get() as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as Faults) : ctx.world.deployment.faults;
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

export function storeFaults(ctx: ServiceContext, f: Faults): void {
  ctx.db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('faults', ?)").run(canonicalJson(f));
}

/** Turns a fault on or off for one round (an organiser action). */
export function toggleFault(ctx: ServiceContext, fault: FaultName, round: number, on: boolean): Faults {
  const n = ctx.world.schedule.rounds.length;
  if (!Number.isInteger(round) || round < 1 || round > n) {
    throw refuse("validation_error", { message: `round: expected a round number from 1 to ${n} (got ${round})` }, { extra: { loc: ["body", "round"] } });
  }
  return inTransaction(ctx.db, () => {
    const current = faults(ctx);
    const rounds = new Set(current[fieldOf[fault]] ?? []);
    if (on) rounds.add(round);
    else rounds.delete(round);
    const next = { ...current, [fieldOf[fault]]: [...rounds].sort((a, b) => a - b) };
    storeFaults(ctx, next);
    appendEvent(ctx.db, ctx.clock.now(), "faults.changed", next);
    return next;
  });
}
