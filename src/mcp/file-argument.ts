import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { basename } from "node:path";
import { refuse, ServiceError } from "../domain/errors.js";
import type { FilePart } from "../data/file-part.js";

/** How the MCP face was reached: over `/mcp` (anyone on the network path) or stdio (`basecamp mcp`, the caller's own process). */
export type Transport = "http" | "stdio";

/** One file a tool takes: its two argument names, the lane's limit and the refusal for a larger file. */
export interface FileSlot {
  /** The argument holding a local path (stdio only). */
  path: string;
  /** The argument holding the contents as base64 (either transport). */
  base64: string;
  /** Where the arguments sit in the call, for `loc` (a batch item's `["items", i]`). */
  loc: (string | number)[];
  /** The lane's limit in bytes; null when the deployment has no such lane (nothing is read). */
  maxBytes: number | null;
  tooLarge: "model_file_too_large" | "predictions_file_too_large";
}

/**
 * The bytes of one file argument, read only as far as the lane's limit. Over HTTP a path is
 * refused (`mcp_path_refused`): the server's files are not the caller's. Base64 contents are
 * bounded by their length before they are decoded. Over stdio a path must name a regular file
 * (never a FIFO, a device or a directory), checked before it is opened and again on the open
 * descriptor, and its size is checked before it is read. No refusal quotes the path or the file.
 * Null when neither argument is given or the lane does not exist.
 */
export function fileArgument(
  transport: Transport,
  slot: FileSlot,
  given: { path?: string; base64?: string; filename: string },
): FilePart | null {
  if (given.path !== undefined && given.base64 !== undefined) {
    throw invalid(slot, slot.base64, `give ${slot.path} or ${slot.base64}, not both`);
  }
  if (given.path !== undefined && transport === "http") {
    throw refuse("mcp_path_refused", { argument: slot.path, contents: slot.base64 }, { extra: { loc: ["arguments", ...slot.loc, slot.path] } });
  }
  if (slot.maxBytes === null) return null;
  if (given.base64 !== undefined) return { filename: given.filename, bytes: decodeBase64(given.base64, slot, slot.maxBytes) };
  if (given.path !== undefined) return { filename: basename(given.path), bytes: readRegularFile(given.path, slot, slot.maxBytes) };
  return null;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decodeBase64(text: string, slot: FileSlot, maxBytes: number): Uint8Array {
  if (text.length > 4 * Math.ceil(maxBytes / 3)) throw tooLarge(slot, slot.base64, maxBytes);
  if (!BASE64.test(text)) throw invalid(slot, slot.base64, "not valid base64 (RFC 4648, padded)");
  const bytes = Buffer.from(text, "base64");
  if (bytes.length > maxBytes) throw tooLarge(slot, slot.base64, maxBytes);
  return new Uint8Array(bytes);
}

function readRegularFile(path: string, slot: FileSlot, maxBytes: number): Uint8Array {
  let real: string;
  try {
    real = realpathSync(path);
    if (real.startsWith("/dev/") || real.startsWith("/proc/") || !statSync(real).isFile()) throw invalid(slot, slot.path, "not a regular file");
  } catch (e) {
    throw asRefusal(e, slot);
  }
  let fd: number;
  try {
    // Non-blocking, so a FIFO swapped in after the check cannot hold the open; the descriptor is checked again.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY);
  } catch (e) {
    throw asRefusal(e, slot);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw invalid(slot, slot.path, "not a regular file");
    if (stat.size > maxBytes) throw tooLarge(slot, slot.path, maxBytes);
    const bytes = new Uint8Array(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch (e) {
    throw asRefusal(e, slot);
  } finally {
    closeSync(fd);
  }
}

/** A ServiceError as it is; an I/O error as a 422 naming the argument and the error code only. */
function asRefusal(e: unknown, slot: FileSlot): ServiceError {
  if (e instanceof ServiceError) return e;
  return invalid(slot, slot.path, `cannot read the file (${(e as NodeJS.ErrnoException).code ?? "I/O error"})`);
}

function invalid(slot: FileSlot, argument: string, why: string): ServiceError {
  return refuse("validation_error", { message: `${argument}: ${why}` }, { extra: { loc: ["arguments", ...slot.loc, argument] } });
}

function tooLarge(slot: FileSlot, argument: string, limit: number): ServiceError {
  return refuse(slot.tooLarge, { limit }, { extra: { loc: ["arguments", ...slot.loc, argument] } });
}
