import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { z } from "zod";
import { columnsWithoutRows, type Frame } from "../../src/domain/frame.js";
import type { Isolation } from "../../src/participant/isolation.js";
import type { ForkServers } from "../../src/participant/fork-server.js";
import type { CpuShare } from "../../src/participant/sandbox.js";
import { PREDICTS_AHEAD, startPythonWorker, type Outcome, type PythonWorker, type TrainFile, type WorkerSource } from "../../src/participant/python-worker.js";
import { StrategyFailure, type AgentContext, type Held, type RoundSlot, type Strategy } from "./strategy.js";
import type { StrategyFault, StrategyWatch } from "./strategy-watch.js";
import { duringWindow } from "./timing.js";

export interface PythonStrategyOptions {
  /** The agent playing it (named in faults). */
  agent: string;
  isolation: Isolation;
  /** How much of the machine its worker takes (CpuShare; default "shared"). */
  share?: CpuShare;
  /** CPU seconds fit(train) may use. */
  fit_timeout_seconds: number;
  /** CPU seconds one predict may use. */
  predict_timeout_seconds: number;
  /** A file the strategy's stdout and stderr are appended to; discarded without it. */
  log?: string;
  watch?: StrategyWatch;
  /** Fork servers its sandboxed worker is forked from (WorkerOptions.forks). */
  forks?: ForkServers;
  /**
   * The train split's file, which its worker reads itself for the fit (WorkerOptions.trainFile),
   * with the served split's columns that the fit reads from it: the fit then needs nothing of the
   * replay, and starts as soon as the worker has loaded.
   */
  trainFile?: TrainFile & { columns: string[] };
  /** The rounds after a slot's, as the service will serve them (WalkAhead): their predicts are then asked while the replay settles the slot's round. */
  ahead?: WalkAhead;
  /** Its worker, already starting for this file with these options (a command started it before its modules loaded: local-worker.ts), used instead of starting one. */
  started?: Promise<Outcome<{ worker: PythonWorker }>>;
}

/**
 * For a walk whose rounds are all known in advance (a backtest's): the live frame and live
 * benchmark the service will serve `step` rounds after `slot`'s (1: the next), or null when there is none.
 */
export type WalkAhead = (slot: RoundSlot, step: number) => { live: Frame; benchmark: Frame } | null;

/**
 * A Python strategy file (`predict(live, benchmark=None)`, optional `fit(train)` and `PARAMS`) or a
 * cloudpickled predict callable, played through one persistent worker for the whole replay: fit
 * once on the train split before its first round, then predict each round. What predict answers
 * is submitted as it is, so wrong ids, NaN or values outside [0, 1] get the service's own
 * refusals; a predict that raises, hangs or answers something else is a failed round with its
 * reason. A fit that fails ends the agent's part at once: its worker is stopped, and every later
 * round is missed for that reason without asking Python again (never a refit per round).
 * Parameters are checked against PARAMS when the worker loads the file. Each failure is also
 * told to `watch`, with Python's traceback and the log file.
 */
