import { openAsBlob } from "node:fs";
import { readFile } from "node:fs/promises";

/**
 * A form's file parts as `File`s, each remembering where its bytes are, so that `fileBytes` takes
 * them in one go: Node 20's `Blob.arrayBuffer` reads a file-backed blob in small pieces and
 * concatenates them (seconds of the serving thread for a batch of large files), and reads even a
 * few kilobytes held in memory through its blob reader's steps (tens of microseconds an upload).
 */
const heldBytes = new WeakMap<File, Uint8Array>();
const spooledPaths = new WeakMap<File, string>();

/** A file part received in memory (at most the spool's threshold): held twice, as the `File` and as the bytes beside it, until the request ends. */
export function heldFile(chunks: Buffer[], name: string, type: string): File {
  const bytes = Buffer.concat(chunks);
  const file = new File([bytes], name, { type });
  heldBytes.set(file, bytes);
  return file;
}

/** A file part received into a spool file (file-spool.ts): its bytes stay on disk until read. */
export async function spooledFile(path: string, name: string, type: string): Promise<File> {
  const file = new File([await openAsBlob(path)], name, { type });
  spooledPaths.set(file, path);
  return file;
}

/** A file part's bytes, a copy of their own each time (its buffer may be moved to another thread). */
export async function fileBytes(file: File): Promise<Uint8Array> {
  const held = heldBytes.get(file);
  if (held) return new Uint8Array(held);
  const path = spooledPaths.get(file);
  if (path === undefined) return new Uint8Array(await file.arrayBuffer());
  const bytes = await readFile(path);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
