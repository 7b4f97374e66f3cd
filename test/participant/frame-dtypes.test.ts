import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { writeFrameParquet } from "../../src/data/parquet.js";
import { predictPickles } from "../helpers/predict-pickles.js";
import { requires } from "../helpers/requires.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/participant/${name}`, import.meta.url));
const agentPy = fileURLToPath(new URL("../../examples/agent.py", import.meta.url));
const venvPython = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));

/** A train split as a dataset directory gives it: int8 features (-1 missing), float32 targets; one id not ASCII. */
function train(rows: number): Frame {
  const ids = Array.from({ length: rows }, (_, i) => (i === 1 ? "eiq_ünï" : `eiq_${i.toString(16).padStart(16, "0")}`));
  return {
    ids,
    exped: ids.map((_, i) => `exped_${String(1 + (i % 3)).padStart(4, "0")}`),
    columns: {
      feature_a: Int8Array.from(ids, (_, i) => (i % 11) - 1),
      feature_b: Int8Array.from(ids, (_, i) => (i * 7) % 10),
      target: Float32Array.from(ids, (_, i) => (i % 5) / 4),
      target_aux: Float32Array.from(ids, (_, i) => ((i + 2) % 5) / 4),
    },
  };
}

const live = (rows: number): Frame => {
  const t = train(rows);
  return { ids: t.ids, exped: t.exped, columns: { feature_a: t.columns.feature_a, feature_b: t.columns.feature_b } };
};

/** The worker module with BASECAMP_PYTHON set to `python` (the interpreter is probed once per module load). */
async function workerWith(python: string) {
  vi.resetModules();
  process.env.BASECAMP_PYTHON = python;
  return import("../../src/participant/python-worker.js");
}

const STRING_DTYPES = ["object", "str", "string"];

const interpreters = [
  { name: "Debian's python (numpy only, no pyarrow)", python: "/usr/bin/python3" },
  { name: "the project venv (pyarrow, pandas 3)", python: venvPython },
];

