import { asFloat64 } from "../../domain/frame.js";
import { DESIGNATED } from "../../data/schema.js";
import { benchmarkCatalogue, type BenchmarkRound } from "../../scoring/catalogue.js";
import { scoreExped } from "../../scoring/exped.js";
import type { Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { settledRounds } from "../../store/rounds.js";

export interface BenchmarkEntry {
  name: string;
  /** null until a round has settled */
  mean_corr: number | null;
  mean_aimc: number | null;
  sharpe: number | null;
  rounds: number;
}

export interface BenchmarkBoard {
  rank_metric: "mean_corr";
  models: BenchmarkEntry[];
  note?: string;
}

/**
 * The benchmark catalogue (`get_benchmarks`): the designated benchmark scored as if it were an
 * entry on every settled round. Its AIMC is 0 by definition (it is the series AIMC orthogonalises
 * against). Event keys get an empty board with a note, as the real service answers a hackathon key.
 */
export function benchmarkBoard(ctx: ServiceContext, p: Principal): BenchmarkBoard {
  if (p.scope !== "tournament") {
    return { rank_metric: "mean_corr", models: [], note: "The benchmark catalogue is a tournament read." };
  }
  const rounds: BenchmarkRound[] = settledRounds(ctx.db).map(({ exped, idx }) => {
    const live = ctx.world.dataset.rounds[idx - 1];
    const benchmark = asFloat64(live.benchmark.columns[DESIGNATED]);
    const terms = scoreExped({
      ids: live.frame.ids,
      target: live.target,
      benchmark,
      core: ctx.world.dataset.core_features.map((f) => asFloat64(live.frame.columns[f])),
      prediction: benchmark,
    });
    return { model: DESIGNATED, round: exped, corr: terms.corr, aimc: 0 };
  });
  const scored = benchmarkCatalogue(rounds);
  const entry = scored.find((e) => e.model === DESIGNATED);
  return {
    rank_metric: "mean_corr",
    models: [
      entry
        ? { name: DESIGNATED, mean_corr: entry.mean_corr, mean_aimc: entry.mean_aimc, sharpe: entry.sharpe, rounds: entry.rounds_scored }
        : { name: DESIGNATED, mean_corr: null, mean_aimc: null, sharpe: null, rounds: 0 },
    ],
  };
}
