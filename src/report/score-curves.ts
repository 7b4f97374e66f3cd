/**
 * Each strategy's round-score curves for the HTML charts, on the strategy under test's expeds:
 * the drawdown of the cumulative score and the rolling mean and Sharpe. Each runs over the expeds
 * the strategy entered, as the summary's statistics do, and is placed at those expeds (a rolling
 * value at the last exped of its window); null elsewhere.
 */
import type { BacktestReport } from "./backtest-report.js";
import type { LineSeries } from "./line-chart.js";
import { strategiesOf } from "./strategy-order.js";
import { drawdownCurve } from "../scoring/drawdown-curve.js";
import { rollingMean } from "../scoring/rolling-mean.js";
import { rollingSharpe } from "../scoring/rolling-sharpe.js";

/** One series per strategy of `curve` over its entered scores; `curve` gives one value per score, or fewer for the last scores (a rolling window). */
function curves(report: BacktestReport, curve: (scores: number[]) => number[]): { expeds: string[]; series: LineSeries[] } {
  const expeds = report.expeds.map((e) => e.exped);
  const series = strategiesOf(report).map(({ name, backtest }) => {
    const entered = backtest.expeds.filter((e) => e.corr !== null);
    const values = curve(entered.map((e) => e.score));
    const at = new Map(entered.slice(entered.length - values.length).map((e, k) => [e.exped, values[k]] as const));
    return { name, values: expeds.map((exped) => at.get(exped) ?? null) };
  });
  return { expeds, series };
}

/** The fall of each cumulative score below its running peak, drawn below 0: `-(cummax(c) - c)`. */
export const drawdownSeries = (report: BacktestReport) => curves(report, (x) => drawdownCurve(x).map((d) => (d === 0 ? 0 : -d)));

/** The rolling mean of each round score over `report.context.rolling_window` expeds. */
export const rollingMeanSeries = (report: BacktestReport) => curves(report, (x) => rollingMean(x, report.context.rolling_window));

/** The rolling Sharpe (mean / population std) of each round score over `report.context.rolling_window` expeds. */
export const rollingSharpeSeries = (report: BacktestReport) => curves(report, (x) => rollingSharpe(x, report.context.rolling_window));
