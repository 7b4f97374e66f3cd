import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFrameCsv, writeFrameCsv } from "../../src/data/csv.js";
import { csvRecords } from "../../src/data/csv-records.js";

describe("readFrameCsv", () => {
  it("reads ids and exped as text and the other columns as numbers, empty = missing", () => {
    const frame = readFrameCsv('id,exped,prediction,target\r\na1,exped_0001,0.5,1\n"a,2",exped_0001,,0.25\n');
    expect(frame.ids).toEqual(["a1", "a,2"]);
    expect(frame.exped).toEqual(["exped_0001", "exped_0001"]);
    expect(Array.from(frame.columns.prediction)).toEqual([0.5, NaN]);
    expect(Array.from(frame.columns.target)).toEqual([1, 0.25]);
  });

  it("reads only the requested columns and names what is wrong", () => {
    const text = "id,exped,note,prediction\na,e,hello,0.5\nb,e,x,abc\n";
    expect(() => readFrameCsv(text)).toThrow("row 1: column 'note': 'hello' is not a number");
    expect(() => readFrameCsv(text, { columns: ["prediction"] })).toThrow("row 2: column 'prediction': 'abc' is not a number");
    expect(() => readFrameCsv(text, { columns: ["target"] })).toThrow("missing column 'target'");
    expect(() => readFrameCsv("id,exped,p\na,e\n")).toThrow("row 1: expected 3 fields, found 2");
  });

  it("round-trips any frame exactly through writeFrameCsv", () => {
    const text = fc.string({ unit: "binary" });
    const number = fc.oneof(fc.double(), fc.constant(NaN));
    const frame = fc.integer({ min: 0, max: 8 }).chain((n) =>
      fc.record({
        ids: fc.array(text, { minLength: n, maxLength: n }),
        exped: fc.array(text, { minLength: n, maxLength: n }),
        columns: fc.record({
          a: fc.array(number, { minLength: n, maxLength: n }).map((xs) => Float64Array.from(xs)),
          b: fc.array(number, { minLength: n, maxLength: n }).map((xs) => Float64Array.from(xs)),
        }),
      }),
    );
    fc.assert(
      fc.property(frame, (f) => {
        // A record that is one empty field is indistinguishable from a blank line; ids are never empty in practice.
        fc.pre(f.ids.every((id) => id !== ""));
        const back = readFrameCsv(writeFrameCsv(f));
        expect(back).toEqual(f);
        expect(Object.keys(back.columns)).toEqual(["a", "b"]);
        back.columns.a.forEach((v, i) => expect(Object.is(v, f.columns.a[i])).toBe(true));
      }),
    );
  });
});

describe("readFrameCsv on malformed quoting", () => {
  it("refuses an unclosed quote, naming its line", () => {
    expect(() => readFrameCsv('id,exped,prediction\n"a1,exped_0001,0.5\n')).toThrow(/line 2: the quote opened at column 1 is never closed/);
  });
});

describe("csvRecords on unquoted text", () => {
  it("gives each non-blank line's fields split at its commas (LF or CRLF), as a plain split does", () => {
    const text = fc.array(fc.constantFrom("a", "b", "1", ".", ",", "\n", "\r\n", " "), { maxLength: 40, size: "max" }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, (t) => {
        const lines = t.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
        const expected = lines.filter((l) => l !== "").map((l) => l.split(","));
        expect([...csvRecords(t)]).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
