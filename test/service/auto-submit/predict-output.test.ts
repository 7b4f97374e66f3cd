import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPredictOutput } from "../../../src/service/auto-submit/predict-output.js";

const ids = ["a", "b", "c"];
const check = (answerIds: string[], values: number[]) => checkPredictOutput(ids, { ids: answerIds, values: Float64Array.from(values) });

describe("checkPredictOutput", () => {
  it("accepts any order of exactly the ids with values in [0, 1], giving them back in the ids' order", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 30, size: "max" }),
        fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
        fc.nat(),
        (expected, stream, seed) => {
          const values = expected.map(() => stream.next().value);
          const order = expected.map((_, i) => i).sort((x, y) => ((x * 7919 + seed) % 101) - ((y * 7919 + seed) % 101) || x - y);
          const out = checkPredictOutput(expected, { ids: order.map((i) => expected[i]), values: Float64Array.from(order, (i) => values[i]) });
          expect(out).toEqual({ ok: true, values: Float64Array.from(values) });
        },
      ),
    );
  });

  it("names the first problem: a repeated id, a stranger, a gap, a non-finite or out-of-range value", () => {
    expect(check(["a", "a", "b", "c"], [0, 0, 0, 0])).toEqual({ ok: false, error: "predict returned id 'a' more than once" });
    expect(check(["a", "b", "c", "z"], [0, 0, 0, 0])).toEqual({ ok: false, error: "predict returned 1 ids not in the live features (e.g. 'z')" });
    expect(check(["a", "c"], [0, 0])).toEqual({ ok: false, error: "predict returned no prediction for 1 of 3 ids (e.g. 'b')" });
    expect(check(["a", "b", "c"], [0, Number.NaN, 0])).toEqual({ ok: false, error: "predict returned a non-finite value (NaN) for id 'b'" });
    expect(check(["a", "b", "c"], [0, 1, -0.5])).toEqual({ ok: false, error: "predict returned -0.5 for id 'c'; predictions must be in [0, 1]" });
  });
});
