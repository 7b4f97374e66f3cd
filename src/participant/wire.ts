import type { Frame } from "../data/frame.js";

/**
 * The worker's wire format (see src/participant/python/worker.py): every message is a u32 header
 * length, a u32 body length (little-endian), a JSON header and a binary body. Frames travel as
 * raw columns, never as text, so floats cross bit for bit.
 */

/** The largest answer body accepted: a worker that claims more is broken or hostile. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** The largest answer header accepted (it holds a column name or an error reason). */
export const MAX_HEADER_BYTES = 1024 * 1024;

export interface FrameSpec {
  rows: number;
  columns: string[];
  exped_labels: string[];
  id_bytes: number;
}

const encoder = new TextEncoder();

/** A request message: the header plus the frames' bodies, in order (null frames take no bytes). */
export function encodeRequest(header: Record<string, unknown>, frames: (Frame | null)[] = []): Buffer[] {
  const specs: (FrameSpec | null)[] = [];
  const body: Buffer[] = [];
  for (const frame of frames) {
    if (frame === null) {
      specs.push(null);
      continue;
    }
    const { spec, parts } = encodeFrame(frame);
    specs.push(spec);
    body.push(...parts);
  }
  const head = Buffer.from(JSON.stringify(frames.length > 0 ? { ...header, frames: specs } : header));
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32LE(head.length, 0);
  lengths.writeUInt32LE(body.reduce((n, b) => n + b.length, 0), 4);
  return [lengths, head, ...body];
}

/** float64 columns, uint32 exped codes, uint32 id offsets, UTF-8 ids, padded to 8 bytes. */
function encodeFrame(frame: Frame): { spec: FrameSpec; parts: Buffer[] } {
  const rows = frame.ids.length;
  const columns = Object.keys(frame.columns);
  const parts = columns.map((name) => {
    const col = frame.columns[name];
    return Buffer.from(col.buffer, col.byteOffset, rows * 8);
  });
  const labels = new Map<string, number>();
  const codes = new Uint32Array(rows);
  frame.exped.forEach((label, i) => {
    let code = labels.get(label);
    if (code === undefined) labels.set(label, (code = labels.size));
    codes[i] = code;
  });
  const encoded = frame.ids.map((id) => encoder.encode(id));
  const offsets = new Uint32Array(rows + 1);
  encoded.forEach((e, i) => (offsets[i + 1] = offsets[i] + e.length));
  const idBytes = offsets[rows];
  parts.push(Buffer.from(codes.buffer), Buffer.from(offsets.buffer), Buffer.concat(encoded), Buffer.alloc(-(rows * 4 + (rows + 1) * 4 + idBytes) % 8 & 7));
  return { spec: { rows, columns, exped_labels: [...labels.keys()], id_bytes: idBytes }, parts };
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
