import { createHash } from "node:crypto";
import { refuse } from "../domain/errors.js";
import { readPredictionsCsv } from "./predictions-csv.js";
import { readPredictionsParquet } from "./predictions-parquet.js";

/** An event upload's predictions: one finite value in [0, 1] per distinct id, in file order. */
export interface PredictionsFile {
  ids: string[];
  values: Float64Array;
}

/** A deployment's bounds on a predictions file: its bytes, and what it may hold once decoded. */
export interface PredictionsLimits {
  max_bytes: number;
  max_rows: number;
  max_uncompressed_bytes: number;
  max_columns: number;
}

/**
 * Parses an event predictions file, CSV (`id,prediction` header) or parquet (`id` column or pandas
 * index, `prediction`), chosen by the file name's extension. Refuses a file over `max_bytes`, or
 * holding more than `max_rows` rows (a parquet file also: more than `max_columns` columns or
 * `max_uncompressed_bytes`, all checked against its footer, its page headers and what its pages
 * inflate to before anything is decoded; a CSV file's rows as they are counted) with 413 naming
 * the limit; an empty one, a missing column, an empty or
 * non-numeric value, a repeated id and a value outside [0, 1] with 400, each naming where (rows
 * counted from 1).
 */
export function parsePredictionsFile(filename: string, bytes: Uint8Array, limits: PredictionsLimits): PredictionsFile {
  if (bytes.length > limits.max_bytes) throw refuse("predictions_file_too_large", { limit: limits.max_bytes });
  const name = filename.toLowerCase();
  const read = name.endsWith(".csv") ? readPredictionsCsv : name.endsWith(".parquet") ? readPredictionsParquet : null;
  if (!read) throw refuse("predictions_file_type", { filename });
  if (bytes.length === 0) throw refuse("predictions_file_empty");
  const { ids, values } = read(bytes, limits);
  if (ids.length === 0) throw refuse("predictions_file_empty");
  checkRows(ids, values);
  return { ids, values: Float64Array.from(values) };
}

/**
 * Each row in file order: its id not empty, not seen before, its value in [0, 1]; the first row
 * that breaks one is refused. While the ids rise strictly (a file written in id order, as most
 * are) none can repeat, so no set of them is built: for 580 000 ids, a set took a third of a
 * second and most of the check's garbage. The set is made at the first id that does not rise,
 * from the rows before it (all distinct, as they rose).
 */
function checkRows(ids: string[], values: ArrayLike<number>): void {
  let seen: Set<string> | null = null;
  for (let r = 0; r < ids.length; r++) {
    const id = ids[r];
    if (id === "") throw refuse("predictions_value_malformed", { row: r + 1, column: "id", problem: "the value is empty" });
    if (seen === null && r > 0 && !(ids[r - 1] < id)) seen = new Set(ids.slice(0, r));
    if (seen !== null) {
      if (seen.has(id)) throw refuse("predictions_duplicate_id", { id });
      seen.add(id);
    }
    const v = values[r];
    if (!(v >= 0 && v <= 1)) throw refuse("predictions_value_out_of_range", { value: String(v), row: r + 1 });
  }
}

/**
 * A SHA-256 of the predictions' content, not their bytes, for the "identical predictions" dedup:
 * rows sorted by id (UTF-8 byte order), each hashed as its id's byte length (u32 LE), the id's
 * bytes and the value's float64 bits (LE, -0 as 0). The same predictions as CSV or parquet, in any
 * row order, hash equal. Ids must be distinct, as `parsePredictionsFile` guarantees.
 */
export function predictionsDigest(p: PredictionsFile): string {
  const { ids, values } = p;
  const ascii = !ids.some((id) => NON_ASCII.test(id));
  const compare = !ascii && ids.some((id) => SURROGATE.test(id)) ? byUtf8(ids) : byUnits(ids);
  const order = Array.from(ids.keys());
  // A file is often written in id order already: one pass finds that, where sorting compares n log n pairs.
  if (!inOrder(order, compare)) order.sort(compare);
  let size = 0;
  for (const id of ids) size += 12 + (ascii ? id.length : Buffer.byteLength(id, "utf8"));
  const buf = Buffer.alloc(size);
  const view = new DataView(buf.buffer, buf.byteOffset, size);
  let at = 0;
  for (const i of order) {
    const id = ids[i];
    if (ascii) {
      // An ASCII id's UTF-8 bytes are its code units: copied here, without a call into the runtime per id.
      view.setUint32(at, id.length, true);
      at += 4;
      for (let k = 0; k < id.length; k++) buf[at++] = id.charCodeAt(k);
    } else {
      const length = Buffer.byteLength(id, "utf8");
      view.setUint32(at, length, true);
      at += 4 + buf.write(id, at + 4, length, "utf8");
    }
    view.setFloat64(at, values[i] === 0 ? 0 : values[i], true);
    at += 8;
  }
  return createHash("sha256").update(DIGEST_DOMAIN).update(buf).digest("hex");
}

const DIGEST_DOMAIN = "basecamp.predictions.v1\n";
const SURROGATE = /[\uD800-\uDFFF]/;
const NON_ASCII = /[^\x00-\x7F]/;

function inOrder(order: number[], compare: (a: number, b: number) => number): boolean {
  for (let i = 1; i < order.length; i++) if (compare(order[i - 1], order[i]) > 0) return false;
  return true;
}

/** UTF-16 unit order equals UTF-8 byte order for strings without surrogates, and is far cheaper. */
function byUnits(ids: string[]): (a: number, b: number) => number {
  return (a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0);
}

function byUtf8(ids: string[]): (a: number, b: number) => number {
  const keys = ids.map((id) => Buffer.from(id, "utf8"));
  return (a, b) => Buffer.compare(keys[a], keys[b]);
}
