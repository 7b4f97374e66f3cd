import { execFileSync } from "node:child_process";
import { tableFromIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { arrowStream } from "../../src/participant/arrow-stream.js";
import { requires } from "../helpers/requires.js";
import { VENV_PYTHON } from "../helpers/venv.js";

const frame = (rows: number): Frame => {
  const ids = Array.from({ length: rows }, (_, i) => (i === 1 ? "ünï" : `eiq_${i.toString(16).padStart(16, "0")}`));
  return {
    ids,
    exped: ids.map((_, i) => `exped_${String(1 + (i % 3)).padStart(4, "0")}`),
    columns: {
      feature_a: Int8Array.from(ids, (_, i) => (i % 11) - 1),
      target: Float32Array.from(ids, (_, i) => (i % 4 === 3 ? NaN : i / 8)),
      count: Uint16Array.from(ids, (_, i) => i * 300),
      score: Float64Array.from(ids, (_, i) => (i === 2 ? -0 : i === 4 ? Infinity : i / 3)),
    },
  };
};

const stream = (f: Frame) => Buffer.concat(arrowStream(f));

describe("a frame's Arrow IPC stream", () => {
  it("is read back by apache-arrow: ids, exped and every column in its own type, bit for bit", async () => {
    // 40,000 rows: a body over a MiB, sent as the columns' own memory rather than copied into one part.
    for (const rows of [0, 1, 7, 96, 40_000]) {
      const f = frame(rows);
      const bytes = await stream(f);
      expect(bytes.length % 8).toBe(0);
      const table = tableFromIPC(bytes);
      expect(table.numRows).toBe(rows);
      expect(table.schema.fields.map((x) => `${x.name}:${x.type}`)).toEqual(["id:Utf8", "exped:Utf8", "feature_a:Int8", "target:Float32", "count:Uint16", "score:Float64"]);
      expect(table.getChild("id")?.toArray()).toEqual(f.ids);
      expect(table.getChild("exped")?.toArray()).toEqual(f.exped);
      for (const [name, column] of Object.entries(f.columns)) expect(table.getChild(name)?.toArray()).toEqual(column);
    }
  });

  it("writes one schema message for frames of the same columns, and a frame's own for other columns", () => {
    const [a, b] = [arrowStream(frame(5)), arrowStream(frame(9))];
    expect(b[0]).toBe(a[0]);
    const other = arrowStream({ ...frame(5), columns: { feature_a: frame(5).columns.feature_a } });
    expect(other[0]).not.toBe(a[0]);
    expect(tableFromIPC(Buffer.concat(other)).schema.fields.map((x) => x.name)).toEqual(["id", "exped", "feature_a"]);
  });

  it("refuses a column whose length is not the frame's, naming it", () => {
    expect(() => arrowStream({ ...frame(3), columns: { short: new Float64Array(2) } })).toThrow("column 'short' has 2 rows, not the frame's 3");
  });
});

requires("venv").describe("a frame's Arrow IPC stream, read by pyarrow", () => {
  it("gives pandas the frame: the id index, exped, and each column in its own dtype and values", async () => {
    const f = frame(96);
    const read = `
import sys, json, math, pyarrow as pa
df = pa.ipc.open_stream(sys.stdin.buffer.read()).read_all().to_pandas()
clean = lambda v: None if isinstance(v, float) and math.isnan(v) else (str(v) if isinstance(v, float) and math.isinf(v) else v)
print(json.dumps({"index": df.index.name, "ids": list(df.index), "dtypes": {c: str(t) for c, t in df.dtypes.items()},
  "columns": {c: [clean(v) for v in df[c].tolist()] for c in df.columns}, "negzero": math.copysign(1, df["score"].iloc[2])}))`;
    const out = JSON.parse(execFileSync(VENV_PYTHON as string, ["-c", read], { input: await stream(f), encoding: "utf8" }));
    expect(out.index).toBe("id");
    expect(out.ids).toEqual(f.ids);
    expect(out.dtypes).toMatchObject({ feature_a: "int8", target: "float32", count: "uint16", score: "float64" });
    expect(out.columns.exped).toEqual(f.exped);
    expect(out.columns.feature_a).toEqual([...f.columns.feature_a]);
    expect(out.columns.target).toEqual([...f.columns.target].map((v) => (Number.isNaN(v) ? null : v)));
    expect(out.columns.count).toEqual([...f.columns.count]);
    expect(out.columns.score).toEqual([...f.columns.score].map((v) => (v === Infinity ? "inf" : v)));
    expect(out.negzero).toBe(-1);
  });
});
