import { createHash } from "node:crypto";
import { Float32, Float64, Int32, Schema, Table, Utf8, makeData, makeVector, tableToIPC, vectorFromArray, type Vector } from "apache-arrow";
import fc from "fast-check";
import { Table as WasmTable, writeParquet } from "parquet-wasm";
import { describe, expect, it } from "vitest";
import { utf8Vector } from "../../src/data/arrow-columns.js";
import { csvRecords } from "../../src/data/csv-records.js";
import { pandasMetadata } from "../../src/data/pandas-metadata.js";
import { parsePredictionsFile, predictionsDigest, type PredictionsFile } from "../../src/data/predictions-file.js";
import { refusal } from "../helpers/refusal.js";

const LIMIT = { max_bytes: 1 << 20, max_rows: 1000, max_uncompressed_bytes: 1 << 20, max_columns: 8 };
const text = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));
const csv = (s: string) => parsePredictionsFile("preds.csv", text(s), LIMIT);

function parquet(columns: Record<string, Vector>, pandasIndex?: string): Uint8Array {
  const plain = new Table(columns);
  const metadata = new Map<string, string>();
  if (pandasIndex) metadata.set("pandas", JSON.stringify(pandasMetadata(pandasIndex, [], ["prediction"])));
  const table = new Table(new Schema(plain.schema.fields, metadata), plain.batches);
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(table, "stream")));
}

const f64 = (values: number[]) => makeVector(makeData({ type: new Float64(), length: values.length, data: Float64Array.from(values) }));

describe("parsePredictionsFile: CSV", () => {
  it("reads id and prediction in file order, ignoring other columns", () => {
    const p = csv("exped,id,prediction,note\nx,b,0.25,hi\nx,a,1,\nx,c,0,\n");
    expect(p.ids).toEqual(["b", "a", "c"]);
    expect([...p.values]).toEqual([0.25, 1, 0]);
    expect(p.values).toBeInstanceOf(Float64Array);
  });

  it("accepts CRLF, a BOM, quoted fields with commas, quotes and newlines, and no final newline", () => {
    const p = csv('\uFEFFid,prediction\r\n"a,1",0.5\r\n"b ""q""",".75"\r\n"c\nd",1e-1');
    expect(p.ids).toEqual(["a,1", 'b "q"', "c\nd"]);
    expect([...p.values]).toEqual([0.5, 0.75, 0.1]);
  });

  it("names the row and column of an empty or non-numeric value", () => {
    const empty = refusal(() => csv("id,prediction\na,0.1\nb,\n"));
    expect([empty.status, empty.code]).toEqual([400, "predictions_value_malformed"]);
    expect(empty.message).toBe("The predictions file is malformed at row 2, column 'prediction': the value is empty.");
    expect(refusal(() => csv("id,prediction\na,0.1\nb,0.2\nc,abc\n")).message).toContain("row 3, column 'prediction': 'abc' is not a number");
    for (const bad of ["0x1", "1,5", "0.5.1", "--1", "1e"]) {
      expect(refusal(() => csv(`id,prediction\na,"${bad}"\n`)).code).toBe("predictions_value_malformed");
    }
    expect(refusal(() => csv("id,prediction\n,0.1\n")).message).toContain("row 1, column 'id': the value is empty");
  });

  it("names the row of a short or long record", () => {
    expect(refusal(() => csv("id,prediction\na,0.1\nb\n")).message).toContain("row 2, column 'prediction': the row has 1 fields, the header 2");
    expect(refusal(() => csv("id,prediction\na,0.1,9\n")).message).toContain("row 1, column '(field 3)'");
  });

  it("refuses an unterminated quote, text that is not UTF-8, and a missing column", () => {
    expect(refusal(() => csv('id,prediction\n"a,0.1\n')).message).toMatch(/^The predictions file is not readable CSV: line 2: the quote/);
    expect(refusal(() => parsePredictionsFile("p.csv", new Uint8Array([0x69, 0x64, 0xff]), LIMIT)).message).toContain("not UTF-8");
    for (const [body, column] of [["id,pred\na,1\n", "prediction"], ["ID,prediction\na,1\n", "id"]]) {
      const e = refusal(() => csv(body));
      expect([e.status, e.code, e.message]).toEqual([400, "predictions_column_missing", `The predictions file has no '${column}' column.`]);
    }
  });
});

