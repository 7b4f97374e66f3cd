import { describe, expect, it } from "vitest";
import { sharedColumn } from "../../src/domain/frame.js";
import { portableSlice, scoreFrame, scoreFrameInParallel, unpackSlice } from "../../src/scoring/score-frame.js";
import { columns, scoringFrame as frame } from "./scoring-frame.js";

describe("scoreFrameInParallel", () => {
  it("gives results bit-identical to scoreFrame on one thread, contiguous or interleaved expeds", async () => {
    for (const mixed of [false, true]) {
      const f = frame(30, 200, mixed);
      const expected = scoreFrame(f, columns);
      expect(expected.map((e) => e.exped)).toEqual([...expected.map((e) => e.exped)].sort());
      expect(await scoreFrameInParallel(f, columns, { workers: 1 })).toStrictEqual(expected);
      expect(await scoreFrameInParallel(f, columns, { workers: 0 })).toStrictEqual(expected);
    }
  });

  it("gives the same results when the columns are on shared memory (sent to workers as views)", async () => {
    const f = frame(30, 200, false);
    const expected = scoreFrame(f, columns);
    for (const [name, col] of Object.entries(f.columns)) {
      f.columns[name] = sharedColumn(col.length);
      f.columns[name].set(col);
    }
    expect(await scoreFrameInParallel(f, columns, { workers: 1 })).toStrictEqual(expected);
  });

  it("gives the same results for ids of mixed lengths (packed differently for workers)", async () => {
    const f = frame(30, 200, false);
    f.ids = f.ids.map((id, i) => (i % 3 === 0 ? id.slice(0, 9) : i % 3 === 1 ? `${id}é` : id));
    expect(await scoreFrameInParallel(f, columns, { workers: 1 })).toStrictEqual(scoreFrame(f, columns));
  });

  it("packs a slice's ids for a worker and unpacks them equal", () => {
    const column = new Float64Array(3);
    for (const ids of [[], [""], ["ab", "cd", "ef"], ["a", "", "bcd"]]) {
      const slice = { exped: "e", rows: [0, ids.length] as [number, number], truth: { ids, target: column, benchmark: null, core: [] }, prediction: column };
      expect(unpackSlice(portableSlice(slice)).truth.ids).toEqual(ids);
    }
  });

  it("names the frame row of a repeated id, on a worker too", async () => {
    const f = frame(30, 20, false);
    f.ids[599] = f.ids[590]; // exped e29, the 23rd in byte order
    await expect(scoreFrameInParallel(f, columns, { workers: 1 })).rejects.toThrow(/row 600: id '[0-9a-f]+' appears more than once in exped 'e29'/);
    expect(() => scoreFrame(f, columns)).toThrow(/row 600: .* exped 'e29'/);
  });
});
