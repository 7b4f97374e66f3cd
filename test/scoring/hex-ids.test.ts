import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexIds, type DuplicateIdError } from "../../src/scoring/align.js";
import { hexId, hexIdOrder, hexKeyOrder, type HexKeys } from "../../src/scoring/hex-ids.js";

const hexIds = fc
  .integer({ min: 1, max: 16 })
  .chain((length) => fc.array(fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: length, maxLength: length })));
const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
const repeatOf = (f: () => unknown) => {
  try {
    f();
    return null;
  } catch (err) {
    const { id, index } = err as DuplicateIdError;
    return { id, index };
  }
};

describe("hexIdOrder", () => {
  it("orders same-length lowercase hex ids in byte order, stably mapping back to the rows", () => {
    fc.assert(
      fc.property(hexIds, (ids) => {
        const unique = [...new Set(ids)];
        const order = hexIdOrder(unique)!;
        expect(Array.from(order, (i) => unique[i])).toEqual([...unique].sort(bytes));
      }),
    );
  });

  it("fails on a repeated id exactly as indexIds does (the second copy in row order)", () => {
    fc.assert(
      fc.property(hexIds, (ids) => {
        expect(repeatOf(() => hexIdOrder(ids))).toEqual(repeatOf(() => indexIds(ids)));
      }),
    );
  });

  it("declines ids that are not all lowercase hex of one length", () => {
    expect(hexIdOrder(["0a", "1b", "2"])).toBeNull();
    expect(hexIdOrder(["0a", "1B"])).toBeNull();
    expect(hexIdOrder(["0a", "zz"])).toBeNull();
    expect(hexIdOrder(["0123456789abcdef0"])).toBeNull();
    expect(Array.from(hexIdOrder(["ffffffffffffffff", "0000000000000000"])!)).toEqual([1, 0]);
  });
});

/** The keys of same-length hex ids, as a file reader makes them from the ids' bytes. */
function keysOf(ids: string[]): HexKeys {
  const width = ids.length === 0 ? 1 : ids[0].length;
  const keys = new Uint32Array(2 * ids.length);
  ids.forEach((id, i) => {
    const v = BigInt(`0x${id}`);
    keys[2 * i] = Number(v & 0xffffffffn);
    keys[2 * i + 1] = Number(v >> 32n);
  });
  return { width, keys };
}

describe("hexKeyOrder (ids as keys)", () => {
  it("orders and names repeats exactly as hexIdOrder does on the strings, and hexId gives each id back", () => {
    fc.assert(
      fc.property(hexIds, (ids) => {
        const keys = keysOf(ids);
        expect(repeatOf(() => hexKeyOrder(keys))).toEqual(repeatOf(() => hexIdOrder(ids)));
        const unique = [...new Set(ids)];
        expect(Array.from(hexKeyOrder(keysOf(unique)))).toEqual(Array.from(hexIdOrder(unique)!));
        ids.forEach((id, i) => expect(hexId(keys, i)).toBe(id));
      }),
    );
  });
});

describe("hexIdOrder on keys that collide as doubles or crowd together", () => {
  it("orders ids that differ only in the low bits, and ids sharing a long prefix", () => {
    const ids = ["ffffffffffffff01", "ffffffffffffff00", "0000000000000002", "fffffffffffff800", "0000000000000001"];
    const order = hexIdOrder(ids)!;
    expect(Array.from(order, (i) => ids[i])).toEqual([...ids].sort());
    const crowded = Array.from({ length: 200 }, (_, i) => (i === 0 ? "f" : "0").padEnd(15, "0") + (i % 16).toString(16));
    const unique = [...new Set(crowded)];
    expect(Array.from(hexIdOrder(unique)!, (i) => unique[i])).toEqual([...unique].sort());
  });
});

it("declines non-ASCII ids whose bytes could pass for hex digits", () => {
  expect(hexIdOrder(["\u0130a", "0b"])).toBeNull();
});
