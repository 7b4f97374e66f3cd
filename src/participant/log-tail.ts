import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** The last `bytes` of a file as UTF-8 (a character cut at the start is dropped); "" when it cannot be read. */
export function fileTail(path: string, bytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return "";
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, size - length);
    return buffer.toString("utf8", 0, read).replace(/^\uFFFD+/, "");
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

/** The last `n` lines of a file (read from its last 64 KiB), without a trailing empty line. */
export function lastLines(path: string, n: number): string[] {
  const lines = fileTail(path, 64 * 1024).split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.slice(-n);
}
