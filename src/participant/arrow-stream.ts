import { RecordBatchStreamWriter, Schema, Table, type Vector } from "apache-arrow";
import { numericVector, utf8Buffers, utf8Vector } from "../data/arrow-columns.js";
import { numpyType, pandasMetadata } from "../data/pandas-metadata.js";
import type { Frame, NumericColumn } from "../domain/frame.js";
import { sameStrings } from "../domain/same-strings.js";

/**
 * A frame as an Arrow IPC stream (schema, one record batch, end marker) of `id` and `exped`
 * (Utf8, no nulls) and each numeric column in its own type, as the stream's parts, each buffer
 * padded to 8 bytes. A large frame's numeric parts are the columns' own memory; a small one's
 * buffers are copied into one part (COPIED_UP_TO_BYTES). The schema message is written by
 * apache-arrow once per distinct schema (every round's live frame has the same one); the record
 * batch's metadata, a few fixed-layout flatbuffer tables, is written here, so a frame of a few
 * hundred columns costs microseconds per column rather than apache-arrow's table building.
 */
export function arrowStream(frame: Frame): Uint8Array[] {
  const names = Object.keys(frame.columns);
  const columns = names.map((name) => frame.columns[name]);
  const rows = frame.ids.length;
  for (const [i, column] of columns.entries()) {
    if (column.length !== rows) throw new Error(`column '${names[i]}' has ${column.length} rows, not the frame's ${rows}`);
  }
  // Each column's buffers: validity (empty: no nulls), then Utf8 offsets and bytes, or the numbers.
  const buffers: Uint8Array[] = [];
  const spans: number[] = [];
  let at = 0;
  const add = (b: Uint8Array) => {
    spans.push(at, b.byteLength);
    buffers.push(b);
    at += pad8(b.byteLength);
  };
  for (const values of [frame.ids, frame.exped]) {
    const { offsets, bytes } = utf8Parts(values);
    spans.push(at, 0);
    add(offsets);
    add(bytes);
  }
  for (const column of columns) {
    spans.push(at, 0);
    add(bytesOf(column));
  }
  const meta = recordBatchMessage(rows, 2 + columns.length, spans, at);
  return [schemaMessage(names, columns), meta, ...bodyParts(buffers, at), END_OF_STREAM];
}

/**
 * Body bytes up to which a frame's buffers are copied into one part: a round's live frame (a few
 * hundred columns of about a hundred rows) is then one write of tens of kB rather than a part per
 * buffer and its padding, which cost more to hand over than to copy. Larger frames (a train split)
 * are sent from the columns' own memory.
 */
const COPIED_UP_TO_BYTES = 1024 * 1024;

/** The record batch's body: `buffers` laid out one after another, each padded to 8 bytes (`bytes` in all). */
function bodyParts(buffers: Uint8Array[], bytes: number): Uint8Array[] {
  if (bytes <= COPIED_UP_TO_BYTES) {
    const body = new Uint8Array(bytes); // zero-filled: the padding
    let at = 0;
    for (const b of buffers) {
      body.set(b, at);
      at += pad8(b.byteLength);
    }
    return [body];
  }
  const parts: Uint8Array[] = [];
  for (const b of buffers) {
    if (b.byteLength === 0) continue;
    parts.push(b);
    const padded = pad8(b.byteLength);
    if (padded > b.byteLength) parts.push(ZEROS.subarray(0, padded - b.byteLength));
  }
  return parts;
}

const ZEROS = new Uint8Array(8);
/** The stream's end: a continuation marker and a zero length. */
const END_OF_STREAM = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);

const pad8 = (n: number) => (n + 7) & ~7;

function bytesOf(column: NumericColumn): Uint8Array {
  return new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
}

function utf8Parts(values: string[]): { offsets: Uint8Array; bytes: Uint8Array } {
  const { valueOffsets, data } = utf8Buffers(values);
  return { offsets: bytesOf(valueOffsets), bytes: data };
}

/**
 * Schema messages by schema (names and numpy types), the few most recent, newest last: a round's
 * live frame and its benchmark each find theirs by comparing names, without a key to build.
 */
