import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import type { Isolation } from "../../src/participant/isolation.js";
import { runPredict, type PredictOutcome } from "../../src/participant/run-predict.js";
import { predictPickles } from "../helpers/predict-pickles.js";
import { requires } from "../helpers/requires.js";
import { until } from "../helpers/until.js";

let pickle: (name: string) => Uint8Array;

/** Five rows: ids with leading zeros and all digits, two features, a designated benchmark. */
const features: Frame = {
  ids: ["0001", "0042", "abc", "00a7", "9"],
  exped: Array(5).fill("exped_0001"),
  columns: { feature_a: Float64Array.of(1, 2, 3, 4, 0), feature_b: Float64Array.of(0, 0, 1, 1, -1) },
};
const benchmark: Frame = { ids: features.ids, exped: features.exped, columns: { v1_designated: Float64Array.of(0.9, 0.1, 0.5, 0.3, 0.7) } };


function failure(outcome: PredictOutcome): string {
  if (outcome.ok) throw new Error("expected the run to fail");
  return outcome.error;
}

const isolations = [
  { isolation: "trusted" as const, need: "python" as const },
  { isolation: "sandbox" as const, need: "sandbox" as const },
];

for (const { isolation, need } of isolations) {
  requires(need).describe(`runPredict (${isolation}), against pickles made by the runner's own Python`, () => describeCases(isolation));
}

function describeCases(isolation: Isolation) {
  beforeAll(async () => {
    pickle = await predictPickles();
  });

  const run = (name: string, timeout_seconds = 30, pkl = pickle(name)): Promise<PredictOutcome> =>
    runPredict({ pkl, features, benchmark, timeout_seconds, isolation });

  it("calls a one-parameter callable with the features indexed by id", async () => {
    const out = await run("mean_rank");
    expect(out).toMatchObject({ ok: true, column: "prediction", ids: features.ids });
    if (out.ok) expect(Array.from(out.values)).toEqual([0.3, 0.5, 0.7, 0.9, 0.1]);
  });

  it("passes the benchmark as the second argument when the callable takes two", async () => {
    const out = await run("benchmark_copy");
    expect(out.ok && Array.from(out.values)).toEqual([0.9, 0.1, 0.5, 0.3, 0.7]);
    // The shipped sample: predict(live_features, live_benchmark_models=None) gets both and ignores the second.
    const sample = await run("", 30, readFileSync(new URL("../../data/samples/predict.pkl", import.meta.url)));
    expect(sample).toMatchObject({ ok: true, column: "prediction", ids: features.ids });
  });

  it("keeps ids as strings and reads the floats back bit for bit", async () => {
    const ids = await run("id_echo");
    expect(ids.ok && Array.from(ids.values)).toEqual([0.04, 0.04, 0.03, 0.04, 0.01]);
    const exact = await run("exact_values");
    expect(exact).toMatchObject({ ok: true, column: "score" });
    if (exact.ok) expect(Array.from(exact.values)).toEqual([1 / 3, (0.1 + 0.2) / 3, 1 / 3, (0.1 + 0.2) / 3, 1 / 3]);
  });

  it("answers the same bytes on every run of a deterministic callable", async () => {
    const [a, b] = await Promise.all([run("mean_rank"), run("mean_rank")]);
    expect(a).toEqual(b);
  });

  it("reports what went wrong, never throwing", async () => {
    expect(failure(await run("raises"))).toBe("predict raised KeyError: 'feature_that_does_not_exist'");
    expect(failure(await run("series"))).toBe("predict returned pandas.core.series.Series, not a DataFrame");
    expect(failure(await run("two_columns"))).toBe("predict returned a DataFrame with 2 columns, not one");
    expect(failure(await run("text_column"))).toBe("predict's column 'prediction' holds object values, not numbers");
    expect(failure(await run("not_callable"))).toBe("the model file holds builtins.dict, not a callable");
    expect(failure(await run("", 30, new TextEncoder().encode("not a pickle")))).toMatch(/^the model file does not unpickle: /);
  });

  it("stops a run that outlasts its timeout", async () => {
    // Long enough for the interpreter to load pandas on a busy machine, far shorter than the 30 s sleep.
    expect(failure(await run("slow", 4))).toBe("predict did not finish within 4 s and was stopped");
  });

  it("fails a predict that exits instead of answering, and keeps object addresses out of its reasons", async () => {
    expect(failure(await run("exits"))).toBe("predict raised SystemExit: 0");
    expect(failure(await run("hard_exits"))).toBe("predict ended without reporting a result (the process exited early, e.g. through os._exit)");
    expect(failure(await run("raises_with_address"))).toBe("predict raised ValueError: <object object>");
  });

  it("discards what a predict prints: a chatty model still answers", async () => {
    expect(await run("chatty")).toMatchObject({ ok: true, column: "prediction", ids: features.ids });
  });

  it.skipIf(isolation === "sandbox")("kills the processes a predict started when it times out (the sandbox hides the pid file: see sandbox.test.ts)", async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), "basecamp-test-")), "pid");
    process.env.BASECAMP_TEST_PID_FILE = pidFile;
    try {
      expect(failure(await run("starts_a_sleeper_and_hangs", 2))).toBe("predict did not finish within 2 s and was stopped");
    } finally {
      delete process.env.BASECAMP_TEST_PID_FILE;
    }
    const pid = Number(readFileSync(pidFile, "utf8"));
    // Running, or gone / a zombie (killed, waiting for an init that may never reap it).
    const alive = () => {
      try {
        return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    await until(() => !alive());
  });

  it("passes non-finite and out-of-range values through for the service to judge", async () => {
    const nan = await run("with_nan");
    expect(nan.ok && Number.isNaN(nan.values[0])).toBe(true);
    const high = await run("out_of_range");
    expect(high.ok && Array.from(high.values)).toEqual([2, 2, 2, 2, 2]);
    const short = await run("drops_first");
    expect(short.ok && short.ids).toEqual(features.ids.slice(1));
  });
}