describe("parsePredictionsFile: parquet", () => {
  const ids = ["b", "a", "c"];

  it("reads id as a plain column and as the pandas index, any float or int width", () => {
    const asColumn = parquet({ id: utf8Vector(ids), prediction: vectorFromArray([0.5, 0.25, 1], new Float32()) });
    const asIndex = parquet({ prediction: f64([0.5, 0.25, 1]), __index_level_0__: utf8Vector(ids) }, "__index_level_0__");
    const ints = parquet({ id: utf8Vector(ids), prediction: vectorFromArray([0, 1, 0], new Int32()) });
    expect(parsePredictionsFile("p.parquet", asColumn, LIMIT)).toEqual({ ids, values: Float64Array.from([0.5, 0.25, 1]) });
    expect(parsePredictionsFile("P.PARQUET", asIndex, LIMIT)).toEqual({ ids, values: Float64Array.from([0.5, 0.25, 1]) });
    expect(parsePredictionsFile("p.parquet", ints, LIMIT).values).toEqual(Float64Array.from([0, 1, 0]));
  });

  it("refuses missing columns, a non-numeric prediction, nulls naming the row, bad bytes and no rows", () => {
    const noId = parquet({ prediction: f64([0.5]) });
    expect(refusal(() => parsePredictionsFile("p.parquet", noId, LIMIT)).message).toBe("The predictions file has no 'id' column.");
    const noPrediction = parquet({ id: utf8Vector(["a"]), score: f64([0.5]) });
    expect(refusal(() => parsePredictionsFile("p.parquet", noPrediction, LIMIT)).message).toBe("The predictions file has no 'prediction' column.");
    const strings = parquet({ id: utf8Vector(["a"]), prediction: utf8Vector(["0.5"]) });
    expect(refusal(() => parsePredictionsFile("p.parquet", strings, LIMIT)).code).toBe("predictions_column_type");
    const nulls = parquet({ id: utf8Vector(["a", "b"]), prediction: vectorFromArray([0.5, null], new Float64()) });
    expect(refusal(() => parsePredictionsFile("p.parquet", nulls, LIMIT)).message).toContain("row 2, column 'prediction': the value is empty");
    const nullId = parquet({ id: vectorFromArray(["a", null], new Utf8()), prediction: f64([0.5, 0.5]) });
    expect(refusal(() => parsePredictionsFile("p.parquet", nullId, LIMIT)).message).toContain("row 2, column 'id'");
    expect(refusal(() => parsePredictionsFile("p.parquet", text("PAR1 nope"), LIMIT)).code).toBe("predictions_file_unreadable");
    const empty = parquet({ id: utf8Vector([]), prediction: f64([]) });
    expect(refusal(() => parsePredictionsFile("p.parquet", empty, LIMIT)).code).toBe("predictions_file_empty");
  });
});

