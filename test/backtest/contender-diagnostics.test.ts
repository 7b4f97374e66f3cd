import { describe, expect, it } from "vitest";
import { contenderDiagnostics } from "../../sim/backtest/contender-diagnostics.js";
import type { WalkedRound } from "../../sim/backtest/summary.js";
import type { WalkEntry } from "../../sim/backtest/walk.js";
import type { StandingRow } from "../../src/scoring/standings.js";
import { DESIGNATED } from "../../src/data/schema.js";

/** A walk of three expeds of 60 rows and 8 features, values from a fixed linear congruential sequence. */
function walk(): { rounds: object; expeds: string[]; truth: Map<string, WalkedRound>; features: string[] } {
  let seed = 11;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const column = (n: number) => Float64Array.from({ length: n }, next);
  const features = Array.from({ length: 8 }, (_, j) => `feature_${j}`);
  const expeds = ["exped_0001", "exped_0002", "exped_0003"];
  const truth = new Map(
    expeds.map((exped) => {
      const ids = Array.from({ length: 60 }, (_, i) => `${exped}-${String(i).padStart(3, "0")}`);
      const frame = { ids, exped: ids.map(() => exped), columns: Object.fromEntries(features.map((f) => [f, Float64Array.from(column(60), (v) => Math.floor(v * 5))])) };
      const benchmark = { ids, exped: ids.map(() => exped), columns: { [DESIGNATED]: column(60) } };
      return [exped, { frame, target: column(60), benchmark, row: new Map(ids.map((id, i) => [id, i])) }] as const;
    }),
  );
  return { rounds: [...truth.values()], expeds, truth, features };
}

/** A contender's entries: its predictions on each exped (seeded), on the exped's rows in order. */
function entries(w: ReturnType<typeof walk>, seed: number): Map<string, WalkEntry> {
  let s = seed;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  return new Map(w.expeds.map((exped) => {
    const ids = [...w.truth.get(exped)!.frame.ids];
    return [exped, { ids, values: Float64Array.from(ids, next), row: {} as StandingRow }] as const;
  }));
}

describe("a contender's diagnostics on a walk", () => {
  it("are computed once per walk for the same predictions (given again, the same numbers), and afresh for any other", () => {
    const w = walk();
    const first = contenderDiagnostics(w.rounds, w.expeds, entries(w, 3), w.truth, w.features, 10);
    const again = contenderDiagnostics(w.rounds, w.expeds, entries(w, 3), w.truth, w.features, 10);
    expect(again).toBe(first);
    const fresh = contenderDiagnostics(walk().rounds, w.expeds, entries(w, 3), w.truth, w.features, 10);
    expect(fresh).not.toBe(first);
    expect(fresh).toEqual(first);

    const changed = entries(w, 3);
    const e = changed.get("exped_0002")!;
    e.values = Float64Array.from(e.values);
    e.values[7] = -e.values[7];
    const other = contenderDiagnostics(w.rounds, w.expeds, changed, w.truth, w.features, 10);
    expect(other).not.toBe(first);
    expect(other.byExped.get("exped_0001")).toEqual(first.byExped.get("exped_0001"));
    expect(other.byExped.get("exped_0002")).not.toEqual(first.byExped.get("exped_0002"));
    expect(contenderDiagnostics(w.rounds, w.expeds, entries(w, 3), w.truth, w.features, 5)).not.toBe(first);
    expect(contenderDiagnostics(w.rounds, w.expeds.slice(0, 2), entries(w, 3), w.truth, w.features, 10)).not.toBe(first);
  });
});
