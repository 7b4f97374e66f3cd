import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { expect } from "vitest";
import type { Frame, NumericColumn } from "../../src/domain/frame.js";
import { arrowStream } from "../../src/participant/arrow-stream.js";
import { requires } from "../helpers/requires.js";
import { VENV_PYTHON } from "../helpers/venv.js";

const WORKER = fileURLToPath(new URL("../../src/participant/python/worker.py", import.meta.url));

/**
 * Reads each stream (base64, one a line on stdin) with worker.py's numpy_frame twice: from pandas'
 * blocks (create_dataframe_from_blocks), and as DataFrame() and insert() make it (that function
 * hidden). Prints, per stream, what differs (empty when nothing does) or the errors the two gave.
 */
const COMPARE = `
import base64, importlib.util, json, sys
import numpy as np, pandas as pd
spec = importlib.util.spec_from_file_location("worker", sys.argv[1])
w = importlib.util.module_from_spec(spec)
spec.loader.exec_module(w)
assert w.create_dataframe_from_blocks(pd, True) is not None, "this pandas has no create_dataframe_from_blocks"

def read(stream, blocks):
    w.FROM_BLOCKS[:] = [] if blocks else [None, False]
    w.SCHEMAS.clear()
    try:
        return w.numpy_frame(np, pd, memoryview(stream)), None
    except Exception as e:
        return None, f"{type(e).__name__}: {e}"

out = []
for line in sys.stdin.read().split():
    stream = bytearray(base64.b64decode(line))
    (new, new_error), (old, old_error) = read(stream, True), read(stream, False)
    if new_error or old_error:
        out.append("" if new_error == old_error else f"errors {new_error!r} vs {old_error!r}")
        continue
    problems = []
    try:
        pd.testing.assert_frame_equal(new, old, check_flags=True, check_column_type=True, check_index_type=True)
    except AssertionError as e:
        problems.append(str(e))
    if new.columns.dtype != old.columns.dtype or list(new.columns) != list(old.columns):
        problems.append(f"columns {new.columns!r} vs {old.columns!r}")
    if new._mgr.nblocks != old._mgr.nblocks:
        problems.append(f"blocks {new._mgr.nblocks} vs {old._mgr.nblocks}")
    views = lambda f: [bool(np.shares_memory(f[c].to_numpy(), stream)) for c in f.columns[1:]]
    if views(new) != views(old):  # each numeric column a view of the message (or not) as before
        problems.append(f"views of the message {views(new)} vs {views(old)}")
    # A second frame of the schema: its own column Index object, sharing the first's lookup table.
    again, _ = read(stream, True)
    third = w.numpy_frame(np, pd, memoryview(stream))
    third.columns.name = "renamed"
    if again.columns.name is not None or third.columns is again.columns:
        problems.append("frames of one schema share a column Index object")
    out.append("; ".join(problems))
print(json.dumps(out))
`;

const NAMES = ["feature_a", "feature_b", "feature_c", "target", "exped"];
const KINDS: ((values: number[]) => NumericColumn)[] = [(v) => Int8Array.from(v), (v) => Float32Array.from(v), (v) => Float64Array.from(v), (v) => Uint16Array.from(v)];

/** Frames of 0-40 rows with up to five numeric columns of one or several types (a column may be named exped), ids possibly not ASCII. */
const frames = fc
  .record({
    rows: fc.integer({ min: 0, max: 40 }),
    columns: fc.uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), kind: fc.integer({ min: 0, max: KINDS.length - 1 }) }), { selector: (c) => c.name, maxLength: 5 }),
    oneKind: fc.boolean(),
    expeds: fc.integer({ min: 1, max: 3 }),
    accent: fc.boolean(),
  })
  .map(({ rows, columns, oneKind, expeds, accent }): Frame => {
    const ids = Array.from({ length: rows }, (_, i) => (accent && i === 0 ? "ünï" : `id_${i}`));
    return {
      ids,
      exped: ids.map((_, i) => `exped_${1 + (i % expeds)}`),
      columns: Object.fromEntries(columns.map(({ name, kind }, j) => [name, KINDS[oneKind ? 0 : kind](ids.map((_, i) => (i * (j + 3)) % 7))])),
    };
  });

/** Every stream of `batch` compared by COMPARE under `python`: one line of differences a frame. */
function compared(python: string, batch: Frame[]): string[] {
  const input = batch.map((f) => Buffer.concat(arrowStream(f)).toString("base64")).join("\n");
  return JSON.parse(execFileSync(python, ["-c", COMPARE, WORKER], { input, encoding: "utf8" })) as string[];
}

/** Frames without rows, of none, one and two numeric columns: an empty exped column keeps the string dtype either way. */
const EMPTY: Frame[] = ([{}, { feature_a: new Int8Array(0) }, { feature_a: new Int8Array(0), feature_b: new Int8Array(0) }] as Record<string, NumericColumn>[]).map((columns) => ({ ids: [], exped: [], columns }));

const property = (python: () => string) => () =>
  fc.assert(
    fc.property(fc.array(frames, { minLength: 1, maxLength: 30 }), (batch) => {
      expect(compared(python(), batch)).toEqual(batch.map(() => ""));
    }),
    { numRuns: 8, examples: [[EMPTY]] },
  );

const SAME = "a frame made from its blocks equals the one DataFrame() and insert() make: columns, dtypes, index, blocks, views of the message";
requires("venv").it(`pandas 3 (the project venv): ${SAME}`, property(() => VENV_PYTHON as string), 120_000);
requires("python").it(`pandas 1 (Debian's python3): ${SAME}`, property(() => "/usr/bin/python3"), 120_000);
