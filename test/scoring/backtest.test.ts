import { describe, expect, it } from "vitest";
import { sharedColumn } from "../../src/data/frame.js";
import { scoreFrame, scoreFrameInParallel } from "../../src/scoring/backtest.js";
import { backtestFrame as frame, columns } from "./backtest-frame.js";

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

  it("names the frame row of a repeated id, on a worker too", async () => {
    const f = frame(30, 20, false);
    f.ids[599] = f.ids[590]; // exped e29, the 23rd in byte order: in the third chunk of 8
    await expect(scoreFrameInParallel(f, columns, { workers: 1 })).rejects.toThrow(/row 600: id '[0-9a-f]+' appears more than once in exped 'e29'/);
    expect(() => scoreFrame(f, columns)).toThrow(/row 600: .* exped 'e29'/);
  });
});
