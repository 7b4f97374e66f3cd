import type { FileSpool, SpooledFile } from "./file-spool.js";
import type { BodySource } from "./request-body.js";
import { heldFile } from "./form-file.js";

/**
 * A multipart/form-data body read as it streams (RFC 7578): each part's bytes are kept once, as
 * they arrive, and the thread yields between chunks. `Request.formData()` instead parses the whole
 * buffered body in one go: half a gigabyte of batch files held the event loop for seconds and
 * took several copies of the body in memory. Text parts become strings (UTF-8), parts with a
 * filename `File`s; a field sent twice keeps its last value. With a `spool`, a file part larger
 * than its threshold goes to disk as it arrives, so the body is never held in memory whole. A
 * malformed body throws an Error saying why.
 */
export async function readMultipart(body: ReadableStream<Uint8Array> | BodySource, contentType: string, spool?: FileSpool): Promise<Map<string, string | File>> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) throw new Error("the content type names no boundary");
  const parser = new MultipartParser(boundary[1] ?? boundary[2]);
  const fields = new Map<string, string | File>();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.push(chunk);
    for (const part of parser.grown()) if (spool && part.filename !== null) await toDisk(part, spool);
    for (const part of parser.finished()) fields.set(part.name, await partValue(part));
  }
  parser.end();
  return fields;
}

interface Part {
  name: string;
  filename: string | null;
  type: string;
  /** The bytes not yet on disk. */
  chunks: Buffer[];
  size: number;
  disk: SpooledFile | null;
}

/** Moves what a file part holds in memory to its spool file once it is past the threshold. */
async function toDisk(part: Part, spool: FileSpool): Promise<void> {
  if (!part.disk && part.size <= spool.thresholdBytes) return;
  part.disk ??= await spool.create();
  const chunks = part.chunks;
  part.chunks = [];
  for (const chunk of chunks) await part.disk.write(chunk);
}

function partValue(part: Part): Promise<string | File> | string | File {
  if (part.disk) return part.disk.file(part.filename as string, part.type);
  if (part.filename === null) return Buffer.concat(part.chunks).toString("utf8");
  return heldFile(part.chunks, part.filename, part.type);
}

/** The most header bytes one part may carry. */
const MAX_HEADER_BYTES = 16 * 1024;
/** The most bytes a text field may carry (a batch's manifest of 25 items is a few kilobytes). */
const MAX_TEXT_BYTES = 1024 * 1024;
const CRLF2 = Buffer.from("\r\n\r\n");

class MultipartParser {
  private readonly first: Buffer;
  private readonly delimiter: Buffer;
  private state: "preamble" | "headers" | "body" | "after" | "done" = "preamble";
  private pending: Buffer = Buffer.alloc(0);
  private part: Part | null = null;
  /** Parts that received bytes, and parts that ended, since last asked. */
  private readonly touched = new Set<Part>();
  private done: Part[] = [];

  constructor(boundary: string) {
    this.first = Buffer.from(`--${boundary}`);
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  push(chunk: Uint8Array): void {
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    while (this.step());
  }

  end(): void {
    if (this.state !== "done") throw new Error("the body ends before its closing boundary");
  }

  /** The parts that received bytes since last asked (the one still open, and any that ended). */
  grown(): Part[] {
    const parts = [...this.touched];
    this.touched.clear();
    return parts;
  }

  /** The parts that ended since last asked, in body order. */
  finished(): Part[] {
    const parts = this.done;
    this.done = [];
    return parts;
  }

  /** Consumes what it can of `pending`; false when it needs more bytes. */
  private step(): boolean {
    const buf = this.pending;
    switch (this.state) {
      case "preamble": {
        const at = buf.indexOf(this.first);
        if (at < 0) {
          this.pending = buf.subarray(Math.max(0, buf.length - this.first.length));
          return false;
        }
        this.pending = buf.subarray(at + this.first.length);
        this.state = "after";
        return true;
      }
      case "after": {
        if (buf.length < 2) return false;
        if (buf[0] === 0x2d && buf[1] === 0x2d) {
          this.state = "done";
          this.pending = Buffer.alloc(0);
          return false;
        }
        if (buf[0] !== 0x0d || buf[1] !== 0x0a) throw new Error("a boundary is not followed by a line break");
        this.pending = buf.subarray(2);
        this.state = "headers";
        return true;
      }
      case "headers": {
        const end = buf.indexOf(CRLF2);
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw new Error(`a part's headers exceed ${MAX_HEADER_BYTES} bytes`);
          return false;
        }
        this.part = partHeaders(buf.subarray(0, end).toString("utf8"));
        this.pending = buf.subarray(end + 4);
        this.state = "body";
        return true;
      }
      case "body": {
        const part = this.part as Part;
        const at = buf.indexOf(this.delimiter);
        if (at < 0) {
          // Keep only what could be the start of a delimiter; the rest is the part's.
          const keep = Math.min(buf.length, this.delimiter.length - 1);
          if (buf.length > keep) this.add(part, buf.subarray(0, buf.length - keep));
          this.pending = Buffer.from(buf.subarray(buf.length - keep));
          return false;
        }
        this.add(part, buf.subarray(0, at));
        this.done.push(part);
        this.part = null;
        this.pending = buf.subarray(at + this.delimiter.length);
        this.state = "after";
        return true;
      }
      case "done":
        return false;
    }
  }

  private add(part: Part, bytes: Buffer): void {
    part.chunks.push(bytes);
    part.size += bytes.length;
    if (part.filename === null && part.size > MAX_TEXT_BYTES) throw new Error(`the text field '${part.name}' exceeds ${MAX_TEXT_BYTES} bytes`);
    this.touched.add(part);
  }
}

function partHeaders(text: string): Part {
  let disposition = "";
  let type = "";
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    const key = line.slice(0, colon).trim().toLowerCase();
    if (key === "content-disposition") disposition = line.slice(colon + 1);
    if (key === "content-type") type = line.slice(colon + 1).trim();
  }
  const name = param(disposition, "name");
  if (!/^\s*form-data\b/i.test(disposition) || name === null) throw new Error("a part has no Content-Disposition: form-data with a name");
  return { name, filename: param(disposition, "filename"), type, chunks: [], size: 0, disk: null };
}

/** A quoted (or bare) parameter of a Content-Disposition header; browsers escape `"` as %22. */
function param(header: string, key: string): string | null {
  const m = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(header);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1").replace(/%22/g, '"') : m[2];
}
