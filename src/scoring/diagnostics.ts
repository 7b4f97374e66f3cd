import { lag1Autocorrelation } from "./autocorrelation.js";
import { pearson } from "./pearson.js";
import { isConstant, mean, std } from "./vector.js";

/** Display-only statistics of a per-exped (or per-round) series of one term. They never affect rank. */
export interface SeriesDiagnostics {
  mean: number;
  /** population (ddof 0); exactly 0 for a constant series (where rounding would leave a trace) */
  std: number;
  /** mean / std; 0 when std is 0 */
  sharpe: number;
  /** `max(cummax(cumsum) - cumsum)` */
  max_drawdown: number;
  /** pearson(x[0..n-2], x[1..n-1]) */
  autocorrelation: number;
  /** pearson(series, benchmark series); null when no benchmark series is given */
  benchmark_corr: number | null;
}

export function seriesDiagnostics(series: ArrayLike<number>, benchmark?: ArrayLike<number>): SeriesDiagnostics {
  const x = Float64Array.from(series);
  const n = x.length;
  if (benchmark && benchmark.length !== n) throw new Error(`benchmark series has ${benchmark.length} values for ${n}`);
  const m = n === 0 ? 0 : mean(x, n);
  const sd = n === 0 || isConstant(x, n) ? 0 : std(x, n);
  return {
    mean: m,
    std: sd,
    sharpe: sd === 0 ? 0 : m / sd,
    max_drawdown: maxDrawdown(x),
    autocorrelation: lag1Autocorrelation(x),
    benchmark_corr: benchmark ? pearson(x, Float64Array.from(benchmark), n) : null,
  };
}

/** `max(cummax(cumsum) - cumsum)`: the deepest fall of the cumulative series below its running peak. */
export function maxDrawdown(x: Float64Array): number {
  let cum = 0;
  let peak = -Infinity;
  let worst = 0;
  for (let i = 0; i < x.length; i++) {
    cum += x[i];
    if (cum > peak) peak = cum;
    if (peak - cum > worst) worst = peak - cum;
  }
  return worst;
}
