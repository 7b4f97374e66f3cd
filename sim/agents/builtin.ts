import { z } from "zod";
import { MINUTE } from "../../src/domain/clock.js";
import { DESIGNATED } from "../../src/data/schema.js";
import type { Frame } from "../../src/domain/frame.js";
import { fitRidge } from "./ridge-fit.js";
import type { AgentContext, Predict, Strategy } from "./strategy.js";
import { submitRound } from "./submit-round.js";
import { duringWindow } from "./timing.js";
import { uniformRanks } from "../../src/data/ranks.js";

/** A strategy that acts once in the window and submits what `predict` gives. */
function simple<P>(name: string, summary: string, params: z.ZodType<P>, predict: (p: P) => Predict): Strategy<P> {
  return {
    name,
    kind: "tournament",
    summary,
    params,
    actAt: (slot, _p, rng) => duringWindow(slot, rng),
    act: (ctx, _slot, p) => submitRound(ctx, predict(p)),
  };
}

/** Copies the designated benchmark: its AIMC is exactly 0 by construction. */
const benchmarkCopier = simple("benchmark_copier", "submits the live v1_designated column as is", z.strictObject({}), () => async (ctx, live) => {
  const bench = await ctx.client.downloadBenchmark("futures", "live");
  const column = bench.columns[DESIGNATED];
  if (!column) {
    ctx.log(`live benchmark has no ${DESIGNATED} column; skipping the round`);
    return null;
  }
  const byId = new Map<string, number>();
  bench.ids.forEach((id, i) => byId.set(id, column[i]));
  const out = new Float64Array(live.ids.length);
  for (let i = 0; i < out.length; i++) out[i] = byId.get(live.ids[i]) as number;
  return out;
});

const randomGuesser = simple("random", "uniform random predictions in [0, 1]", z.strictObject({}), () => async (ctx, live) => {
  const out = new Float64Array(live.ids.length);
  for (let i = 0; i < out.length; i++) out[i] = ctx.rng.next();
  return out;
});

export const ridgeParams = z.strictObject({
  lambda: z.number().min(0).default(10),
  /** How many features to use, from the first; all when absent. */
  n_features: z.int().min(1).optional(),
});
type RidgeParams = z.infer<typeof ridgeParams>;

/**
 * Fitted predictors, one per training frame and setting, each with its ranked predictions per live
 * frame (agents with the same setting predict a round alike): derived data, so a resumed run refits the same.
 */
const fits = new WeakMap<Frame, Map<string, { predict: (f: Frame) => Float64Array; ranked: WeakMap<Frame, Float64Array> }>>();

/** Fits on the train split's column of the graded target, which the service names on `GET /api/v1/scoring`. */
export async function ridgePredict(ctx: AgentContext, live: Frame, p: RidgeParams): Promise<Float64Array> {
  const { target } = await ctx.client.explainScoring();
  const train = await ctx.client.downloadDataset("train");
  const features = Object.keys(live.columns).slice(0, p.n_features);
  const key = `${target}/${p.lambda}/${features.length}`;
  let byKey = fits.get(train);
  if (!byKey) fits.set(train, (byKey = new Map()));
  let fit = byKey.get(key);
  if (!fit) byKey.set(key, (fit = { predict: fitRidge(train, features, target, p.lambda), ranked: new WeakMap() }));
  let ranked = fit.ranked.get(live);
  if (!ranked) fit.ranked.set(live, (ranked = uniformRanks(fit.predict(live))));
  return ranked.slice();
}

const ridge = simple("ridge", "ridge regression on the train split's features", ridgeParams, (p) => (ctx, live) => ridgePredict(ctx, live, p));

const oracleParams = z.strictObject({ noise: z.number().min(0).default(1) });

/** Sees the hidden target (a sim-only privilege) through noise: a known-good entry for the board. */
const noisyOracle: Strategy<z.infer<typeof oracleParams>> = {
  ...simple("noisy_oracle", "the realised target plus Gaussian noise (sim-only privilege)", oracleParams, (p) => async (ctx, live) => {
    const target = ctx.peekTarget?.();
    if (!target) throw new Error("noisy_oracle needs the oracle privilege");
    return uniformRanks(Float64Array.from(live.ids, (id) => (target.get(id) as number) + p.noise * ctx.rng.normal()));
  }),
  oracle: true,
};

const skipperParams = ridgeParams.extend({ skip_probability: z.number().min(0).max(1).default(0.4) });

/** A ridge that sits out a share of rounds: a missed round counts 0 in the standings. */
const skipper: Strategy<z.infer<typeof skipperParams>> = {
  name: "skipper",
  kind: "tournament",
  summary: "ridge, but skips each round with probability skip_probability",
  params: skipperParams,
  actAt: (slot, _p, rng) => duringWindow(slot, rng),
  act: async (ctx, _slot, p) => {
    if (ctx.rng.next() < p.skip_probability) {
      ctx.log("skips this round");
      return;
    }
    await submitRound(ctx, (c, live) => ridgePredict(c, live, p));
  },
};

const lateParams = ridgeParams.extend({ spread_minutes: z.int().min(1).default(60) });

/**
 * Acts around the close, within ±spread_minutes: in time it submits a ridge; too late it finds no
 * open round and misses the round.
 */
const late: Strategy<z.infer<typeof lateParams>> = {
  name: "late",
  kind: "tournament",
  summary: "ridge, acting within ±spread_minutes of the close (so it misses some rounds)",
  params: lateParams,
  actAt: (slot, p, rng) => slot.close_at + (rng.int(2 * p.spread_minutes) - p.spread_minutes) * MINUTE,
  act: (ctx, _slot, p) => submitRound(ctx, (c, live) => ridgePredict(c, live, p)),
};

/** Never acts: the seat of an agent that plays from outside, through HTTP, the SDK or MCP (`serve --with-agents`). */
const external: Strategy<Record<string, never>> = {
  name: "external",
  kind: "tournament",
  summary: "never acts: a seat for an agent playing from outside (serve --with-agents)",
  params: z.strictObject({}),
  actAt: (slot) => slot.open_at,
  act: async () => {},
};

export const builtinStrategies: Strategy<any>[] = [benchmarkCopier, randomGuesser, ridge, noisyOracle, skipper, late, external];
