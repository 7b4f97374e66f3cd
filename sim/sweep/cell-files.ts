import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { strategyFileKind } from "../agents/strategy-file.js";
import type { PlannedCell } from "./cells.js";
import { cellStrategies } from "./run-cell.js";

/**
 * Each cell's digest of the files it runs, each file's bytes: its strategy's and its --against
 * strategies' files and its scenario file, or for a replay its scenario file and its agents' files
 * (a built-in strategy is Basecamp's own code, and a dataset directory is known by its path alone:
 * reading gigabytes to resume would cost more than the cells). The results store keeps it with the
 * cell's outcome, so that --resume runs again a done cell whose files have changed since (an edited
 * strategy) rather than ranking its old numbers beside the new code's.
 */
export function cellFileDigests(cells: PlannedCell[]): Map<number, string> {
  const digests = new Map<string, string>();
  const digestOf = (path: string): string => {
    let digest = digests.get(path);
    if (digest === undefined) digests.set(path, (digest = fileDigest(path)));
    return digest;
  };
  // A replayed scenario's agents, by its file, read once (cellStrategies parses the scenario).
  const agents = new Map<string, string[]>();
  const agentsOf = (cell: PlannedCell["cell"]): string[] => {
    let strategies = agents.get(cell.scenario);
    if (strategies === undefined) agents.set(cell.scenario, (strategies = cellStrategies(cell)));
    return strategies;
  };
  return new Map(
    cells.map(({ index, cell }) => {
      const strategies = cell.kind === "backtest" ? cellStrategies(cell) : agentsOf(cell);
      const files = [...strategies.filter((s) => strategyFileKind(s) !== null), cell.scenario];
      return [index, createHash("sha256").update(files.map(digestOf).join("\n")).digest("hex")];
    }),
  );
}

const CHUNK_BYTES = 1 << 20;

/** The sha256 of a file's bytes, read a chunk at a time (a model file may be gigabytes), or "absent" where there is no file. */
function fileDigest(path: string): string {
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return "absent";
  const hash = createHash("sha256");
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    for (let n; (n = readSync(fd, chunk, 0, CHUNK_BYTES, null)) > 0; ) hash.update(chunk.subarray(0, n));
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return hash.digest("hex");
}
