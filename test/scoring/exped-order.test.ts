import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scoreFile } from "../../src/commands/score.js";
import { writeFrameCsv } from "../../src/data/csv.js";
import { Rng } from "../../src/domain/rng.js";
import { compareExpeds } from "../../src/scoring/exped-order.js";

describe("compareExpeds", () => {
  it("orders whole-number labels by value, before any other label; the rest in byte order", () => {
    expect(["10", "9", "era_002", "-1", "era_010", "2", "100"].sort(compareExpeds)).toEqual(["-1", "2", "9", "10", "100", "era_002", "era_010"]);
    expect(["00010", "00009"].sort(compareExpeds)).toEqual(["00009", "00010"]);
    expect(["1", "01"].sort(compareExpeds)).toEqual(["01", "1"]);
  });

  it("is a total order: antisymmetric and transitive over any labels", () => {
    const label = fc.oneof(fc.integer({ min: -50, max: 5000 }).map(String), fc.string({ maxLength: 6 }), fc.nat(99).map((n) => `0${n}`));
    fc.assert(
      fc.property(label, label, label, (a, b, c) => {
        expect(Math.sign(compareExpeds(a, b)) + Math.sign(compareExpeds(b, a))).toBe(0); // (+0 and -0 differ to toBe)
        if (a !== b) expect(compareExpeds(a, b)).not.toBe(0);
        if (compareExpeds(a, b) <= 0 && compareExpeds(b, c) <= 0) expect(compareExpeds(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
});

it("score reports integer eras in their order: 9 before 10", async () => {
  const rng = new Rng("integer-eras");
  const n = 12 * 30;
  const col = (f: () => number) => Float64Array.from({ length: n }, f);
  const frame = {
    ids: Array.from({ length: n }, () => rng.hex(16)),
    exped: Array.from({ length: n }, (_, i) => String(1 + (i % 12))),
    columns: { prediction: col(() => rng.next()), target: col(() => rng.int(5) / 4), v1_designated: col(() => rng.next()) },
  };
  const path = join(mkdtempSync(join(tmpdir(), "basecamp-eras-")), "eras.csv");
  writeFileSync(path, writeFrameCsv(frame).replace(/^id,exped,/, "id,era,"));
  const report = await scoreFile(path, { core: [] });
  expect(report.expeds.map((e) => e.exped)).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
});