requires("python").describe("frames reach a strategy in their file's own types", () => {
  for (const { name, python } of interpreters) {
    describe(name, () => {
      it.skipIf(!existsSync(python))("keeps int8 features int8, float32 targets float32, the id index and the exped column, and train writable", async () => {
        const { startPythonWorker } = await workerWith(python);
        const started = await startPythonWorker({ source: { kind: "module", path: fixture("dtypes.py"), params: {} }, isolation: "trusted", label: "dtypes.py" });
        if (!started.ok) throw new Error(started.error);
        const { worker } = started;
        try {
          expect(await worker.fit(train(50), 60)).toEqual({ ok: true });
          const out = await worker.predict(live(20), null, 60);
          if (!out.ok) throw new Error(out.error);
          type Seen = { index: string; index_dtype: string; dtypes: Record<string, string>; exped: string[]; strings: string };
          const seen = JSON.parse(out.column) as Record<string, Seen> & { wrote: number; wrote_live: number; live_values: Record<string, number[]> };
          expect(seen.train.index).toBe("id");
          expect(seen.live.index).toBe("id");
          const { exped, ...numeric } = seen.train.dtypes;
          expect(STRING_DTYPES).toContain(exped);
          // The ids and exped labels are in pandas' own dtype for strings, as pd.read_parquet gives them.
          for (const frame of [seen.train, seen.live]) {
            expect([frame.index_dtype, frame.dtypes.exped]).toEqual([frame.strings, frame.strings]);
            expect(frame.exped).toEqual(["exped_0001", "exped_0002", "exped_0003"]);
          }
          expect(numeric).toEqual({ feature_a: "int8", feature_b: "int8", target: "float32", target_aux: "float32" });
          expect(Object.keys(seen.live.dtypes)).toEqual(["exped", "feature_a", "feature_b"]);
          expect(seen.live.dtypes.feature_a).toBe("int8");
          expect(seen.wrote).toBe(9);
          expect(seen.live_values).toEqual({ feature_a: [...live(20).columns.feature_a], feature_b: [...live(20).columns.feature_b] });
          expect(seen.wrote_live).toBe(7);
          expect(out.ids).toEqual(live(20).ids);
        } finally {
          await worker.close();
        }
      });

      it.skipIf(!existsSync(python))("runs examples/agent.py on int8 features", async () => {
        const { startPythonWorker } = await workerWith(python);
        const started = await startPythonWorker({ source: { kind: "module", path: agentPy, params: {} }, isolation: "trusted", label: "agent.py" });
        if (!started.ok) throw new Error(started.error);
        const { worker } = started;
        try {
          expect(await worker.fit(train(200), 60)).toEqual({ ok: true });
          const out = await worker.predict(live(40), null, 60);
          if (!out.ok) throw new Error(out.error);
          expect(out.values.every((v) => v > 0 && v <= 1)).toBe(true);
        } finally {
          await worker.close();
        }
      });
    });
  }

  it.skipIf(!existsSync(venvPython))("reads train from its parquet file itself (trainFile) as the frame it would have been sent: index, dtypes, exped labels, values, writable", async () => {
    const { startPythonWorker } = await workerWith(venvPython);
    const seenWith = async (trainFile: { path: string; exped: string } | undefined, given: Frame) => {
      const started = await startPythonWorker({ source: { kind: "module", path: fixture("dtypes.py"), params: {} }, isolation: "trusted", label: "dtypes.py", trainFile });
      if (!started.ok) throw new Error(started.error);
      try {
        expect(await started.worker.fit(given, 60)).toEqual({ ok: true });
        const out = await started.worker.predict(live(20), null, 60);
        if (!out.ok) throw new Error(out.error);
        const { train: seen, wrote } = JSON.parse(out.column) as { train: { dtypes: Record<string, string> }; wrote: number };
        return { seen, wrote };
      } finally {
        await started.worker.close();
      }
    };
    const dir = mkdtempSync(join(tmpdir(), "basecamp-train-file-"));
    try {
      const sent = await seenWith(undefined, train(50));
      expect(Object.keys(sent.seen.dtypes)).toEqual(["exped", "feature_a", "feature_b", "target", "target_aux"]);
      // The served split's shape only (no rows): the worker reads those columns' rows from the file, whose exped column may be `era`.
      const shape: Frame = { ids: [], exped: [], columns: Object.fromEntries(Object.keys(train(50).columns).map((c) => [c, new Float64Array(0)])) };
      for (const exped of ["exped", "era"]) {
        const path = join(dir, `train-${exped}.parquet`);
        writeFileSync(path, writeFrameParquet(train(50), exped));
        expect(await seenWith({ path, exped }, shape)).toEqual(sent);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync(venvPython))("reads its train file again when it restarts after a crash, and fits on it again", async () => {
    const { startPythonWorker } = await workerWith(venvPython);
    const dir = mkdtempSync(join(tmpdir(), "basecamp-train-file-"));
    const path = join(dir, "train.parquet");
    writeFileSync(path, writeFrameParquet(train(50), "exped"));
    const started = await startPythonWorker({ source: { kind: "module", path: fixture("behaviours.py"), params: {} }, isolation: "trusted", label: "behaviours.py", trainFile: { path, exped: "exped" } });
    if (!started.ok) throw new Error(started.error);
    const { worker } = started;
    const rows: Frame = { ids: ["a", "b"], exped: ["ok", "ok"], columns: { feature_a: Float64Array.of(0, 1), feature_b: Float64Array.of(0, 0) } };
    const mean = Array.from(train(50).columns.feature_a).reduce((a, b) => a + b, 0) / 50;
    try {
      expect(await worker.fit({ ids: [], exped: [], columns: { feature_a: new Float64Array(0), feature_b: new Float64Array(0) } }, 60)).toEqual({ ok: true });
      const before = await worker.predict(rows, null, 60);
      expect(before.ok && Array.from(before.values)).toEqual([mean, mean + 1]);
      expect(await worker.predict({ ...rows, exped: ["crash", "crash"] }, null, 60)).toMatchObject({ ok: false });
      expect(await worker.predict(rows, null, 60)).toEqual(before);
    } finally {
      await worker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never sends a model file the train split: fit does not read the frame", async () => {
    const { startPythonWorker } = await workerWith("/usr/bin/python3");
    const pickle = await predictPickles();
    const started = await startPythonWorker({ source: { kind: "pickle", bytes: pickle("benchmark_copy") }, isolation: "trusted", label: "model.pkl" });
    if (!started.ok) throw new Error(started.error);
    const read: PropertyKey[] = [];
    const untouchable = new Proxy(train(10), { get: (target, key) => (read.push(key), Reflect.get(target, key)) });
    try {
      expect(await started.worker.fit(untouchable, 60)).toEqual({ ok: true });
      expect(read).toEqual([]);
    } finally {
      await started.worker.close();
    }
  });
});