describe("parsePredictionsFile: rules shared by both formats", () => {
  it("refuses a file over the limit with 413 naming the limit, before anything else", () => {
    const e = refusal(() => parsePredictionsFile("p.txt", text("id,prediction\na,0.5\n"), { ...LIMIT, max_bytes: 10 }));
    expect([e.status, e.code, e.message]).toEqual([413, "predictions_file_too_large", "File too large: the limit is 10 bytes."]);
    expect(csv("id,prediction\na,0.5\n").ids).toEqual(["a"]);
  });

  it("refuses an unknown extension and empty files", () => {
    expect(refusal(() => parsePredictionsFile("p.json", text("{}"), LIMIT)).message).toBe(
      "The predictions file must be a .csv or .parquet file ('p.json' given).",
    );
    for (const body of ["", "\n", "id,prediction\n", "id,prediction\r\n\r\n"]) {
      expect(refusal(() => csv(body)).code).toBe("predictions_file_empty");
    }
    expect(refusal(() => parsePredictionsFile("p.parquet", new Uint8Array(), LIMIT)).code).toBe("predictions_file_empty");
  });

  it("refuses a repeated id, naming it", () => {
    const e = refusal(() => csv("id,prediction\na,0.1\nb,0.2\na,0.3\n"));
    expect([e.status, e.code, e.message]).toEqual([400, "predictions_duplicate_id", "The predictions file lists id 'a' more than once."]);
  });

  it("refuses the first bad row in file order, whether or not the ids rise (a file in id order is checked without a set)", () => {
    // The rows' rule as stated: each row in turn, its id not empty, then not seen before, then its value in [0, 1].
    const firstBreak = (ids: string[], values: number[]): string | null => {
      const seen = new Set<string>();
      for (let r = 0; r < ids.length; r++) {
        if (ids[r] === "") return `predictions_value_malformed ${r + 1}`;
        if (seen.has(ids[r])) return `predictions_duplicate_id ${ids[r]}`;
        seen.add(ids[r]);
        if (!(values[r] >= 0 && values[r] <= 1)) return `predictions_value_out_of_range ${r + 1}`;
      }
      return null;
    };
    const row = fc.record({ id: fc.constantFrom("", "a", "b", "c", "d", "e", "f"), value: fc.constantFrom(0, 0.5, 1, 1.5, -0.25) });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), fc.boolean(), (rows, sorted) => {
        if (sorted) rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
        const body = `id,prediction\n${rows.map((x) => `${x.id},${x.value}`).join("\n")}\n`;
        const expected = firstBreak(rows.map((x) => x.id), rows.map((x) => x.value));
        let got: string | null = null;
        try {
          csv(body);
        } catch (e) {
          const { code, message } = refusal(() => {
            throw e;
          });
          got = code === "predictions_duplicate_id" ? `${code} ${/'(.*)'/.exec(message)?.[1]}` : `${code} ${/row (\d+)/.exec(message)?.[1]}`;
        }
        expect(got).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses values outside [0, 1] or not finite, naming the row", () => {
    for (const [value, shown] of [["1.0001", "1.0001"], ["-0.5", "-0.5"], ["nan", "NaN"], ["-inf", "-Infinity"], ["Infinity", "Infinity"]]) {
      const e = refusal(() => csv(`id,prediction\na,0.5\nb,${value}\n`));
      expect([e.status, e.code]).toEqual([400, "predictions_value_out_of_range"]);
      expect(e.message).toBe(`The predictions file has prediction ${shown} at row 2; predictions must be finite numbers in [0, 1].`);
    }
    expect(refusal(() => parsePredictionsFile("p.parquet", parquet({ id: utf8Vector(["a"]), prediction: f64([NaN]) }), LIMIT)).code).toBe(
      "predictions_value_out_of_range",
    );
  });
});

