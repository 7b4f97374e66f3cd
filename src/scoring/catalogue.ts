import { seriesDiagnostics } from "./diagnostics.js";

/** One benchmark model's settled round (the designated benchmark's own AIMC is 0). */
export interface BenchmarkRound {
  model: string;
  round: string;
  corr: number;
  aimc: number;
}

/** A benchmark catalogue entry: mean CORR, mean AIMC and the Sharpe of the CORR series over the scored rounds. */
export interface CatalogueEntry {
  model: string;
  rounds_scored: number;
  mean_corr: number;
  mean_aimc: number;
  sharpe: number;
}

/** The benchmark catalogue, one entry per model, ordered by model name; rounds are taken in round-id order. */
export function benchmarkCatalogue(rounds: BenchmarkRound[]): CatalogueEntry[] {
  const byModel = new Map<string, BenchmarkRound[]>();
  for (const r of rounds) {
    const list = byModel.get(r.model);
    if (list) list.push(r);
    else byModel.set(r.model, [r]);
  }
  return [...byModel.keys()].sort().map((model) => {
    const own = byModel.get(model)!.sort((a, b) => (a.round < b.round ? -1 : a.round > b.round ? 1 : 0));
    const corr = seriesDiagnostics(own.map((r) => r.corr));
    return {
      model,
      rounds_scored: own.length,
      mean_corr: corr.mean,
      mean_aimc: seriesDiagnostics(own.map((r) => r.aimc)).mean,
      sharpe: corr.sharpe,
    };
  });
}
