import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkParquetBlob } from "../../src/data/parquet-check.js";
import { parquetBatches } from "../../src/data/parquet-batches.js";
import { ParquetFile } from "../../src/data/parquet-file.js";
import { writeFrameParquet } from "../../src/data/parquet.js";
import { ParquetFormatError } from "../../src/data/thrift-compact.js";
import { basecamp, errorLines } from "../helpers/cli.js";
import { deepSchemaParquet, honestParquet, inflatingIdParquet, understatedRowsParquet } from "../helpers/hostile-parquet.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-parquet-check-"));
const write = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

const HOSTILE: [string, () => Uint8Array, string][] = [
  ["inflating", () => inflatingIdParquet(400, 100), "its page at byte 4 inflates to more than the 100 bytes it declares"],
  ["understated", () => understatedRowsParquet(50, 1000), "the pages of column 0 in its row group 0 hold 50000000 rows where its footer says 1000"],
  ["deep", () => deepSchemaParquet(100_000), "its schema nests more than 32 levels deep"],
];

describe("local parquet files are checked before a decoder trusts them", () => {
  it("passes honest files, whole and by byte ranges", async () => {
    const frame = { ids: ["a", "b"], exped: ["e1", "e1"], columns: { prediction: Float64Array.of(0.25, 0.75) } };
    for (const bytes of [honestParquet(["a", "b"], [0.25, 0.75]), writeFrameParquet(frame)]) {
      await checkParquetBlob(new Blob([bytes as Uint8Array<ArrayBuffer>]));
    }
  });

  for (const [name, bytes, reason] of HOSTILE) {
    it(`refuses the ${name} file with a clear error: checked alone, read as a dataset split (here and on threads), and read as batches`, async () => {
      const file = bytes();
      await expect(checkParquetBlob(new Blob([file as Uint8Array<ArrayBuffer>]))).rejects.toThrow(new ParquetFormatError(reason));
      const path = write(`${name}.parquet`, file);
      // Opening checks the footer; the pages are checked before the first decode.
      for (const where of ["here", "threads"] as const) {
        await expect(ParquetFile.open(path).then((f) => f.read(["prediction"], where))).rejects.toThrow(`${path}: ${reason}`);
      }
      await expect(parquetBatches(path)(["prediction"])[Symbol.asyncIterator]().next()).rejects.toThrow(`${path}: ${reason}`);
    });
  }

  it("`basecamp score` on a file whose id inflates to 400 MiB exits with the reason, not a crash", async () => {
    const path = write("score-bomb.parquet", inflatingIdParquet(400, 100));
    const run = await basecamp(["score", path]);
    expect(run.status).toBe(1);
    expect(errorLines(run).join("\n")).toContain(`${path}: its page at byte 4 inflates to more than the 100 bytes it declares`);
  });
});