describe("predictionsDigest", () => {
  const rows = fc.uniqueArray(fc.tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 8 }), fc.double({ min: 0, max: 1, noNaN: true })), {
    minLength: 1,
    maxLength: 40,
    size: "max",
    selector: ([id]) => id,
  });
  const file = (r: [string, number][]): PredictionsFile => ({ ids: r.map(([id]) => id), values: Float64Array.from(r.map(([, v]) => v)) });
  const quote = (id: string) => `"${id.replaceAll('"', '""')}"`;
  const asCsv = (r: [string, number][]) => text(`id,prediction\n${r.map(([id, v]) => `${quote(id)},${v}`).join("\r\n")}\n`);
  const asParquet = (r: [string, number][]) => parquet({ prediction: f64(r.map(([, v]) => v)), id: utf8Vector(r.map(([id]) => id)) }, "id");

  it("is the same for the same rows as CSV or parquet, in any order", () => {
    fc.assert(
      fc.property(
        rows,
        fc.func(fc.integer()),
        (r, key) => {
          const shuffled = [...r].sort((a, b) => key(a[0]) - key(b[0]));
          const fromCsv = parsePredictionsFile("p.csv", asCsv(r), LIMIT);
          const fromParquet = parsePredictionsFile("p.parquet", asParquet(shuffled), LIMIT);
          expect(predictionsDigest(fromCsv)).toBe(predictionsDigest(file(r)));
          expect(predictionsDigest(fromParquet)).toBe(predictionsDigest(file(r)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("changes when any value or id changes", () => {
    fc.assert(
      fc.property(rows, fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), fc.string({ minLength: 1, maxLength: 8 }), (r, at, v, id) => {
        const i = at % r.length;
        const base = predictionsDigest(file(r));
        if (!Object.is(r[i][1] === 0 ? 0 : r[i][1], v === 0 ? 0 : v)) {
          expect(predictionsDigest(file(r.map((row, k) => (k === i ? [row[0], v] : row))))).not.toBe(base);
        }
        if (!r.some(([existing]) => existing === id)) {
          expect(predictionsDigest(file(r.map((row, k) => (k === i ? [id, row[1]] : row))))).not.toBe(base);
        }
      }),
    );
  });

  it("hashes the documented layout: rows by id's UTF-8 bytes, each its byte length (u32 LE), its bytes, its value (f64 LE)", () => {
    const layout = (f: PredictionsFile) => {
      const rows = f.ids.map((id, i) => ({ id: Buffer.from(id, "utf8"), v: f.values[i] })).sort((a, b) => Buffer.compare(a.id, b.id));
      const parts = rows.flatMap(({ id, v }) => {
        const n = Buffer.alloc(4);
        n.writeUInt32LE(id.length);
        const x = Buffer.alloc(8);
        x.writeDoubleLE(v === 0 ? 0 : v);
        return [n, id, x];
      });
      return createHash("sha256").update("basecamp.predictions.v1\n").update(Buffer.concat(parts)).digest("hex");
    };
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 });
    const ids = fc.oneof(ascii, fc.string({ unit: "binary", minLength: 1, maxLength: 8 }));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(ids, fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 40, size: "max", selector: ([id]) => id }), (r) => {
        expect(predictionsDigest(file(r))).toBe(layout(file(r)));
      }),
      { numRuns: 300 },
    );
  });

  it("sorts ids by UTF-8 bytes, not UTF-16 units, and treats -0 as 0", () => {
    const astral = "\u{1F600}"; // UTF-16 D83D.. sorts before U+FF61; UTF-8 F0.. sorts after EF..
    const a = predictionsDigest({ ids: [astral, "\uFF61"], values: Float64Array.from([0.1, 0.2]) });
    const b = predictionsDigest({ ids: ["\uFF61", astral], values: Float64Array.from([0.2, 0.1]) });
    expect(a).toBe(b);
    expect(predictionsDigest({ ids: ["x"], values: Float64Array.from([-0]) })).toBe(predictionsDigest({ ids: ["x"], values: Float64Array.from([0]) }));
    expect(predictionsDigest({ ids: ["x"], values: Float64Array.from([0.5]) })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("csvRecords", () => {
  it("round-trips any fields written the RFC 4180 way", () => {
    const field = fc.string({ unit: fc.constantFrom("a", ",", '"', "\n", "\r\n", " ", "é") });
    const record = fc.array(field, { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 10 }), (records) => {
        const body = records.map((r) => r.map((f) => `"${f.replaceAll('"', '""')}"`).join(",")).join("\r\n");
        expect([...csvRecords(body)]).toEqual(records);
      }),
    );
  });
});
