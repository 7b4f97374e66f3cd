/** Each strategy's cumulative round score, exped by exped, on the strategy under test's expeds. */
import type { BacktestReport } from "./backtest-report.js";
import { strategiesOf } from "./strategy-order.js";

export interface CumulativeSeries {
  name: string;
  /** values[i] = sum of the scores of expeds[0..i]; an exped not entered (or not walked) adds 0. */
  values: number[];
}

export function cumulativeScores(report: BacktestReport): { expeds: string[]; series: CumulativeSeries[] } {
  const expeds = report.expeds.map((e) => e.exped);
  const series = strategiesOf(report).map(({ name, backtest }) => {
    const score = new Map(backtest.expeds.map((e) => [e.exped, e.score]));
    let sum = 0;
    return { name, values: expeds.map((exped) => (sum += score.get(exped) ?? 0)) };
  });
  return { expeds, series };
}
