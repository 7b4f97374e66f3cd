import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { ForkServers } from "../../src/participant/fork-server.js";
import type { Isolation } from "../../src/participant/isolation.js";
import { startPythonWorker, type Outcome, type PythonWorker, type WorkerSource } from "../../src/participant/python-worker.js";
import { sandboxRoot } from "../../src/participant/work-dir.js";
import { predictPickles } from "../helpers/predict-pickles.js";
import { requires } from "../helpers/requires.js";
import { whenChanged } from "../helpers/when-changed.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/participant/${name}`, import.meta.url));

const train: Frame = { ids: ["t1", "t2"], exped: ["exped_0001", "exped_0001"], columns: { feature_a: Float64Array.of(1, 3), feature_b: Float64Array.of(0, 0) } };

/** Live rows whose exped label tells behaviours.py what to do; ids with leading zeros, non-ASCII and a comma. */
function live(mode: string): Frame {
  const ids = ["0001", "0042", "ünï", "a,b", "9", "x\ny", "z"];
  return { ids, exped: ids.map(() => mode), columns: { feature_a: Float64Array.of(0, 1, 2, 3, 4, 5, 6), feature_b: new Float64Array(7) } };
}

function failure(outcome: Outcome): string {
  if (outcome.ok) throw new Error("expected the call to fail");
  return outcome.error;
}

async function started(source: WorkerSource, isolation: Isolation, forks: ForkServers | undefined): Promise<PythonWorker> {
  const out = await startPythonWorker({ source, isolation, label: "agent.py", forks });
  if (!out.ok) throw new Error(out.error);
  return out.worker;
}

/** The worker's directories land in a tmpdir of this test's own, to see that none is left behind. */
let tmp: string;
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "basecamp-worker-test-"));
  chmodSync(tmp, 0o755); // the sandbox user reaches its directory through it
  process.env.TMPDIR = tmp;
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

/** Resolves once none of this process's workers' directories is left in the sandboxes' root, where makeWorkDir makes them (each is removed when its worker stops). */
function noneLeft(): Promise<void> {
  const root = sandboxRoot();
  return whenChanged(root, () => !readdirSync(root).some((name) => name.startsWith(`worker-${process.pid}-`)));
}

const isolations = [
  { isolation: "trusted" as const, need: "python" as const, how: "a trusted Python worker" },
  { isolation: "sandbox" as const, need: "sandbox" as const, how: "a sandbox Python worker" },
  { isolation: "sandbox" as const, need: "sandbox" as const, how: "a sandbox Python worker forked from a fork server", forked: true },
];

