/**
 * Loading a dataset directory in the service's layout as pandas writes it: int8 features, an
 * integer era, two float32-sized targets stored as float64, and an extra string column that is
 * never decoded. 400 train + 100 validation eras × 800 rows (400k rows) × 50 features; rounds are
 * held out of validation. One load per process, so that its peak RSS is the load's own: it reports
 * the time, the peak RSS against the frames' float64 size, and parquet-wasm's linear memory (which
 * grows to the largest decoded table and is never given back).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Float64, Int8, Int32, makeData, makeVector, type Vector } from "apache-arrow";
import { wasmMemory } from "parquet-wasm";
import { utf8Vector } from "../../src/data/arrow-columns.js";
import { loadDatasetDir } from "../../src/data/dataset-dir.js";
import { writeTableParquet } from "../helpers/dataset-dir.js";
import { medianMs, peakRssMb, report } from "./measure.js";

const FEATURES = 50;
const ROWS_PER_ERA = 800;

function writeSplit(dir: string, name: string, firstEra: number, eras: number): void {
  const n = eras * ROWS_PER_ERA;
  const ids = Array.from({ length: n }, (_, i) => `${name[0]}${i.toString(16).padStart(8, "0")}`);
  const era = Int32Array.from({ length: n }, (_, i) => firstEra + Math.floor(i / ROWS_PER_ERA));
  let seed = firstEra;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const columns: Record<string, Vector> = { id: utf8Vector(ids), era: makeVector(makeData({ type: new Int32(), length: n, data: era })) };
  for (let f = 0; f < FEATURES; f++) {
    columns[`feature_${f}`] = makeVector(makeData({ type: new Int8(), length: n, data: Int8Array.from({ length: n }, () => Math.floor(next() * 5)) }));
  }
  for (const t of ["target", "target_aux"]) {
    columns[t] = makeVector(makeData({ type: new Float64(), length: n, data: Float64Array.from({ length: n }, () => Math.floor(next() * 5) / 4) }));
  }
  columns.data_type = utf8Vector(ids.map(() => name));
  writeFileSync(join(dir, `${name}.parquet`), writeTableParquet(columns, "id"));
  const bench = { id: columns.id, era: columns.era, v1_designated: makeVector(Float64Array.from({ length: n }, next)) };
  writeFileSync(join(dir, `v5_${name}_benchmark_models.parquet`), writeTableParquet(bench, "id"));
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "basecamp-dir-bench-"));
  try {
    writeSplit(dir, "train", 1, 400);
    writeSplit(dir, "validation", 500, 100);
    const beforeRss = peakRssMb();
    const rows = 500 * ROWS_PER_ERA;
    const { median } = await medianMs(1, () => loadDatasetDir({ dir }, 20));
    report("dataset directory: 400k train + 100k validation rows × 50 int8 features", {
      "load ms": median.toFixed(0),
      "float64 MB": ((rows * (FEATURES + 3) * 8) / 2 ** 20).toFixed(0),
      "RSS before MB": beforeRss.toFixed(0),
      "peak RSS MB": peakRssMb().toFixed(0),
      "wasm MB": (wasmMemory().buffer.byteLength / 2 ** 20).toFixed(0),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