export async function loadPythonStrategy(
  path: string,
  kind: "python" | "pickle",
  params: Record<string, unknown>,
  opts: PythonStrategyOptions,
): Promise<Held<Strategy<Record<string, unknown>>>> {
  const fault = (call: StrategyFault["call"], failure: { error: string; traceback?: string }, exped?: string) =>
    opts.watch?.failed?.({ agent: opts.agent, call, exped, error: failure.error, traceback: failure.traceback, log: opts.log });
  const trainFile = kind === "python" ? opts.trainFile : undefined;
  const start = async () => {
    const source: WorkerSource = kind === "python" ? { kind: "module", path, params } : { kind: "pickle", bytes: await readFile(path) };
    return startPythonWorker({ source, isolation: opts.isolation, share: opts.share, label: basename(path), log: opts.log, forks: opts.forks, trainFile });
  };
  const started = await (opts.started ?? start());
  if (!started.ok) {
    fault("load", started);
    throw new Error(`${basename(path)}: ${started.error}`);
  }
  const { worker } = started;
  let fitted = false;
  /** Why the agent takes no further part: its fit failed. */
  let out: string | null = null;

  const fitOn = (train: Frame) => {
    opts.watch?.fitting?.(opts.agent);
    return worker.fit(train, opts.fit_timeout_seconds).finally(() => opts.watch?.fitted?.(opts.agent));
  };
  // With its train file, the fit runs while the replay reads its dataset and opens; the first round
  // awaits its outcome, which counts as if it had been asked there (a failure ends the part there).
  const early = trainFile ? fitOn(columnsWithoutRows(trainFile.columns)) : null;
  early?.catch(() => {}); // a replay that never reaches its first round never reads it

  const fit = async (ctx: AgentContext, exped: string) => {
    if (out !== null) throw new StrategyFailure(out);
    if (fitted || kind === "pickle") return; // a model file has no fit: it is never sent the train split
    const outcome = await (early ?? fitOn(await ctx.client.downloadDataset("train")));
    if (outcome.ok) {
      fitted = true;
      return;
    }
    out = `no further part: its fit failed in ${exped}`;
    await worker.close();
    fault("fit", outcome, exped);
    throw new StrategyFailure(`fit: ${outcome.error}`);
  };

  type Answer = ReturnType<typeof worker.predict>;
  /** The next rounds' predicts, asked before their rounds open (askAhead), in round order. */
  let asked: { live: Frame; benchmark: Frame; answer: Answer }[] = [];
  /**
   * Pipelines the walk: once this round's predict has answered, the next PREDICTS_AHEAD rounds'
   * live frames and benchmarks are with the worker, so that Python predicts while the replay submits
   * and settles this round (Node's work) instead of after it, and goes from one round's predict
   * straight to the next's without waiting for Node to read the answer. Predict is called in the
   * same order on the same frames as without it, and is given nothing a round would not give it
   * (no target): the worker only holds the next rounds' live frames a round or two before they
   * open. A failed predict asks nothing more ahead (the next rounds ask as usual).
   */
  const askAhead = (slot: RoundSlot) => {
    for (let step = asked.length + 1; step <= PREDICTS_AHEAD; step++) {
      const next = opts.ahead?.(slot, step);
      if (!next) return;
      const answer = worker.predict(next.live, next.benchmark, opts.predict_timeout_seconds);
      answer.catch(() => {}); // a walk stopped before that round never reads it
      asked.push({ ...next, answer });
    }
  };

  const strategy: Strategy<Record<string, unknown>> = {
    name: basename(path),
    kind: "tournament",
    summary: kind === "python" ? `the Python strategy ${basename(path)}` : `the model file ${basename(path)}`,
    params: z.record(z.string(), z.unknown()),
    actAt: (slot, _p, rng) => duringWindow(slot, rng),
    act: async (ctx, slot) => {
      await fit(ctx, slot.exped);
      await ctx.client.createModel({ name: ctx.model });
      const { exped } = await ctx.client.instruments();
      const live = await ctx.client.downloadDataset("live");
      const benchmark = await ctx.client.downloadBenchmark("futures", "live");
      // The answer asked early stands only for the very frames the service now serves: asked for
      // rounds that were not played (none in a backtest's walk) are dropped.
      const at = asked.findIndex((a) => a.live === live && a.benchmark === benchmark);
      const early = at < 0 ? null : asked[at];
      asked = at < 0 ? [] : asked.slice(at + 1);
      const answer = early ? await early.answer : await worker.predict(live, benchmark, opts.predict_timeout_seconds);
      if (!answer.ok) {
        fault("predict", answer, exped);
        throw new StrategyFailure(answer.error);
      }
      askAhead(slot);
      await ctx.client.submit({
        model_id: ctx.model,
        exped,
        predictions: answer.ids.map((instrument_id, i) => ({ instrument_id, prediction: answer.values[i] })),
      });
    },
  };
  return { strategy, close: () => worker.close() };
}