for (const { isolation, need, how, forked } of isolations) requires(need).describe(how, () => {
  /** A forked worker's fork servers (fork-server.ts): a test's own, closed after it. */
  let forks: ForkServers | undefined;
  beforeEach(() => {
    forks = forked ? new ForkServers() : undefined;
  });
  afterEach(() => forks?.close());
  /** Once every worker is closed: their fork servers too, then no directory left. */
  const allGone = async () => {
    await forks?.close();
    await noneLeft();
  };

  it("fits a module once, applies its PARAMS overrides, and answers a named Series", async () => {
    const worker = await started({ kind: "module", path: fixture("agent.py"), params: { scale: 10, name: "signal" } }, isolation, forks);
    expect(await worker.fit(train, 30)).toEqual({ ok: true });
    const out = await worker.predict(live("exped_0002"), null, 30);
    expect(out).toMatchObject({ ok: true, column: "signal", ids: live("x").ids });
    expect(out.ok && Array.from(out.values)).toEqual([2, 12, 22, 32, 42, 52, 62]);
    await worker.close();
    await worker.close();
    await allGone();
    expect(failure(await worker.predict(live("x"), null, 30))).toBe("the worker for agent.py is closed");
  });

  it("refuses a parameter the module does not define, naming the ones it does", async () => {
    const out = await startPythonWorker({ source: { kind: "module", path: fixture("agent.py"), params: { scael: 2 } }, isolation, label: "agent.py", forks });
    expect(failure(out)).toBe("the strategy has no parameter 'scael' (its PARAMS: name, scale)");
    const missing = await startPythonWorker({ source: { kind: "module", path: fixture("missing.py"), params: {} }, isolation, label: "missing.py", forks });
    expect(failure(missing)).toBe("the strategy missing.py cannot be read: ENOENT");
    await allGone();
  });

  it("runs a pickle, with fit a no-op, and passes the benchmark to a two-parameter callable", async () => {
    const pickle = await predictPickles();
    const worker = await started({ kind: "pickle", bytes: pickle("benchmark_copy") }, isolation, forks);
    expect(await worker.fit(train, 30)).toEqual({ ok: true });
    const features = live("exped_0002");
    const benchmark = { ...features, columns: { v1_designated: Float64Array.of(0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1) } };
    const out = await worker.predict(features, benchmark, 30);
    expect(out).toMatchObject({ ok: true, column: "prediction", ids: features.ids });
    expect(out.ok && Array.from(out.values)).toEqual([0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]);
    await worker.close();
  });

  it("brings floats back bit for bit and ids as Python's str(), the same bytes every call", async () => {
    const worker = await started({ kind: "module", path: fixture("behaviours.py"), params: {} }, isolation, forks);
    const a = await worker.predict(live("exact"), null, 30);
    const b = await worker.predict(live("exact"), null, 30);
    if (!a.ok || !b.ok) throw new Error("expected answers");
    expect(a.column).toBe("exact");
    expect(Array.from(a.values)).toEqual([0.1 + 0.2, 1 / 3, NaN, Infinity, -Infinity, -0, 5e-324]);
    expect(Object.is(a.values[5], -0)).toBe(true);
    expect(Buffer.from(a.values.buffer).equals(Buffer.from(b.values.buffer))).toBe(true);
    expect(b.ids).toEqual(a.ids);
    const ids = await worker.predict(live("frame_of_ids"), null, 30);
    expect(ids.ok && ids.ids).toEqual(live("x").ids);
    expect(ids.ok && Array.from(ids.values)).toEqual([4, 4, 3, 3, 1, 3, 1]);
    // Answered on an index of its own (not the live frame's, whose ids as they came are sent back as they are)
    const reversed = await worker.predict(live("reversed"), null, 30);
    expect(reversed.ok && reversed.ids).toEqual(live("x").ids.reverse());
    expect(reversed.ok && Array.from(reversed.values)).toEqual([1, 3, 1, 3, 3, 4, 4]);
    await worker.close();
  });

  it("appends the strategy's stdout and stderr to its log, takes a crash's reason from it, and gives a raise's traceback of the strategy's own frames", async () => {
    const log = join(tmp, `${isolation}${forked ? "-forked" : ""}.log`);
    const out = await startPythonWorker({ source: { kind: "module", path: fixture("behaviours.py"), params: {} }, isolation, label: "behaviours.py", log, forks });
    if (!out.ok) throw new Error(out.error);
    const { worker } = out;
    const printed = await worker.predict(live("prints"), null, 30);
    expect(printed.ok).toBe(true);
    expect(readFileSync(log, "utf8")).toBe("to stdout\nto stderr\n");

    const raised = await worker.predict(live("raises"), null, 30);
    const line = readFileSync(fixture("behaviours.py"), "utf8").split("\n").findIndex((l) => l.includes("no signal today")) + 1;
    expect(!raised.ok && raised.traceback).toBe(
      `Traceback (most recent call last):\n  File "behaviours.py", line ${line}, in predict\n    raise ValueError("no signal today")\nValueError: no signal today\n`,
    );
    expect(failure(await worker.predict(live("crash"), null, 30))).toBe("the predict run crashed: segfault imitation");
    const again = await worker.predict(live("prints"), null, 30); // a restarted process appends to the same log
    expect(again.ok).toBe(true);
    expect(readFileSync(log, "utf8")).toBe("to stdout\nto stderr\nabout to fail\nsegfault imitation\nto stdout\nto stderr\n");
    await worker.close();
  });

  it("fails each broken call with its reason, and restarts and fits again after one that ended the process", async () => {
    const worker = await started({ kind: "module", path: fixture("behaviours.py"), params: {} }, isolation, forks);
    const other = await started({ kind: "module", path: fixture("behaviours.py"), params: {} }, isolation, forks);
    expect(await worker.fit(train, 30)).toEqual({ ok: true });
    expect(await other.fit(train, 30)).toEqual({ ok: true });
    const reasons: Record<string, string> = {
      raises: "predict raised ValueError: no signal today",
      list: "predict returned builtins.list, not a Series or a DataFrame",
      str: "predict returned builtins.str, not a Series or a DataFrame",
      two_columns: "predict returned a DataFrame with 2 columns, not one",
      sys_exit: "predict raised SystemExit: 3",
      os_exit: "predict ended without reporting a result (the process exited early, e.g. through os._exit)",
      crash: "the predict run crashed: segfault imitation",
      poison_json: "predict's answer cannot be read: its header is not JSON; the worker was stopped",
      poison_struct: "predict's answer cannot be read: its header claims 4294967295 bytes; the worker was stopped",
      garbage: "predict's answer cannot be read: its header claims 1651663207 bytes; the worker was stopped",
      hangs: "predict did not finish within 1 s and was stopped",
    };
    for (const [mode, reason] of Object.entries(reasons)) {
      // Only the call that hangs meets its timeout: the others, given 30 s, never race it on a busy machine.
      expect([mode, failure(await worker.predict(live(mode), null, mode === "hangs" ? 1 : 30))]).toEqual([mode, reason]);
      const again = await worker.predict(live("ok"), null, 30);
      expect([mode, again.ok && Array.from(again.values)]).toEqual([mode, [2, 3, 4, 5, 6, 7, 8]]);
      const beside = await other.predict(live("ok"), null, 30);
      expect([mode, beside.ok && Array.from(beside.values)]).toEqual([mode, [2, 3, 4, 5, 6, 7, 8]]);
    }
    const nan = await worker.predict(live("nan"), null, 30);
    expect(nan.ok && Array.from(nan.values).every(Number.isNaN)).toBe(true);
    await Promise.all([worker.close(), other.close()]);
    await allGone();
  });

  it("takes predicts written behind one another, each answered on its own frame; one behind a call that ends the process is asked again on a restarted, refitted one", async () => {
    const worker = await started({ kind: "module", path: fixture("behaviours.py"), params: {} }, isolation, forks);
    expect(await worker.fit(train, 30)).toEqual({ ok: true });
    const shifted = (by: number): Frame => {
      const frame = live("ok");
      return { ...frame, columns: { ...frame.columns, feature_a: frame.columns.feature_a.map((v) => v + by) } };
    };
    // Three at once: the first two go to the process together (PREDICTS_AHEAD), the third waits its turn; each answer is its own frame's.
    const three = await Promise.all([0, 10, 20].map((by) => worker.predict(shifted(by), null, 30)));
    expect(three.map((o) => o.ok && Array.from(o.values))).toEqual([0, 10, 20].map((by) => [2, 3, 4, 5, 6, 7, 8].map((v) => v + by)));
    const reasons: Record<string, string> = {
      raises: "predict raised ValueError: no signal today",
      os_exit: "predict ended without reporting a result (the process exited early, e.g. through os._exit)",
      crash: "the predict run crashed: segfault imitation",
      poison_json: "predict's answer cannot be read: its header is not JSON; the worker was stopped",
      hangs: "predict did not finish within 1 s and was stopped",
    };
    for (const [mode, reason] of Object.entries(reasons)) {
      const [broken, behind] = await Promise.all([worker.predict(live(mode), null, mode === "hangs" ? 1 : 30), worker.predict(shifted(1), null, 30)]);
      expect([mode, failure(broken)]).toEqual([mode, reason]);
      // Fitted again where the process was restarted: "ok" adds fit's mean (2), so a missing refit would show NaN.
      expect([mode, behind.ok && Array.from(behind.values)]).toEqual([mode, [3, 4, 5, 6, 7, 8, 9]]);
    }
    await worker.close();
    await allGone();
  });
});
