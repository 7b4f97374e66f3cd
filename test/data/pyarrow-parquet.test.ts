import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkParquetBlob } from "../../src/data/parquet-check.js";
import { readPredictionsParquet } from "../../src/data/predictions-parquet.js";
import { EVENT_UPLOAD_DEFAULTS } from "../../src/service/kernel/settings/upload-limits.js";

/**
 * The checks before decoding (footer, page headers, inflated sizes) pass what participants really
 * write: pyarrow (and pandas through it) in every codec, v1 and v2 data pages, with and without
 * dictionaries, several row groups and pages. Needs the project venv (pyarrow); under CI a missing
 * venv fails here rather than skipping.
 */
const PYTHON = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));

const WRITE = `
import sys, pyarrow as pa, pyarrow.parquet as pq, pandas as pd
out = sys.argv[1]
n = 5000
ids = [f"id{i:08x}" for i in range(n)]
values = [(i % 97) / 97 for i in range(n)]
table = pa.table({"id": ids, "prediction": values})
for codec in ["NONE", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4"]:
    for version in ["1.0", "2.0"]:
        for dictionary in [True, False]:
            pq.write_table(table, f"{out}/{codec}-{version}-{dictionary}.parquet", compression=codec,
                           data_page_version=version, use_dictionary=dictionary, row_group_size=2000, data_page_size=4096)
pd.DataFrame({"prediction": values}, index=pd.Index(ids, name="id")).to_parquet(f"{out}/pandas.parquet")
`;

const LIMITS = {
  max_bytes: 1 << 30,
  max_rows: EVENT_UPLOAD_DEFAULTS.predictions_max_rows,
  max_uncompressed_bytes: EVENT_UPLOAD_DEFAULTS.predictions_max_uncompressed_bytes,
  max_columns: EVENT_UPLOAD_DEFAULTS.predictions_max_columns,
};

describe.skipIf(!existsSync(PYTHON) && !process.env.CI)("parquet files as pyarrow writes them", () => {
  it("pass every check before decoding and decode to what was written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "basecamp-pyarrow-"));
    execFileSync(PYTHON, ["-c", WRITE, dir]);
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(6 * 2 * 2 + 1);
    for (const name of names) {
      const bytes = readFileSync(join(dir, name));
      await checkParquetBlob(new Blob([bytes]));
      const { ids, values } = readPredictionsParquet(bytes, LIMITS);
      expect([name, ids.length, ids[4999], values[96]]).toEqual([name, 5000, "id00001387", 96 / 97]);
    }
  });
});
