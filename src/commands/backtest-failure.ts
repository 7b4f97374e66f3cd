import { faultLine, type StrategyFault } from "../../sim/agents/strategy-watch.js";
import { lastLines } from "../participant/log-tail.js";
import { shownPath } from "./output-paths.js";

/** How many of the log's last lines are shown with a failure. */
const LOG_LINES_SHOWN = 20;

/**
 * A failure as a user debugging their strategy wants it: the line, Python's traceback (their file
 * and line), and the last lines their strategy printed (if any), with the log's path.
 */
export function formatFault(f: StrategyFault): string {
  const parts = [faultLine(f)];
  if (f.traceback) parts.push(f.traceback.trimEnd());
  const lines = f.log ? lastLines(f.log, LOG_LINES_SHOWN) : [];
  if (f.log && lines.length > 0) parts.push(`last ${lines.length} lines of ${shownPath(f.log)}:\n${lines.map((l) => `  ${l}`).join("\n")}`);
  return `${parts.join("\n")}\n`;
}
