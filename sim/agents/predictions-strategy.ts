import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { z } from "zod";
import { parsePredictionsFile } from "../../src/data/predictions-file.js";
import type { Strategy } from "./strategy.js";
import { duringWindow } from "./timing.js";

/** The largest predictions file a strategy reads (checked before reading it). */
export const PREDICTIONS_FILE_MAX_BYTES = 1 << 30;

/** The user's own file, read once: bounded only so a damaged one fails instead of exhausting memory. */
const LOCAL_LIMITS = { max_bytes: PREDICTIONS_FILE_MAX_BYTES, max_rows: 10_000_000, max_uncompressed_bytes: 4 * PREDICTIONS_FILE_MAX_BYTES, max_columns: 100_000 };

/**
 * A predictions file (CSV or parquet with `id` and `prediction`) played as a strategy: each round
 * it submits the file's values for the round's instruments. Ids the file lacks are left out, so
 * the service refuses the round with its own text (`Missing predictions for {n} instruments.`).
 */
export async function loadPredictionsStrategy(path: string): Promise<Strategy<Record<string, never>>> {
  const { size } = await stat(path);
  if (size > PREDICTIONS_FILE_MAX_BYTES) throw new Error(`${path} is ${size} bytes, over the ${PREDICTIONS_FILE_MAX_BYTES}-byte limit for a predictions file`);
  const file = parsePredictionsFile(path, await readFile(path), LOCAL_LIMITS);
  const byId = new Map<string, number>();
  file.ids.forEach((id, i) => byId.set(id, file.values[i]));
  return {
    name: basename(path),
    kind: "tournament",
    summary: `the predictions in ${basename(path)}`,
    params: z.strictObject({}),
    actAt: (slot, _p, rng) => duringWindow(slot, rng),
    act: async (ctx) => {
      await ctx.client.createModel({ name: ctx.model });
      const { exped, instrument_ids } = await ctx.client.instruments();
      const predictions = instrument_ids.filter((id) => byId.has(id)).map((instrument_id) => ({ instrument_id, prediction: byId.get(instrument_id) as number }));
      await ctx.client.submit({ model_id: ctx.model, exped, predictions });
    },
  };
}
