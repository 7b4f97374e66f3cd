import type { ExpedScore } from "../../src/report/backtest-report.js";
import { sameStrings } from "../../src/domain/same-strings.js";
import type { FeatureExposures } from "../../src/scoring/feature-exposures.js";
import { expedDiagnostics, exposuresOf, maxExposure, predictedExpeds, type ExpedDiagnostics, type WalkedRound } from "./summary.js";
import type { WalkEntry } from "./walk.js";

/** What the report computes of one contender's predictions besides their settled rows: per entered exped, and its feature exposures. */
export interface ContenderDiagnostics {
  byExped: Map<string, ExpedDiagnostics & Pick<ExpedScore, "max_exposure">>;
  exposures: FeatureExposures | null;
}

/** One computation kept: what it was computed from (the walked expeds, each entry's ids and values, the features, the top/bottom setting) and its result. */
interface Kept {
  expeds: string[];
  entries: [string[], Float64Array][];
  features: string[];
  topBottom: number;
  result: ContenderDiagnostics;
}

/** Computations kept per walk; the oldest goes past this (v1_designated's, asked every cell, stays among the recent). */
const KEPT_PER_WALK = 4;
const kept = new WeakMap<object, Kept[]>();

/**
 * The contender's diagnostics (expedDiagnostics, max exposure, feature exposures) on a walk, whose
 * rounds (`walk`, with `truth` and `features` made from them) are shared by the cells of a
 * sweep-worker on the same world (walkWorld). The same predictions on the same walk give the same
 * numbers, so a computation is kept per walk and given again when every exped's ids and values
 * are the same, value for value (v1_designated's are the benchmark's, in every cell): a cell
 * pays for it once per sweep-worker rather than once per cell. The result is shared: read it only.
 */
export function contenderDiagnostics(
  walk: object,
  expeds: string[],
  entries: Map<string, WalkEntry>,
  truth: Map<string, WalkedRound>,
  features: string[],
  topBottom: number,
): ContenderDiagnostics {
  const own: [string[], Float64Array][] = expeds.flatMap((exped) => {
    const e = entries.get(exped);
    return e ? [[e.ids, e.values]] : [];
  });
  const past = kept.get(walk) ?? [];
  const same = past.find((k) => k.topBottom === topBottom && k.features === features && sameStrings(k.expeds, expeds) && sameEntries(k.entries, own));
  if (same) return same.result;
  const rows = predictedExpeds(expeds, entries, truth, features);
  const exposures = exposuresOf(rows);
  const byExped = new Map(rows.map((r, k) => [r.exped, { ...expedDiagnostics(r, topBottom), max_exposure: maxExposure(exposures?.perExped[k], features) }] as const));
  const result = { byExped, exposures };
  kept.set(walk, [...past.slice(1 - KEPT_PER_WALK), { expeds, entries: own, features, topBottom, result }]);
  return result;
}

/** Value for value, NaN equal to NaN and 0 told from -0 (Object.is): the same bits in, the same numbers out. */
function sameValues(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function sameEntries(a: [string[], Float64Array][], b: [string[], Float64Array][]): boolean {
  return a.length === b.length && a.every(([ids, values], k) => sameStrings(ids, b[k][0]) && sameValues(values, b[k][1]));
}
