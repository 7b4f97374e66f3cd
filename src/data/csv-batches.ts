import { open } from "node:fs/promises";
import { CsvSyntaxError } from "./csv-records.js";
import { NotANumber, parseNumberBytes } from "./csv-number.js";
import { labelColumnIn, type BatchSource, type RowBatch } from "./row-batch.js";

/**
 * A CSV predictions file read as row batches (`BatchSource`) straight from its bytes, a chunk at
 * a time: no string of the file, none per row. The rules are `readFrameCsv`'s: a header row,
 * fields quoted the RFC 4180 way (quoted records take a slower path), LF or CRLF, blank lines
 * skipped, `id` and `exped` (or `era`) as text, the asked-for columns as numbers; rows in errors counted
 * from 1 after the header.
 */
const CHUNK = 4 << 20;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/** What a field of the header is to the reader. */
const SKIP = -1;
const ID = -2;
const EXPED = -3;

/** `chunk`: bytes read at a time (the buffer grows for a longer record). */
export function csvBatches(path: string, chunk = CHUNK): BatchSource {
  return (columns) => readBatches(path, columns, chunk);
}

async function* readBatches(path: string, names: string[], chunk: number): AsyncGenerator<RowBatch> {
  const file = await open(path, "r");
  try {
    let buf = Buffer.allocUnsafe(chunk);
    let filled = 0;
    let eof = false;
    const fill = async () => {
      if (filled === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
      const { bytesRead } = await file.read(buf, filled, buf.length - filled, null);
      filled += bytesRead;
      eof = bytesRead === 0;
    };
    let header: Uint8Array[] | null = null;
    let at = 0;
    while (!header) {
      await fill();
      const record = quotedRecord(buf, 0, filled, eof, 1);
      if (record) [header, at] = [record.fields, record.next];
      else if (eof) throw new Error("CSV file is empty");
    }
    const reader = new CsvRows(header.map((f) => Buffer.from(f).toString("utf8")), names);
    for (;;) {
      const { next, batch } = reader.parse(buf, at, filled, eof);
      if (batch.length > 0 || batch.runLabels.length > 0) yield batch;
      if (eof && next === filled) return;
      buf.copy(buf, 0, next, filled);
      filled -= next;
      at = 0;
      await fill();
    }
  } finally {
    await file.close();
  }
}

/** Parses whole records of a buffer into a reused batch. */
class CsvRows {
  private readonly roles: Int32Array;
  private readonly fields: number;
  private capacity = 0;
  private columns: Float64Array[] = [];
  private idBytes = new Uint8Array(0);
  private idOffsets = new Int32Array(0);
  private label = new Uint8Array(0);
  private labelText: string | null = null;
  private row = 0;
  private line = 2;

  constructor(header: string[], private readonly names: string[]) {
    const at = (name: string) => {
      const i = header.indexOf(name);
      if (i < 0) throw new Error(`missing column '${name}'`);
      return i;
    };
    this.roles = new Int32Array(header.length).fill(SKIP);
    this.roles[at("id")] = ID;
    this.roles[at(labelColumnIn(header))] = EXPED;
    names.forEach((name, c) => (this.roles[at(name)] = c));
    this.fields = header.length;
  }

  /** The whole records in buf[at, end) (the last may end at `end` only when `eof`), and where the first incomplete one starts. */
  parse(buf: Buffer, at: number, end: number, eof: boolean): { next: number; batch: RowBatch } {
    this.ensure(Math.ceil((end - at) / this.fields) + 1, end - at);
    const runLabels: string[] = [];
    const runStarts: number[] = [];
    const { roles, fields, columns, idOffsets } = this;
    let n = 0;
    let idUsed = 0;
    let p = at;
    let start = p;
    records: while (p < end) {
      start = p;
      if (buf[p] === LF || (buf[p] === CR && buf[p + 1] === LF)) {
        p += buf[p] === CR ? 2 : 1; // a blank line
        this.line++;
        start = p;
        continue;
      }
      const idStart = idUsed;
      let field = 0;
      let from = p;
      for (;;) {
        if (p === from && buf[p] === QUOTE) {
          idUsed = idStart; // the record is read again from its start
          const record = quotedRecord(buf, start, end, eof, this.line);
          if (!record) break records;
          this.line += record.lines;
          p = record.next;
          if (record.fields.length !== fields) this.fail(`expected ${fields} fields, found ${record.fields.length}`);
          record.fields.forEach((f, i) => (idUsed = this.field(roles[i], f, 0, f.length, n, idUsed, runLabels, runStarts)));
          break;
        }
        while (p < end && buf[p] !== COMMA && buf[p] !== LF) p++;
        if (p === end && !eof) break records;
        const last = p === end || buf[p] === LF;
        const to = last && p > from && buf[p - 1] === CR ? p - 1 : p;
        if (field < fields) idUsed = this.field(roles[field], buf, from, to, n, idUsed, runLabels, runStarts);
        field++;
        p++;
        if (last) {
          if (field !== fields) this.fail(`expected ${fields} fields, found ${field}`);
          this.line++;
          break;
        }
        from = p;
      }
      idOffsets[n + 1] = idUsed;
      n++;
      this.row++;
      start = p;
    }
    return { next: Math.min(start, end), batch: { length: n, idBytes: this.idBytes, idOffsets, runLabels, runStarts, columns } };
  }

  /** Stores field bytes[from, to) of the current record (row `n` of the batch); returns the id bytes used. */
  private field(role: number, bytes: Uint8Array, from: number, to: number, n: number, idUsed: number, runLabels: string[], runStarts: number[]): number {
    if (role >= 0) {
      try {
        this.columns[role][n] = parseNumberBytes(bytes, from, to);
      } catch (e) {
        if (!(e instanceof NotANumber)) throw e;
        this.fail(`column '${this.names[role]}': ${e.message}`);
      }
    } else if (role === ID) {
      if (idUsed + to - from > this.idBytes.length) this.idBytes = grow(this.idBytes, idUsed + to - from);
      this.idBytes.set(bytes.subarray(from, to), idUsed);
      return idUsed + to - from;
    } else if (role === EXPED && (runLabels.length === 0 || !sameBytes(this.label, bytes, from, to))) {
      if (!sameBytes(this.label, bytes, from, to) || this.labelText === null) {
        this.label = Uint8Array.from(bytes.subarray(from, to));
        this.labelText = Buffer.from(this.label.buffer, this.label.byteOffset, this.label.length).toString("utf8");
      }
      runLabels.push(this.labelText);
      runStarts.push(n);
    }
    return idUsed;
  }

  private ensure(rows: number, bytes: number): void {
    if (rows > this.capacity) {
      this.capacity = rows;
      this.columns = this.names.map(() => new Float64Array(rows));
      this.idOffsets = new Int32Array(rows + 1);
    }
    if (this.idBytes.length < bytes) this.idBytes = new Uint8Array(bytes);
  }

  private fail(message: string): never {
    throw new Error(`row ${this.row + 1}: ${message}`);
  }
}

/**
 * One record holding quotes, from `start`: its fields (quotes removed, `""` as `"`), where the
 * next record starts and how many lines it spans; null when it runs past `end` before the file ends.
 */
function quotedRecord(buf: Uint8Array, start: number, end: number, eof: boolean, line: number): { fields: Uint8Array[]; next: number; lines: number } | null {
  const fields: Uint8Array[] = [];
  let field: number[] = [];
  let i = start;
  let lines = 1;
  for (;;) {
    if (buf[i] === QUOTE) {
      const open = i;
      for (i++; ; i++) {
        if (i >= end) {
          if (eof) throw new CsvSyntaxError(`line ${line}: the quote opened at column ${open - start + 1} is never closed`);
          return null;
        }
        if (buf[i] === LF) lines++;
        if (buf[i] !== QUOTE) field.push(buf[i]);
        else if (i + 1 >= end && !eof) return null;
        else if (buf[i + 1] === QUOTE) field.push(buf[++i]);
        else break;
      }
      i++;
    }
    while (i < end && buf[i] !== COMMA && buf[i] !== LF && buf[i] !== CR) field.push(buf[i++]);
    if (i >= end && !eof) return null;
    fields.push(Uint8Array.from(field));
    field = [];
    if (buf[i] === COMMA) {
      i++;
      continue;
    }
    if (buf[i] === CR && i + 1 >= end && !eof) return null;
    if (buf[i] === CR && buf[i + 1] === LF) i++;
    return { fields, next: Math.min(i + 1, end), lines };
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array, from: number, to: number): boolean {
  if (a.length !== to - from) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[from + i]) return false;
  return true;
}

function grow(a: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.max(size, 2 * a.length));
  out.set(a);
  return out;
}
