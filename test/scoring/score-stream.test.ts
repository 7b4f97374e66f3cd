import { describe, expect, it } from "vitest";
import { asFloat64, rowsByExped, takeRows, type Frame } from "../../src/domain/frame.js";
import { scoreFrame } from "../../src/scoring/score-frame.js";
import { scoreExpedStream, type ExpedInput } from "../../src/scoring/score-stream.js";
import { columns, scoringFrame } from "./scoring-frame.js";

/** The expeds of a frame one at a time, in the frame's first-seen order (not byte order). */
function* expedsOf(frame: Frame): Generator<ExpedInput> {
  for (const [exped, rows] of rowsByExped(frame)) {
    const part = takeRows(frame, rows);
    const col = (name: string) => asFloat64(part.columns[name]);
    yield { exped, truth: { ids: part.ids, target: col(columns.target), benchmark: col(columns.benchmark), core: columns.core.map(col) }, prediction: col(columns.prediction) };
  }
}

/** The expeds one every 40 ms: slow enough for a worker started by the stream to join in. */
async function* slowly(frame: Frame): AsyncGenerator<ExpedInput> {
  for (const input of expedsOf(frame)) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    yield input;
  }
}

describe("scoreExpedStream", () => {
  it("gives results bit-identical to scoreFrame on the whole frame, on this thread or with a worker, sync or async source", async () => {
    for (const mixed of [false, true]) {
      const f = scoringFrame(30, 200, mixed);
      const expected = scoreFrame(f, columns);
      expect(await scoreExpedStream(expedsOf(f), { workers: 0 })).toStrictEqual(expected);
      expect(await scoreExpedStream(slowly(f), { workers: 1 })).toStrictEqual(expected);
      // the worker is now parked and ready, so it takes expeds from the first one on
      expect(await scoreExpedStream(expedsOf(f), { workers: 1 })).toStrictEqual(expected);
    }
  });

  it("leaves the source's arrays intact when it sends copies to a worker", async () => {
    const inputs = [...expedsOf(scoringFrame(12, 100, false))];
    const before = inputs.map((i) => Float64Array.from(i.prediction));
    await scoreExpedStream(inputs, { workers: 1 });
    inputs.forEach((input, k) => expect(input.prediction).toStrictEqual(before[k]));
  });

  it("names the row within its exped of a repeated id, on a worker too, and refuses a repeated exped", async () => {
    const f = scoringFrame(30, 20, false);
    await scoreExpedStream(slowly(f), { workers: 1 }); // parks a ready worker
    f.ids[11] = f.ids[2];
    for (const workers of [1, 0]) {
      // the first exped goes to the parked worker
      await expect(scoreExpedStream(expedsOf(f), { workers })).rejects.toThrow(/row 12: id '[0-9a-f]+' appears more than once in exped 'e0'/);
    }
    const [first] = expedsOf(scoringFrame(2, 10, false));
    await expect(scoreExpedStream([first, first], { workers: 0 })).rejects.toThrow(/exped 'e0' appears more than once/);
  });
});
