import { describe, expect, it } from "vitest";
import { RUNS_AHEAD_AT_ONCE, RunsAhead } from "../../../src/service/kernel/runs-ahead.js";

/** A run the test finishes by hand, counting its starts. */
function manual(value: string) {
  let finish!: () => void;
  const run = { starts: 0, finish: () => finish(), work: () => {
    run.starts += 1;
    return new Promise<string>((resolve) => (finish = () => resolve(value)));
  } };
  return run;
}

/** Plans `n` manual runs due at 1..n, keyed (and valued) `${prefix}${t}`. */
function planRuns(ahead: RunsAhead, n: number, prefix = "k") {
  const runs = Array.from({ length: n }, (_, i) => manual(`${prefix}${i + 1}`));
  ahead.plan(runs.map((run, i) => ({ key: `${prefix}${i + 1}`, t: i + 1, run: run.work })));
  return runs;
}

const tick = () => new Promise((r) => setImmediate(r));

describe("RunsAhead", () => {
  it("starts at most RUNS_AHEAD_AT_ONCE runs, earliest step first, and the next as one finishes", async () => {
    const ahead = new RunsAhead();
    const runs = [3, 1, 2].map((t) => ({ t, run: manual(`r${t}`) }));
    ahead.plan(runs.map(({ t, run }) => ({ key: `k${t}`, t, run: run.work })));
    await tick();
    expect(RUNS_AHEAD_AT_ONCE).toBe(2);
    expect(runs.map((r) => r.run.starts)).toEqual([0, 1, 1]);
    runs[1].run.finish();
    await tick();
    expect(runs[0].run.starts).toBe(1);
    expect(await ahead.take("k1", () => Promise.resolve("again"))).toBe("r1");
  });

  it("gives a step the run that went ahead (once), and runs the work itself for a key nothing started", async () => {
    const ahead = new RunsAhead();
    const run = manual("ahead");
    ahead.plan([{ key: "k", t: 5, run: run.work }]);
    const taken = ahead.take("k", () => Promise.resolve("now"));
    await tick();
    run.finish();
    expect(await taken).toBe("ahead");
    expect(await ahead.take("k", () => Promise.resolve("now"))).toBe("now");
    expect(run.starts).toBe(1);
  });

  it("waits only for the runs due by an instant, starting them past the bound, and answers null when none is unfinished", async () => {
    const ahead = new RunsAhead();
    const runs = planRuns(ahead, 3);
    expect(ahead.due(0)).toBeNull();
    let done = false;
    const due = ahead.due(3)?.then(() => (done = true));
    await tick();
    expect(runs.map((r) => r.starts)).toEqual([1, 1, 1]);
    runs[0].finish();
    runs[1].finish();
    await tick();
    expect(done).toBe(false);
    runs[2].finish();
    await due;
    expect(ahead.due(3)).toBeNull();
  });

  it("drops a planned run whose step will not come: a later take runs afresh", async () => {
    const ahead = new RunsAhead();
    const stale = manual("stale");
    ahead.plan([{ key: "old", t: 1, run: stale.work }]);
    ahead.plan([]);
    await tick();
    stale.finish();
    expect(await ahead.take("old", () => Promise.resolve("fresh"))).toBe("fresh");
  });
});

describe("RunsAhead.stop", () => {
  it("waits for the runs under way, starts none of those waiting for a place, and keeps no plan", async () => {
    const ahead = new RunsAhead();
    const runs = planRuns(ahead, 3);
    await tick();
    let stopped = false;
    const stop = ahead.stop().then(() => (stopped = true));
    runs[0].finish();
    await tick();
    expect(stopped).toBe(false);
    runs[1].finish();
    await stop;
    expect(runs.map((r) => r.starts)).toEqual([1, 1, 0]);
    expect(ahead.due(3)).toBeNull();
  });

  it("waits for a run dropped from the plan after it started (it runs on), which keeps its place meanwhile", async () => {
    const ahead = new RunsAhead();
    const cancelled = planRuns(ahead, 2, "c");
    await tick();
    const next = manual("next");
    ahead.plan([{ key: "n", t: 3, run: next.work }]);
    await tick();
    expect(next.starts).toBe(0);
    let stopped = false;
    const stop = ahead.stop().then(() => (stopped = true));
    cancelled[0].finish();
    await tick();
    expect(stopped).toBe(false);
    cancelled[1].finish();
    await stop;
    expect(next.starts).toBe(0);
  });

  it("takes back a dropped run still under way when its key is planned again, rather than running it twice", async () => {
    const ahead = new RunsAhead();
    const run = manual("once");
    ahead.plan([{ key: "k", t: 1, run: run.work }]);
    await tick();
    ahead.plan([]);
    ahead.plan([{ key: "k", t: 1, run: run.work }]);
    await tick();
    run.finish();
    expect(await ahead.take("k", () => Promise.resolve("again"))).toBe("once");
    expect(run.starts).toBe(1);
  });
});
