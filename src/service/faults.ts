import { refuse } from "../domain/errors.js";
import { canonicalJson } from "../store/canonical-json.js";
import { inTransaction } from "../store/db.js";
import { appendEvent } from "../store/event-log.js";
import type { ServiceContext } from "./deployment.js";

/** Faults an organiser can inject; they start as the scenario sets them and can be toggled live. */
export interface Faults {
  /** Rounds (1-based) whose live benchmark file lacks `v1_designated`: they never settle. */
  missing_benchmark_rounds: number[];
}

export function faults(ctx: ServiceContext): Faults {
  const row = ctx.db.prepare("SELECT value FROM settings WHERE key = 'faults'").get() as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as Faults) : ctx.world.deployment.faults;
}

export function benchmarkWithheld(ctx: ServiceContext, roundIndex: number): boolean {
  return faults(ctx).missing_benchmark_rounds.includes(roundIndex);
}

export function storeFaults(ctx: ServiceContext, f: Faults): void {
  ctx.db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('faults', ?)").run(canonicalJson(f));
}

/** Turns the missing-benchmark fault on or off for one round (an organiser action). */
export function toggleMissingBenchmark(ctx: ServiceContext, round: number, on: boolean): Faults {
  const n = ctx.world.schedule.rounds.length;
  if (!Number.isInteger(round) || round < 1 || round > n) {
    throw refuse("validation_error", { message: `round: expected a round number from 1 to ${n} (got ${round})` }, { extra: { loc: ["body", "round"] } });
  }
  return inTransaction(ctx.db, () => {
    const current = new Set(faults(ctx).missing_benchmark_rounds);
    if (on) current.add(round);
    else current.delete(round);
    const next = { missing_benchmark_rounds: [...current].sort((a, b) => a - b) };
    storeFaults(ctx, next);
    appendEvent(ctx.db, ctx.clock.now(), "faults.changed", next);
    return next;
  });
}
