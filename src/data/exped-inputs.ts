import type { PackedIds } from "../scoring/packed-ids.js";
import type { HexKeys } from "../scoring/hex-ids.js";
import { ExpedRows } from "./exped-buffers.js";
import type { RowBatch } from "./row-batch.js";

/** One exped of a file, gathered whole: its ids as keys or packed, each row's place in the file (0-based data row) and the numeric columns. */
export interface GatheredExped {
  exped: string;
  ids: PackedIds | HexKeys;
  rows: Int32Array;
  columns: Float64Array[];
}

/** Thrown when an exped's rows come back after another exped's (the file is not in runs of expeds). */
export class InterleavedExpeds extends Error {}

/**
 * The expeds of a file as soon as each is complete, so only the expeds being gathered are in
 * memory. Without `lastRows`, an exped is taken as complete when its run of rows ends (files in
 * runs of expeds, the usual layout); a label seen again after that throws InterleavedExpeds.
 * With `lastRows` (each label's last data row, from `lastRowOfEachExped`), an exped is complete at
 * its last row, whatever the layout. Each exped's buffers start at the size of the exped before it
 * (expeds are usually the same size), so they are handed over without a copy.
 */
export async function* gatherExpeds(
  batches: AsyncIterable<RowBatch>,
  width: number,
  lastRows: Map<string, number> | null = null,
): AsyncGenerator<GatheredExped> {
  const open = new Map<string, ExpedRows>();
  const done = new Set<string>();
  let expected: number | undefined;
  const close = (exped: string): GatheredExped => {
    const gathered = open.get(exped)!.take();
    expected = gathered.rows.length;
    open.delete(exped);
    done.add(exped);
    return { exped, ...gathered };
  };
  let current: string | null = null;
  let first = 0;
  for await (const batch of batches) {
    for (let k = 0; k < batch.runLabels.length; k++) {
      const exped = batch.runLabels[k];
      const from = batch.runStarts[k];
      const to = k + 1 < batch.runStarts.length ? batch.runStarts[k + 1] : batch.length;
      if (to === from) continue;
      if (!lastRows && current !== null && exped !== current) yield close(current);
      if (done.has(exped)) throw new InterleavedExpeds(`exped '${exped}' comes back after other expeds' rows`);
      let rows = open.get(exped);
      if (!rows) open.set(exped, (rows = new ExpedRows(width, expected)));
      rows.append(batch, from, to, first);
      current = exped;
      if (lastRows?.get(exped) === first + to - 1) yield close(exped);
    }
    first += batch.length;
  }
  for (const exped of [...open.keys()]) yield close(exped);
}

/** Each exped label's last data row, from a pass over the file's labels alone. */
export async function lastRowOfEachExped(batches: AsyncIterable<RowBatch>): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  let first = 0;
  for await (const batch of batches) {
    batch.runLabels.forEach((exped, k) => {
      const to = k + 1 < batch.runStarts.length ? batch.runStarts[k + 1] : batch.length;
      if (to > batch.runStarts[k]) last.set(exped, first + to - 1);
    });
    first += batch.length;
  }
  return last;
}
