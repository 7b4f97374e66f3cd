import { describe, expect, it } from "vitest";
import { ExpedRows } from "../../src/data/exped-buffers.js";
import type { RowBatch } from "../../src/data/row-batch.js";
import { unpackIds } from "../../src/scoring/packed-ids.js";
import { hexId } from "../../src/scoring/hex-ids.js";

/** A one-label batch of `ids` with one numeric column 0, 1, 2, … */
function batch(ids: string[]): RowBatch {
  const bytes = Buffer.from(ids.join(""), "utf8");
  const idOffsets = new Int32Array(ids.length + 1);
  ids.forEach((id, i) => (idOffsets[i + 1] = idOffsets[i] + Buffer.byteLength(id)));
  return { length: ids.length, idBytes: bytes, idOffsets, runLabels: ["e"], runStarts: [0], columns: [Float64Array.from(ids, (_, i) => i)] };
}

/** The ids an ExpedRows hands over, as strings, and whether they came as keys. */
function gathered(parts: string[][], capacity?: number) {
  const rows = new ExpedRows(1, capacity);
  let first = 0;
  for (const ids of parts) {
    rows.append(batch(ids), 0, ids.length, first);
    first += ids.length;
  }
  const { ids, rows: sourceRows, columns } = rows.take();
  const strings = "keys" in ids ? Array.from({ length: ids.keys.length / 2 }, (_, i) => hexId(ids, i)) : unpackIds(ids);
  return { keyed: "keys" in ids, strings, sourceRows: Array.from(sourceRows), column: Array.from(columns[0]) };
}

describe("ExpedRows", () => {
  it("reads same-width lowercase hex ids into keys as they come, across batches and buffer growth", () => {
    const a = ["00000000000000ff", "ffffffffffffffff", "0123456789abcdef"];
    const b = ["fedcba9876543210", "8000000000000000"];
    const got = gathered([a, b], 2);
    expect(got).toEqual({ keyed: true, strings: [...a, ...b], sourceRows: [0, 1, 2, 3, 4], column: [0, 1, 2, 0, 1] });
    expect(gathered([["0a", "ff", "10"]]).keyed).toBe(true);
    expect(gathered([["7"]]).strings).toEqual(["7"]);
  });

  it("hands over the ids packed, as they are, once one is not hex of the first id's width", () => {
    for (const parts of [[["0a", "1B"]], [["00000000000000ff", "ffffffffffffffff"], ["0123456789abcdeg", "x"]], [["0a"], ["abc"]], [["0a", "zz"]], [["0123456789abcdef0"]], [["", ""]], [["é1", "0a"]]]) {
      const got = gathered(parts);
      expect(got.keyed).toBe(false);
      expect(got.strings).toEqual(parts.flat());
    }
  });

  it("hands over arrays that each own their whole buffer (so they can be transferred), full or not", () => {
    for (const capacity of [3, 8]) {
      const rows = new ExpedRows(1, capacity);
      rows.append(batch(["01", "02", "03"]), 0, 3, 0);
      const { ids, rows: sourceRows, columns } = rows.take();
      const keys = "keys" in ids ? ids.keys : null;
      expect([keys?.buffer.byteLength, sourceRows.buffer.byteLength, columns[0].buffer.byteLength]).toEqual([3 * 8, 3 * 4, 3 * 8]);
    }
  });
});
