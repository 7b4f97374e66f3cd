import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { csvBatches } from "../../src/data/csv-batches.js";
import { parseNumberBytes } from "../../src/data/csv-number.js";
import { readFrameCsv } from "../../src/data/csv.js";
import type { RowBatch } from "../../src/data/row-batch.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-csv-batches-"));

/** The rows of every batch as [id, exped, ...numbers], read `chunk` bytes at a time. */
async function rowsOf(text: string, columns: string[], chunk: number): Promise<unknown[][]> {
  const path = join(dir, `f${chunk}.csv`);
  writeFileSync(path, text);
  const rows: unknown[][] = [];
  for await (const b of csvBatches(path, chunk)(columns)) rows.push(...rowsOfBatch(b));
  return rows;
}

function rowsOfBatch(b: RowBatch): unknown[][] {
  return Array.from({ length: b.length }, (_, i) => {
    let run = 0;
    while (run + 1 < b.runStarts.length && b.runStarts[run + 1] <= i) run++;
    const id = Buffer.from(b.idBytes.subarray(b.idOffsets[i], b.idOffsets[i + 1])).toString("utf8");
    return [id, b.runLabels[run], ...b.columns.map((c) => c[i])];
  });
}

describe("csvBatches", () => {
  const text = [
    "id,exped,x,note,y",
    "a1,e1,0.1,plain,1e-3",
    "",
    '"a,2",e1,-0,"two\nlines ""quoted""",17',
    "a3,e2,0.30000000000000004,x,NaN\r",
    "a4,\"e2\",,y,-12345678901234567890",
    '"ü5",e1,"1.5",z,Infinity',
  ].join("\n");

  it("reads the same rows as readFrameCsv at any chunk size, quoted records, CRLF and blank lines included", async () => {
    const frame = readFrameCsv(text, { columns: ["x", "y"] });
    const expected = frame.ids.map((id, i) => [id, frame.exped[i], frame.columns.x[i], frame.columns.y[i]]);
    for (const chunk of [1, 3, 7, 16, 64, 1 << 16]) expect(await rowsOf(text, ["x", "y"], chunk)).toStrictEqual(expected);
  });

  it("names the row and column of a bad number or a short row, and a missing column", async () => {
    await expect(rowsOf("id,exped,x\na,e,1\nb,e,1x\n", ["x"], 5)).rejects.toThrow("row 2: column 'x': '1x' is not a number");
    await expect(rowsOf("id,exped,x\na,e,1\nb,e\n", ["x"], 5)).rejects.toThrow("row 2: expected 3 fields, found 2");
    await expect(rowsOf("id,exped,x\n", ["y"], 5)).rejects.toThrow("missing column 'y'");
  });
});

describe("parseNumberBytes", () => {
  it("gives the double Number() gives", () => {
    const cases = ["0", "-0", "1", "0.1", "0.30000000000000004", "123456789012345", "9007199254740993", "1e22", "1e23", "1.5e-7", "-.5", "+2.", "4.35", "0.000001", "1e-22", "123e-25", "5e-324", "1e400", " 7", "0x10"];
    for (const t of cases) expect(Object.is(parseNumberBytes(Buffer.from(t), 0, t.length), Number(t))).toBe(true);
    for (const t of ["", "NaN", "nan"]) expect(parseNumberBytes(Buffer.from(t), 0, t.length)).toBeNaN();
    expect(() => parseNumberBytes(Buffer.from("1e"), 0, 2)).toThrow("'1e' is not a number");
  });
});
