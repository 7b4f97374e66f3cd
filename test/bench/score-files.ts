/**
 * W1-shaped predictions files for the end-to-end `score` bench: `expeds` expeds × 5,000 rows of the
 * W1 generator (`w1-data.ts`) as CSV and as parquet, written a slice of expeds at a time so
 * even 4×W1 never sits in memory whole. Columns: id, exped, prediction, target, v1_designated,
 * feature_0..9. Files are cached under data/cache/score-e2e/ (git-ignored) and reused.
 */
import { closeSync, createWriteStream, existsSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { Writable } from "node:stream";
import { Table, tableToIPC } from "apache-arrow";
import { Compression, Table as WasmTable, transformParquetStream, WriterPropertiesBuilder, type RecordBatch } from "parquet-wasm";
import { float64Vector, utf8Vector } from "../../src/data/arrow-columns.js";
import { expedLabel, FEATURES, featureName, ROWS, w1Rows } from "./w1-data.js";

export const CACHE = new URL("../../data/cache/score-e2e/", import.meta.url).pathname;
export const CORE = Array.from({ length: FEATURES }, (_, f) => featureName(f));
/** Column names in file order; the generator's values are target, benchmark, prediction, features. */
const NAMES = ["prediction", "target", "v1_designated", ...CORE];
const VALUE_OF = [2, 0, 1, ...CORE.map((_, f) => 3 + f)];
/** Expeds per slice written at once (and per parquet row group). */
const SLICE = 20;

/** The CSV and parquet files of `expeds` expeds, generated once. */
export async function scoreFiles(expeds: number): Promise<{ csv: string; parquet: string }> {
  mkdirSync(CACHE, { recursive: true });
  const base = `${CACHE}w1-${expeds}`;
  const files = { csv: `${base}.csv`, parquet: `${base}.parquet` };
  if (!existsSync(files.csv) || !existsSync(files.parquet)) await write(expeds, files);
  return files;
}

/** One pass of the generator: each slice of rows is appended to the CSV and handed to the parquet writer as it pulls. */
async function write(expeds: number, files: { csv: string; parquet: string }): Promise<void> {
  const csv = openSync(`${files.csv}.part`, "w");
  writeSync(csv, ["id", "exped", ...NAMES].join(",") + "\n");
  const rows = w1Rows(expeds);
  const n = SLICE * ROWS;
  const columns = NAMES.map(() => new Float64Array(n));
  const slices = new ReadableStream<RecordBatch>({
    pull(controller) {
      const ids: string[] = [];
      const labels: string[] = [];
      let lines = "";
      for (let next = rows.next(); !next.done; next = ids.length < n ? rows.next() : { done: true, value: undefined }) {
        const { index, id, values } = next.value;
        const r = ids.length;
        ids.push(id);
        labels.push(expedLabel(Math.floor(index / ROWS)));
        lines += `${id},${labels[r]}`;
        VALUE_OF.forEach((v, c) => {
          columns[c][r] = values[v];
          lines += `,${values[v]}`;
        });
        lines += "\n";
      }
      if (ids.length === 0) return controller.close();
      writeSync(csv, lines);
      const table = new Table({
        id: utf8Vector(ids),
        exped: utf8Vector(labels),
        ...Object.fromEntries(NAMES.map((name, c) => [name, float64Vector(columns[c].slice(0, ids.length))])),
      });
      for (const batch of WasmTable.fromIPCStream(tableToIPC(table, "stream")).recordBatches()) controller.enqueue(batch);
    },
  });
  const props = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setMaxRowGroupSize(n).build();
  await (await transformParquetStream(slices, props)).pipeTo(Writable.toWeb(createWriteStream(`${files.parquet}.part`)));
  closeSync(csv);
  renameSync(`${files.csv}.part`, files.csv);
  renameSync(`${files.parquet}.part`, files.parquet);
}
