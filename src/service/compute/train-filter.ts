import { rowsByExped, takeRows, type Frame } from "../../domain/frame.js";
import { refuse } from "../../domain/errors.js";
import { Rng } from "../../domain/rng.js";

/** `train_filter`: which expeds of the train split a job trains and cross-validates on. */
export interface TrainFilter {
  /** Only expeds whose label sorts before this one (labels are zero-padded: string order is time order). */
  exped?: { cutoff_lt: string };
  /** A seeded share of the expeds left, drawn whole: `round(fraction × n)`, at least one. */
  sample?: { fraction: number; unit: "exped" };
}

const invalid = (field: string, message: string) => refuse("train_field_invalid", { field, message });

/** Reads `train_filter` (absent: null, the whole train split), refusing what it cannot mean, each refusal naming the field. */
export function parseTrainFilter(v: unknown): TrainFilter | null {
  if (v === undefined) return null;
  const obj = (field: string, x: unknown, keys: string[]): Record<string, unknown> => {
    if (typeof x !== "object" || x === null || Array.isArray(x)) throw invalid(field, `expected an object (got ${JSON.stringify(x)})`);
    const unknown = Object.keys(x).filter((k) => !keys.includes(k));
    if (unknown.length > 0) throw invalid(field, `unknown field ${unknown.join(", ")}; known: ${keys.join(", ")}`);
    return x as Record<string, unknown>;
  };
  const f = obj("train_filter", v, ["exped", "sample"]);
  if (f.exped === undefined && f.sample === undefined) throw invalid("train_filter", "expected exped.cutoff_lt, sample.fraction or both");
  const out: TrainFilter = {};
  if (f.exped !== undefined) {
    const cutoff = obj("train_filter.exped", f.exped, ["cutoff_lt"]).cutoff_lt;
    if (typeof cutoff !== "string" || cutoff.length === 0) throw invalid("train_filter.exped.cutoff_lt", `expected an exped label such as "exped_0100" (got ${JSON.stringify(cutoff)})`);
    out.exped = { cutoff_lt: cutoff };
  }
  if (f.sample !== undefined) {
    const s = obj("train_filter.sample", f.sample, ["fraction", "unit"]);
    if (typeof s.fraction !== "number" || !(s.fraction > 0 && s.fraction <= 1)) {
      throw invalid("train_filter.sample.fraction", `expected a number above 0 and at most 1 (got ${JSON.stringify(s.fraction)})`);
    }
    if (s.unit !== undefined && s.unit !== "exped") throw invalid("train_filter.sample.unit", `expected "exped", the only unit sampled (got ${JSON.stringify(s.unit)})`);
    out.sample = { fraction: s.fraction, unit: "exped" };
  }
  return out;
}

/**
 * The expeds a job trains on, in time order: those before the cutoff, then a sample of them drawn
 * with the job's seed (params.seed, 0 when absent), so the same request always trains on the same
 * expeds. Refused (400) when nothing is left.
 */
export function filteredExpeds(all: string[], filter: TrainFilter | null, seed: number | null): string[] {
  const sorted = [...all].sort();
  if (filter === null) return sorted;
  let kept = filter.exped ? sorted.filter((e) => e < (filter.exped as { cutoff_lt: string }).cutoff_lt) : sorted;
  if (kept.length === 0) throw invalid("train_filter.exped.cutoff_lt", `no train exped sorts before ${filter.exped?.cutoff_lt} (the first is ${sorted[0]})`);
  if (filter.sample) {
    const n = Math.max(1, Math.round(filter.sample.fraction * kept.length));
    const rng = new Rng(seed ?? 0).fork("train_filter.sample");
    const order = kept.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const chosen = new Set(order.slice(0, n));
    kept = kept.filter((_, i) => chosen.has(i));
  }
  return kept;
}

/** The train split's rows in `expeds`, in the split's own order: the whole frame when nothing is filtered out. */
export function trainFrame(train: Frame, expeds: string[]): Frame {
  const byExped = rowsByExped(train);
  if (expeds.length === byExped.size) return train;
  const keep = new Set(expeds);
  return takeRows(train, train.exped.flatMap((e, i) => (keep.has(e) ? [i] : [])));
}

/** The train rows a job trains and cross-validates on: its train_filter's expeds, or the whole split. */
export function jobTrainFrame(train: Frame, req: { train_filter?: TrainFilter; params: { seed: number | null } }): Frame {
  if (!req.train_filter) return train;
  return trainFrame(train, filteredExpeds([...rowsByExped(train).keys()], req.train_filter, req.params.seed));
}
