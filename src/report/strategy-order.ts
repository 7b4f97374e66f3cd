/** The order every view lists a report's strategies in: the strategy under test, v1_designated, then the others as given. */
import type { BacktestReport, StrategyBacktest } from "./backtest-report.js";

export const BENCHMARK = "v1_designated";

export interface NamedBacktest {
  name: string;
  backtest: StrategyBacktest;
}

export function strategiesOf(report: BacktestReport): NamedBacktest[] {
  const { strategy, against, expeds, summary, refusals } = report;
  const others = Object.entries(against).sort(([a], [b]) => Number(b === BENCHMARK) - Number(a === BENCHMARK));
  return [{ name: strategy, backtest: { expeds, summary, refusals } }, ...others.map(([name, backtest]) => ({ name, backtest }))];
}
