import { RecordBatchStreamWriter, Schema, Table, type Vector } from "apache-arrow";
import { numericVector, utf8Vector } from "../data/arrow-columns.js";
import { numpyType, pandasMetadata } from "../data/pandas-metadata.js";
import type { Frame, NumericColumn } from "../domain/frame.js";

/**
 * A frame as an Arrow IPC stream (schema, one record batch, end marker) of `id` and `exped`
 * (Utf8, no nulls) and each numeric column in its own type, as the stream's parts: the numeric
 * parts are the columns' own memory, each buffer padded to 8 bytes. The schema message is written
 * by apache-arrow once per distinct schema (every round's live frame has the same one); the
 * record batch's metadata, a few fixed-layout flatbuffer tables, is written here, so a frame of a
 * few hundred columns costs microseconds per column rather than apache-arrow's table building.
 */
export async function arrowStream(frame: Frame): Promise<Uint8Array[]> {
  const names = Object.keys(frame.columns);
  const columns = names.map((name) => frame.columns[name]);
  const strings = [utf8Parts(frame.ids), utf8Parts(frame.exped)];
  const rows = frame.ids.length;
  for (const [i, column] of columns.entries()) {
    if (column.length !== rows) throw new Error(`column '${names[i]}' has ${column.length} rows, not the frame's ${rows}`);
  }
  // Each column's buffers: validity (empty: no nulls), then Utf8 offsets and bytes, or the numbers.
  const buffers: Uint8Array[][] = [...strings.map((s) => [EMPTY, s.offsets, s.bytes]), ...columns.map((c) => [EMPTY, bytesOf(c)])];
  const body: Uint8Array[] = [];
  const spans: number[] = [];
  let at = 0;
  for (const b of buffers.flat()) {
    spans.push(at, b.byteLength);
    if (b.byteLength === 0) continue;
    body.push(b);
    const padded = pad8(b.byteLength);
    if (padded > b.byteLength) body.push(ZEROS.subarray(0, padded - b.byteLength));
    at += padded;
  }
  const meta = recordBatchMessage(rows, buffers.length, spans, at);
  return [await schemaMessage(names, columns), meta, ...body, END_OF_STREAM];
}

const EMPTY = new Uint8Array(0);
const ZEROS = new Uint8Array(8);
/** The stream's end: a continuation marker and a zero length. */
const END_OF_STREAM = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);

const pad8 = (n: number) => (n + 7) & ~7;

function bytesOf(column: NumericColumn): Uint8Array {
  return new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
}

function utf8Parts(values: string[]): { offsets: Uint8Array; bytes: Uint8Array } {
  const data = utf8Vector(values).data[0];
  return { offsets: bytesOf(data.valueOffsets as Int32Array), bytes: data.values as Uint8Array };
}

/** Schema messages by schema (names and numpy types), the few most recent. */
const schemas = new Map<string, Promise<Uint8Array>>();
const SCHEMAS_KEPT = 8;

/** The encapsulated schema message of a frame with these numeric columns, with pandas metadata naming `id` its index. */
function schemaMessage(names: string[], columns: NumericColumn[]): Promise<Uint8Array> {
  const types = columns.map(numpyType);
  const key = JSON.stringify([names, types]);
  let message = schemas.get(key);
  if (!message) {
    if (schemas.size >= SCHEMAS_KEPT) schemas.clear();
    message = encodeSchema(names, columns, types);
    schemas.set(key, message);
  }
  return message;
}

async function encodeSchema(names: string[], columns: NumericColumn[], types: string[]): Promise<Uint8Array> {
  const vectors: Record<string, Vector> = { id: utf8Vector([]), exped: utf8Vector([]) };
  names.forEach((name, i) => (vectors[name] = numericVector(columns[i].subarray(0, 0))));
  const fields = new Table(vectors).schema.fields;
  const pandas = pandasMetadata("id", ["exped"], names.map((n, i) => [n, types[i]]));
  // A table of no batches is written as its schema message and the end marker.
  const writer = RecordBatchStreamWriter.writeAll(new Table(new Schema(fields, new Map([["pandas", JSON.stringify(pandas)]]))));
  writer.finish();
  const parts: Uint8Array[] = [];
  for await (const chunk of writer) parts.push(chunk);
  const stream = Buffer.concat(parts);
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
  v.setBigInt64(24, BigInt(bodyLength), true);
  v.setInt16(32, 4, true); // MetadataVersion.V5
  v.setUint8(34, 3); // MessageHeader.RecordBatch
  // RecordBatch: vtable at 40.
  [10, 24, 8, 4, 16].forEach((x, i) => v.setUint16(40 + 2 * i, x, true));
  v.setInt32(56, 56 - 40, true);
  v.setUint32(60, nodesAt - 60, true);
  v.setBigInt64(64, BigInt(rows), true);
  v.setUint32(72, buffersAt - 72, true);
  v.setUint32(nodesAt, columns, true);
  for (let c = 0; c < columns; c++) {
    v.setBigInt64(nodesAt + 4 + 16 * c, BigInt(rows), true);
    v.setBigInt64(nodesAt + 12 + 16 * c, 0n, true);
  }
  v.setUint32(buffersAt, spans.length / 2, true);
  for (let i = 0; i < spans.length; i++) v.setBigInt64(buffersAt + 4 + 8 * i, BigInt(spans[i]), true);
  return out;
}
