import type { StrategyFault } from "../../sim/agents/strategy-watch.js";
import { lastLines } from "../participant/log-tail.js";
import { shownPath } from "./backtest-outputs.js";

/** How many of the log's last lines are shown with a failure. */
export const LOG_LINES_SHOWN = 20;

/** One line: which agent's which call failed, where, and why. */
export function faultLine(f: StrategyFault): string {
  return `${f.agent}: ${f.call}${f.exped ? ` (exped ${f.exped})` : ""} failed: ${f.error}`;
}

/**
 * A failure as a user debugging their strategy wants it: the line, Python's traceback (their file
 * and line), and the last lines their strategy printed, with the log's path.
 */
export function formatFault(f: StrategyFault): string {
  const parts = [faultLine(f)];
  if (f.traceback) parts.push(f.traceback.trimEnd());
  if (f.log) {
    const shown = shownPath(f.log);
    const lines = lastLines(f.log, LOG_LINES_SHOWN);
    parts.push(lines.length === 0 ? `${shown}: nothing printed` : `last ${lines.length} lines of ${shown}:\n${lines.map((l) => `  ${l}`).join("\n")}`);
  }
  return `${parts.join("\n")}\n`;
}
