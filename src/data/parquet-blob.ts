import { openAsBlob } from "node:fs";
import { readFile } from "node:fs/promises";

/** Files up to this size are read whole as they open (at most this much is held for a file being read). */
const READ_WHOLE_BYTES = 16 * 1024 * 1024;

/**
 * A parquet file as a Blob, which parquet-wasm reads by byte ranges. A small file is read whole as
 * it opens and its ranges are sliced from memory: each range read of a file-backed Blob opens the
 * file anew, hundreds of times for a file of many column chunks (206 for the real-size validation
 * split), each a round trip through libuv's threads. A larger one stays file-backed, so it is never
 * whole in memory.
 */
export async function parquetBlob(path: string): Promise<Blob> {
  const blob = await openAsBlob(path);
  return blob.size <= READ_WHOLE_BYTES ? new Blob([await readFile(path)]) : blob;
}
