import type { Frame } from "../domain/frame.js";
import { arrowStream } from "./arrow-stream.js";

/**
 * The worker's wire format (see src/participant/python/worker.py): every message is a u32 header
 * length, a u32 body length (little-endian), a JSON header and a binary body. A frame travels as
 * one Arrow IPC stream (schema, one record batch) of `id` (Utf8, the pandas index), `exped` (Utf8)
 * and each numeric column in its own type, so floats cross bit for bit and int8 features stay int8
 * (a tenth of their float64 size). The stream's buffers are the columns' own memory: nothing is
 * copied to send a frame but its ids.
 */

/** The largest answer body accepted: a worker that claims more is broken or hostile. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** The largest answer header accepted (it holds a column name or an error reason). */
export const MAX_HEADER_BYTES = 1024 * 1024;
/** A request body's length is a u32. */
const MAX_REQUEST_BODY_BYTES = 2 ** 32 - 1;

/** Where a frame's stream lies in the body: its byte count (streams follow one another, each padded to 8 bytes). */
export interface FrameSpec {
  bytes: number;
}

/**
 * Encoded frames by frame: a large frame sent twice (train on a restart, to several agents'
 * workers) is encoded once. A small one (a round's live frame, kept by the world for the whole
 * replay) is encoded again when sent again, which costs less than keeping its ids' UTF-8 and
 * metadata (about 16 kB a round at real size) for as long as the world lives.
 */
const encoded = new WeakMap<Frame, Uint8Array[]>();
/** Rows from which a frame's encoding is kept. */
const KEPT_FROM_ROWS = 10_000;

/** A request message: the header plus the frames' streams, in order (null frames take no bytes). */
export function encodeRequest(header: Record<string, unknown>, frames: (Frame | null)[] = []): Buffer[] {
  const specs: (FrameSpec | null)[] = [];
  const body: Uint8Array[] = [];
  for (const frame of frames) {
    if (frame === null) {
      specs.push(null);
      continue;
    }
    const parts = encoded.get(frame) ?? arrowStream(frame);
    if (frame.ids.length >= KEPT_FROM_ROWS) encoded.set(frame, parts);
    const bytes = parts.reduce((n, p) => n + p.byteLength, 0);
    specs.push({ bytes });
    body.push(...parts);
  }
  const bodyBytes = body.reduce((n, b) => n + b.byteLength, 0);
  if (bodyBytes > MAX_REQUEST_BODY_BYTES) throw new Error(`a request of ${bodyBytes} bytes is larger than the wire's 4 GiB`);
  const head = Buffer.from(JSON.stringify(frames.length > 0 ? { ...header, frames: specs } : header));
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32LE(head.length, 0);
  lengths.writeUInt32LE(bodyBytes, 4);
  return [lengths, head, ...body.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))];
}

export type Answer = { header: Record<string, unknown>; body: Buffer };

/** The predict answer's contents, or why its header and body do not agree. */
export function decodePredictAnswer(a: Answer): { ok: true; column: string; ids: string[]; values: Float64Array } | { ok: false; error: string } {
  const { column, rows, id_bytes } = a.header;
  if (typeof column !== "string" || !Number.isSafeInteger(rows) || !Number.isSafeInteger(id_bytes)) return { ok: false, error: "its header is malformed" };
  const n = rows as number;
  const expected = n * 8 + (n + 1) * 4 + (id_bytes as number);
  if (n < 0 || expected !== a.body.length) return { ok: false, error: `its body holds ${a.body.length} bytes, not the ${expected} its header announces` };
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = a.body.readDoubleLE(i * 8);
  const base = n * 8;
  const blob = a.body.subarray(base + (n + 1) * 4);
  const ids: string[] = [];
  let last = a.body.readUInt32LE(base);
  if (last !== 0) return { ok: false, error: "its id offsets do not start at 0" };
  for (let i = 1; i <= n; i++) {
    const next = a.body.readUInt32LE(base + i * 4);
    if (next < last || next > blob.length) return { ok: false, error: "its id offsets are out of order" };
    ids.push(blob.toString("utf8", last, next));
    last = next;
  }
  if (last !== blob.length) return { ok: false, error: "its id offsets do not cover its ids" };
  return { ok: true, column, ids, values };
}
