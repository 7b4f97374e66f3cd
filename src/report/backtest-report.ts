/**
 * What a backtest reports: one strategy walked forward over a scenario's validation expeds and
 * scored by the settlement engine, side by side with the designated benchmark and any `--against`
 * strategies. `basecamp backtest --json` prints this object as is; the terminal table and the
 * HTML page are rendered from it, so every face shows the same numbers.
 */

/** One exped of the walk. An exped the strategy did not enter has n 0, null terms and score 0 (a round never entered counts 0). */
export interface ExpedScore {
  exped: string;
  /** Rows CORR was computed on. */
  n: number;
  corr: number | null;
  aimc: number | null;
  ncorr: number | null;
  /** The blended round score: clip(w·terms) with the scenario's live weights and clip. */
  score: number;
}

/** Statistics of one series over the entered expeds (population std, Sharpe = mean/std, 0 when std is 0). */
export interface SeriesStats {
  mean: number;
  std: number;
  sharpe: number;
  /** max(cummax(cumsum) - cumsum) */
  max_drawdown: number;
  /** Share of entered expeds with a value > 0. */
  hit_rate: number;
}

export interface BacktestSummary {
  /** Validation expeds walked. */
  expeds: number;
  /** Expeds the strategy entered and was scored on. */
  entered: number;
  corr: SeriesStats;
  aimc: SeriesStats;
  ncorr: SeriesStats;
  /** The round score; `total` is its sum over every walked exped (the standings' sum). */
  score: SeriesStats & { total: number };
  /** max over the published features of |pearson(prediction, feature)|, over every predicted row where both are present. */
  feature_exposure: number | null;
  /** pearson of this strategy's per-exped CORR series with v1_designated's, over the expeds both entered. */
  benchmark_corr: number | null;
}

/** Why an exped was not entered, as the service or the strategy's runner said it. */
export interface Refusal {
  exped: string;
  reason: string;
}

export interface StrategyBacktest {
  expeds: ExpedScore[];
  summary: BacktestSummary;
  refusals: Refusal[];
}

export interface BacktestReport extends StrategyBacktest {
  /** The strategy under test, as named on the command line (file name without its directory). */
  strategy: string;
  /** v1_designated, then each `--against` strategy, in the order given. */
  against: Record<string, StrategyBacktest>;
  /** Where the numbers come from. */
  context: {
    scenario: string;
    train_rows: number;
    validation_rows: number;
    weights: { corr: number; aimc: number; ncorr: number };
    clip: number;
  };
}
