import { asFloat64, rowsByExped, type Frame } from "../../domain/frame.js";
import { DESIGNATED } from "../../data/schema.js";
import { prepareExped, type PreparedExped } from "../../scoring/exped.js";
import type { ServiceContext } from "../kernel/context.js";
import { benchmarkWithheld } from "../kernel/faults.js";
import type { Lane } from "../../store/uploads.js";

/** The prepared expeds a lane scores against: the validation split, or one round's live split. */
const cache = new WeakMap<Frame, Map<string, PreparedExped[]>>();

export function laneTruth(ctx: ServiceContext, lane: Lane, window: string | null): PreparedExped[] {
  const { dataset, schedule } = ctx.world;
  if (lane === "practice") {
    const validation = dataset.validation;
    return prepared(validation, "practice", () => byExped(validation, asFloat64(validation.columns[dataset.target]), dataset.benchmarks.validation, ctx));
  }
  const index = schedule.rounds.findIndex((r) => r.window === window);
  const live = dataset.rounds[index];
  const withheld = benchmarkWithheld(ctx, index + 1);
  return prepared(live.frame, withheld ? "withheld" : "full", () =>
    byExped(live.frame, live.target, withheld ? null : live.benchmark, ctx),
  );
}

function prepared(frame: Frame, key: string, build: () => PreparedExped[]): PreparedExped[] {
  let byKey = cache.get(frame);
  if (!byKey) cache.set(frame, (byKey = new Map()));
  let p = byKey.get(key);
  if (!p) byKey.set(key, (p = build()));
  return p;
}

/** One prepared exped per exped label of `frame`, in label order. */
function byExped(frame: Frame, target: Float64Array, benchmark: Frame | null, ctx: ServiceContext): PreparedExped[] {
  const benchmarkById = new Map<string, number>();
  if (benchmark?.columns[DESIGNATED]) {
    const col = benchmark.columns[DESIGNATED];
    benchmark.ids.forEach((id, i) => benchmarkById.set(id, col[i]));
  }
  const rows = rowsByExped(frame);
  const core = ctx.world.dataset.core_features;
  return [...rows.keys()].sort().map((label) => {
    const r = rows.get(label) as number[];
    return prepareExped({
      ids: r.map((i) => frame.ids[i]),
      target: Float64Array.from(r, (i) => target[i]),
      benchmark: benchmark ? Float64Array.from(r, (i) => benchmarkById.get(frame.ids[i]) ?? Number.NaN) : null,
      core: core.map((f) => Float64Array.from(r, (i) => frame.columns[f][i])),
    });
  });
}
