import type { Frame } from "../../src/domain/frame.js";
import { DESIGNATED } from "../../src/data/schema.js";
import type { World } from "../../src/service/kernel/deployment.js";
import type { WalkPredictions } from "./backtest.js";

/**
 * A walk's predictions as the frame `basecamp score` reads: `id`, `exped`, `prediction`, the scored
 * target as `target`, `v1_designated` and the core features (named so that `--core` can list
 * them), one row per predicted instrument, expeds in walk order.
 */
export function scoredFrame(predictions: WalkPredictions, world: World): Frame {
  const { core_features } = world.dataset;
  const rounds = new Map(world.dataset.rounds.map((r) => [r.exped, r] as const));
  const ids: string[] = [];
  const exped: string[] = [];
  const columns: Record<string, number[]> = Object.fromEntries(["prediction", "target", DESIGNATED, ...core_features].map((c) => [c, [] as number[]]));
  for (const p of predictions) {
    const round = rounds.get(p.exped);
    if (!round) throw new Error(`no round ${p.exped} in the walk`);
    const row = new Map(round.frame.ids.map((id, i) => [id, i] as const));
    const benchmark = new Map(round.benchmark.ids.map((id, i) => [id, round.benchmark.columns[DESIGNATED][i]] as const));
    p.ids.forEach((id, i) => {
      const r = row.get(id) as number;
      ids.push(id);
      exped.push(p.exped);
      columns.prediction.push(p.values[i]);
      columns.target.push(round.target[r]);
      columns[DESIGNATED].push(benchmark.get(id) as number);
      for (const f of core_features) columns[f].push(round.frame.columns[f][r]);
    });
  }
  return { ids, exped, columns: Object.fromEntries(Object.entries(columns).map(([c, v]) => [c, Float64Array.from(v)])) };
}