const schemas: { names: string[]; types: string[]; message: Uint8Array }[] = [];
const SCHEMAS_KEPT = 8;

/** The encapsulated schema message of a frame with these numeric columns, with pandas metadata naming `id` its index. */
function schemaMessage(names: string[], columns: NumericColumn[]): Uint8Array {
  const types = columns.map(numpyType);
  const known = schemas.find((s) => sameStrings(s.names, names) && sameStrings(s.types, types));
  if (known) return known.message;
  if (schemas.length >= SCHEMAS_KEPT) schemas.shift();
  const message = encodeSchema(names, columns, types);
  schemas.push({ names, types, message });
  return message;
}

function encodeSchema(names: string[], columns: NumericColumn[], types: string[]): Uint8Array {
  const vectors: Record<string, Vector> = { id: utf8Vector([]), exped: utf8Vector([]) };
  names.forEach((name, i) => (vectors[name] = numericVector(columns[i].subarray(0, 0))));
  const fields = new Table(vectors).schema.fields;
  const pandas = pandasMetadata("id", ["exped"], names.map((n, i) => [n, types[i]]));
  // A table of no batches is written as its schema message and the end marker.
  const writer = RecordBatchStreamWriter.writeAll(new Table(new Schema(fields, new Map([["pandas", JSON.stringify(pandas)]]))));
  const stream = writer.toUint8Array(true);
  return stream.subarray(0, stream.byteLength - END_OF_STREAM.byteLength);
}

/**
 * The encapsulated RecordBatch message (Arrow format 1.0, metadata V5): continuation marker,
 * metadata length, then the flatbuffer, laid out as
 *
 *   0   root offset → Message
 *   4   Message's vtable (4 fields)            16  Message: header → RecordBatch, bodyLength, version, header type
 *   40  RecordBatch's vtable (3 fields)        56  RecordBatch: nodes →, length, buffers →
 *   84  nodes: count, then (length, null count) per column
 *   …   buffers: count, then (offset, length) per buffer
 *
 * `spans` holds each buffer's offset and length in the body; every column has `rows` rows and no nulls.
 */
function recordBatchMessage(rows: number, columns: number, spans: number[], bodyLength: number): Uint8Array {
  const nodesAt = 84;
  const buffersAt = nodesAt + 4 + 16 * columns + 4;
  const size = pad8(buffersAt + 4 + 8 * spans.length);
  const out = new Uint8Array(8 + size);
  const prefix = new DataView(out.buffer);
  prefix.setUint32(0, 0xffffffff, true);
  prefix.setInt32(4, size, true);
  const v = new DataView(out.buffer, 8);
  v.setUint32(0, 16, true);
  // Message: vtable at 4 (its size, the table's size, then each field's place in the table).
  [12, 24, 16, 18, 4, 8].forEach((x, i) => v.setUint16(4 + 2 * i, x, true));
  v.setInt32(16, 16 - 4, true);
  v.setUint32(20, 56 - 20, true);
  setU64(v, 24, bodyLength);
  v.setInt16(32, 4, true); // MetadataVersion.V5
  v.setUint8(34, 3); // MessageHeader.RecordBatch
  // RecordBatch: vtable at 40.
  [10, 24, 8, 4, 16].forEach((x, i) => v.setUint16(40 + 2 * i, x, true));
  v.setInt32(56, 56 - 40, true);
  v.setUint32(60, nodesAt - 60, true);
  setU64(v, 64, rows);
  v.setUint32(72, buffersAt - 72, true);
  v.setUint32(nodesAt, columns, true);
  for (let c = 0; c < columns; c++) {
    setU64(v, nodesAt + 4 + 16 * c, rows); // the null count after it stays 0
  }
  v.setUint32(buffersAt, spans.length / 2, true);
  for (let i = 0; i < spans.length; i++) setU64(v, buffersAt + 4 + 8 * i, spans[i]);
  return out;
}

/** A non-negative safe integer as a little-endian 64-bit field (two 32-bit halves: no BigInt per field). */
function setU64(v: DataView, at: number, x: number): void {
  v.setUint32(at, x >>> 0, true);
  v.setUint32(at + 4, Math.floor(x / 2 ** 32), true);
}
