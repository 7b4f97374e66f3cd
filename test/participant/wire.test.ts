import { tableFromIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { encodeRequest } from "../../src/participant/wire.js";

const frame: Frame = {
  ids: ["eiq_0000000000000001", "eiq_0000000000000002", "ünï"],
  exped: ["exped_0001", "exped_0001", "exped_0002"],
  columns: { feature_a: Int8Array.of(-1, 4, 9), target: Float32Array.of(0.25, Number.NaN, 1), score: Float64Array.of(0.1, -0, Infinity) },
};

/** The frame streams of a request: header length, body length, header, then the body. */
function streams(parts: Buffer[]): { header: { frames: ({ bytes: number } | null)[] }; bodies: Buffer[] } {
  const all = Buffer.concat(parts);
  const headerLength = all.readUInt32LE(0);
  const header = JSON.parse(all.subarray(8, 8 + headerLength).toString("utf8"));
  let at = 8 + headerLength;
  const bodies: Buffer[] = [];
  for (const spec of header.frames) {
    if (spec === null) continue;
    bodies.push(all.subarray(at, at + spec.bytes));
    at += spec.bytes;
  }
  return { header, bodies };
}

describe("a frame on the wire", () => {
  it("is an Arrow IPC stream of id, exped and each column in its own type, bit for bit, with pandas metadata naming the id index", async () => {
    const { header, bodies } = streams(await encodeRequest({ op: "predict" }, [frame, null]));
    expect(header.frames[1]).toBeNull();
    expect(bodies[0].length % 8).toBe(0);
    const table = tableFromIPC(bodies[0]);
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(["id:Utf8", "exped:Utf8", "feature_a:Int8", "target:Float32", "score:Float64"]);
    expect(JSON.parse(table.schema.metadata.get("pandas") as string).index_columns).toEqual(["id"]);
    expect(table.getChild("id")?.toArray()).toEqual(frame.ids);
    expect(table.getChild("feature_a")?.toArray()).toEqual(frame.columns.feature_a);
    expect(table.getChild("target")?.toArray()).toEqual(frame.columns.target);
    expect(Object.is(table.getChild("score")?.get(1), -0)).toBe(true);
  });

  it("copies a small frame's buffers into one part, sends a large frame's columns from their own memory, and encodes a large frame sent again only once; a small one again", async () => {
    const samePart = (a: Buffer[], b: Buffer[]) => b.slice(2).every((p, i) => p.buffer === a[i + 2].buffer && p.byteOffset === a[i + 2].byteOffset);
    const first = await encodeRequest({ op: "fit" }, [frame]);
    // lengths, header, schema message, record batch message, the body, the end marker
    expect(first).toHaveLength(6);
    expect(first.some((p) => p.buffer === frame.columns.feature_a.buffer)).toBe(false);
    const again = await encodeRequest({ op: "fit" }, [frame]);
    expect(samePart(first, again)).toBe(false); // encoded again
    const rows = 80_000;
    const large: Frame = { ids: Array.from({ length: rows }, (_, i) => `eiq_${i}`), exped: new Array<string>(rows).fill("exped_0001"), columns: { feature_a: new Int8Array(rows), score: new Float64Array(rows) } };
    const once = await encodeRequest({ op: "fit" }, [large]);
    expect(once.some((p) => p.buffer === large.columns.score.buffer)).toBe(true);
    expect(samePart(once, await encodeRequest({ op: "fit" }, [large]))).toBe(true);
    expect(tableFromIPC(streams(once).bodies[0]).getChild("score")?.toArray()).toEqual(large.columns.score);
  });
});
