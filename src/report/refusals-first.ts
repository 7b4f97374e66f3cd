/** Where the refusals go: at the top of a report when they dominate it, so a walk that mostly failed says why before its empty rows. */
import type { BacktestReport } from "./backtest-report.js";
import { strategiesOf } from "./strategy-order.js";

/** True when some strategy was refused at least half of the walked expeds. */
export function refusalsDominate(report: BacktestReport): boolean {
  const walked = report.expeds.length;
  return walked > 0 && strategiesOf(report).some(({ backtest }) => 2 * backtest.refusals.length >= walked);
}
