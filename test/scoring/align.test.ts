import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareIds, orderIds } from "../../src/scoring/align.js";

const bytes = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));

describe("id order", () => {
  it("compareIds is UTF-8 byte order, also where UTF-16 code units disagree", () => {
    expect(compareIds("\u{1F600}", "\uFB01")).toBeGreaterThan(0); // astral after U+FB01 in bytes, before it in UTF-16
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
        expect(Math.sign(compareIds(a, b))).toBe(bytes(a, b));
      }),
    );
  });

  it("orderIds sorts in byte order and maps back to the caller's rows", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: "binary" })), (ids) => {
        const { sorted, order } = orderIds(ids);
        expect(sorted).toEqual([...ids].sort((a, b) => bytes(a, b)));
        if (order) expect(Array.from(order, (i) => ids[i])).toEqual(sorted);
      }),
    );
  });

  it("names a duplicated id", () => {
    expect(() => orderIds(["b", "a", "b"])).toThrow("id 'b' appears more than once");
  });
});
