/**
 * A TypeScript strategy: each round, rank the instruments by the mean of their feature values
 * (missing values, -1, skipped), optionally flipped. Backtest it with
 *
 *     npx basecamp backtest examples/strategy.ts
 *
 * or name it in a scenario: { "name": "mean-ranker", "key": "…", "strategy": "examples/strategy.ts", "params": { "flip": false } }
 *
 * Copied anywhere, it still runs: Basecamp resolves "basecamp-sim/strategy" to its own Strategy API
 * (for your editor's types, `npm install basecamp-sim` beside it).
 */
import { duringWindow, submitRound, uniformRanks, z, type Frame, type Strategy } from "basecamp-sim/strategy";

const params = z.strictObject({ flip: z.boolean().default(false) });

function featureMean(live: Frame, flip: boolean): Float64Array {
  const columns = Object.values(live.columns);
  return Float64Array.from(live.ids, (_, row) => {
    let sum = 0;
    let n = 0;
    for (const column of columns) {
      if (column[row] === -1 || !Number.isFinite(column[row])) continue;
      sum += column[row];
      n++;
    }
    const mean = n === 0 ? 0 : sum / n;
    return flip ? -mean : mean;
  });
}

const meanRanker: Strategy<z.infer<typeof params>> = {
  name: "mean_ranker",
  kind: "tournament",
  summary: "ranks instruments by their mean feature value",
  params,
  actAt: (slot, _params, rng) => duringWindow(slot, rng),
  act: (ctx, _slot, p) => submitRound(ctx, async (_ctx, live) => uniformRanks(featureMean(live, p.flip))),
};

export default meanRanker;
