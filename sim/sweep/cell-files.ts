import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { strategyFileKind } from "../agents/strategy-file.js";
import type { PlannedCell } from "./cells.js";

/**
 * Each cell's digest of the files it runs: its strategy's and its --against strategies' files and
 * its scenario file, each file's bytes (a built-in strategy is Basecamp's own code, and a dataset
 * directory is known by its path alone: reading gigabytes to resume would cost more than the
 * cells). The results store keeps it with the cell's outcome, so that --resume runs again a done
 * cell whose files have changed since (an edited strategy) rather than ranking its old numbers
 * beside the new code's.
 */
export function cellFileDigests(cells: PlannedCell[]): Map<number, string> {
  const files = new Map<string, string>();
  const digestOf = (path: string): string => {
    let digest = files.get(path);
    if (digest === undefined) {
      digest = statSync(path, { throwIfNoEntry: false })?.isFile() ? sha256(readFileSync(path)) : "absent";
      files.set(path, digest);
    }
    return digest;
  };
  return new Map(
    cells.map(({ index, cell }) => {
      const named = [...(cell.strategy === undefined ? [] : [cell.strategy]), ...cell.against].filter((s) => strategyFileKind(s) !== null);
      return [index, sha256([...named, cell.scenario].map(digestOf).join("\n"))];
    }),
  );
}

const sha256 = (bytes: string | Buffer): string => createHash("sha256").update(bytes).digest("hex");
