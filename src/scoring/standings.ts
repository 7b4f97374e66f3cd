/** How a board folds a model's round scores: the sum (default; a round not entered counts 0) or the exped-weighted mean. */
export type Aggregate = "sum" | "exped_weighted_mean";

/** One model's settled round. */
export interface RoundResult {
  model_id: string;
  model: string;
  round: string;
  n_expeds: number;
  corr: number;
  aimc: number;
  ncorr: number;
  score: number;
}

export interface StandingRow {
  rank: number;
  model_id: string;
  model: string;
  rounds_scored: number;
  corr: number;
  aimc: number;
  ncorr: number;
  total: number;
}

export interface Board {
  rank_metric: string;
  rows: StandingRow[];
}

const RANK_METRIC: Record<Aggregate, string> = {
  sum: "total_score",
  exped_weighted_mean: "exped_weighted_mean_score",
};

/**
 * Standings over `results` for every model in `models` (a model with no results has total 0).
 * `total` = Σ round scores, or Σ n_expeds·score / Σ n_expeds; the term columns are the model's
 * mean term over its scored rounds. Ordered by total descending, ties by model_id ascending.
 * A round board is the same call with one round's results.
 */
export function standings(
  results: RoundResult[],
  models: { model_id: string; model: string }[],
  aggregate: Aggregate = "sum",
): Board {
  const byModel = new Map<string, RoundResult[]>();
  for (const r of results) {
    const list = byModel.get(r.model_id);
    if (list) list.push(r);
    else byModel.set(r.model_id, [r]);
  }
  const rows = models.map((m) => {
    const own = byModel.get(m.model_id) ?? [];
    const k = own.length;
    const meanOf = (pick: (r: RoundResult) => number) => (k === 0 ? 0 : own.reduce((s, r) => s + pick(r), 0) / k);
    return {
      rank: 0,
      model_id: m.model_id,
      model: m.model,
      rounds_scored: k,
      corr: meanOf((r) => r.corr),
      aimc: meanOf((r) => r.aimc),
      ncorr: meanOf((r) => r.ncorr),
      total: aggregate === "sum" ? own.reduce((s, r) => s + r.score, 0) : expedWeightedMean(own),
    };
  });
  rows.sort((a, b) => b.total - a.total || (a.model_id < b.model_id ? -1 : a.model_id > b.model_id ? 1 : 0));
  rows.forEach((row, i) => (row.rank = i + 1));
  return { rank_metric: RANK_METRIC[aggregate], rows };
}

function expedWeightedMean(own: RoundResult[]): number {
  let weight = 0;
  let sum = 0;
  for (const r of own) {
    weight += r.n_expeds;
    sum += r.n_expeds * r.score;
  }
  return weight === 0 ? 0 : sum / weight;
}
