import { extname, join } from "node:path";

/** How a scenario's `strategy` names a file: by its extension. */
export type StrategyFileKind = "python" | "pickle" | "module" | "predictions";

const KINDS: Record<string, StrategyFileKind> = {
  ".py": "python",
  ".pkl": "pickle",
  ".ts": "module",
  ".js": "module",
  ".mjs": "module",
  ".csv": "predictions",
  ".parquet": "predictions",
};

/** The kind of file a strategy names, or null for a built-in strategy's name. */
export function strategyFileKind(strategy: string): StrategyFileKind | null {
  return KINDS[extname(strategy).toLowerCase()] ?? null;
}

/** Whether a strategy names a file that runs in a Python worker (a `.py` strategy or a `.pkl` model file). */
export function runsInPythonWorker(strategy: string): boolean {
  const kind = strategyFileKind(strategy);
  return kind === "python" || kind === "pickle";
}

/** Where a Python or model-file agent's stdout and stderr go in a log directory: `<agent>.log`. */
export function strategyLogFile(logDir: string, agent: string): string {
  return join(logDir, `${agent}.log`);
}

/** The model name a file strategy plays under by default: its file name without directory or extension. */
export function strategyFileLabel(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.slice(0, base.length - extname(base).length);
}
