/**
 * What a backtest reports: one strategy walked forward over a scenario's validation expeds and
 * scored by the settlement engine, side by side with the designated benchmark and any `--against`
 * strategies. `basecamp backtest --json` prints this object as is; the terminal table and the
 * HTML page are rendered from it, so every face shows the same numbers.
 */

/** The top/bottom CORR's default: a fifth of each exped's rows at each end (18 + 18 of a 92-row exped, 40 + 40 of the generator's 200). */
export const DEFAULT_TOP_BOTTOM = 0.2;
/** The rolling charts' default window: ten expeds, a third of the default tournament's 30 validation expeds. */
export const DEFAULT_ROLLING_WINDOW = 10;

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
  /** Feature-neutral CORR: NCORR's kernel with every published feature as the core set; null when not entered or when rows·features² exceeds FN_CORR_MAX_WORK. */
  fn_corr: number | null;
  /** CORR over the top and bottom rows by prediction only (`context.top_bottom` rows or share of rows at each end). */
  tb_corr: number | null;
  /** pearson(g(prediction), g(v1_designated)) over the rows where both are finite: how much of the prediction is the benchmark. */
  designated_corr: number | null;
  /** The largest |pearson(prediction, feature)| on this exped, and its feature. */
  max_exposure: { feature: string; value: number } | null;
}

/**
 * Statistics of one series over the entered expeds, per exped and never annualised (definitions in
 * docs/scoring.md): population std (ddof 0), Sharpe = mean/std (0 when std is 0).
 */
export interface SeriesStats {
  mean: number;
  std: number;
  sharpe: number;
  /** Sharpe divided by the lag-1 autocorrelation penalty √(1 + 2·Σ_{i<n} ((n-i)/n)·ρ^i). */
  smart_sharpe: number;
  /** max(cummax(cumsum) - cumsum): additive, in the series' units. */
  max_drawdown: number;
  /** Expeds from the peak before the deepest drawdown to the recovery of that peak (or to the last exped). */
  max_drawdown_expeds: number;
  /** mean / max_drawdown, both per exped; null when the drawdown is 0. */
  calmar: number | null;
  /** Share of entered expeds with a value > 0. */
  hit_rate: number;
  /** Lag-1 autocorrelation pearson(x[0..n-2], x[1..n-1]). */
  autocorrelation: number;
  /** This series' mean, std and Sharpe minus v1_designated's of the same series; null without the benchmark. */
  vs_benchmark: { mean: number; std: number; sharpe: number } | null;
}

/** One feature's exposure |pearson(prediction, feature)|: the mean over the entered expeds of each exped's, and pooled over all their rows. */
export interface FeatureExposure {
  feature: string;
  mean: number;
  pooled: number;
}

/** Feature exposure over the published features. */
export interface ExposureSummary {
  /** Mean over the entered expeds of each exped's max |pearson(prediction, feature)| (numerblox's max_feature_exposure). */
  mean_max: number;
  /** The feature that is the exped's max most often (the first in feature order on a tie). */
  mean_max_feature: string;
  /** max over features of |pearson| over every predicted row pooled (the report's feature exposure before). */
  pooled_max: number;
  pooled_max_feature: string;
  /** The 10 features with the largest mean exposure, largest first. */
  top: FeatureExposure[];
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
  /** Feature-neutral CORR (every published feature) over the entered expeds that have one; null when none has. */
  fn_corr: SeriesStats | null;
  /** Top/bottom CORR per exped. */
  tb_corr: SeriesStats;
  /** Feature exposure; null without features or rows. */
  feature_exposure: ExposureSummary | null;
  /** Mean over the entered expeds of the prediction-level corr with v1_designated (ExpedScore.designated_corr). */
  designated_corr: number | null;
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
    /** Rows at each end of the top/bottom CORR: a whole number of rows, or a fraction (≤ 0.5) of each exped's rows. */
    top_bottom: number;
    /** Expeds in the HTML page's rolling mean and rolling Sharpe. */
    rolling_window: number;
  };
}
