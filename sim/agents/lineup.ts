import type { ForkServers } from "../../src/participant/fork-server.js";
import { localIsolation, type Isolation } from "../../src/participant/isolation.js";
import type { CpuShare } from "../../src/participant/sandbox.js";
import type { Scenario } from "../scenario.js";
import { loadModuleStrategy } from "./module-strategy.js";
import { loadPredictionsStrategy } from "./predictions-strategy.js";
import { loadPythonStrategy, type PythonStrategyOptions, type WalkAhead } from "./python-strategy.js";
import { strategyByName } from "./registry.js";
import type { Held, Strategy } from "./strategy.js";
import { runsInPythonWorker, strategyFileKind, strategyLogFile } from "./strategy-file.js";
import type { StrategyWatch } from "./strategy-watch.js";

/**
 * The strategies a scenario's agents play, resolved once per replay: built-ins by name, file
 * strategies by path (already absolute: `loadScenario` resolves them against the scenario file).
 * Each agent gets its strategy and its parsed parameters; `close` ends whatever the strategies
 * hold open (Python workers), and is called when the replay ends, however it ends.
 */
export interface Lineup {
  strategies: Strategy<any>[];
  params: unknown[];
  close(): Promise<void>;
}

export interface LineupOptions {
  /**
   * How Python and model-file strategies run: in the sandbox, or as plain processes of the user
   * running the replay. Default: the sandbox where this machine can set it up (`localIsolation`),
   * which suits a user replaying their own files; a served deployment asks for "sandbox".
   */
  isolation?: Isolation;
  /**
   * How much of the machine each Python worker takes (CpuShare): "whole" for a local command
   * running the user's own files (backtest), default "shared" (one BLAS thread, niced).
   */
  share?: CpuShare;
  /** A directory for each Python or model-file agent's log, `<agent>.log` (its stdout and stderr); discarded without it. */
  logDir?: string;
  /** Told of the Python strategies' fits and failures as they happen. */
  watch?: StrategyWatch;
  /** Fork servers the sandboxed Python workers are forked from (a sweep's: WorkerOptions.forks); each starts its own without. */
  forks?: ForkServers;
  /** The train split's file, which each Python strategy's worker reads itself for its fit (PythonStrategyOptions.trainFile). */
  trainFile?: PythonStrategyOptions["trainFile"];
  /** A walk's next rounds, known in advance: each Python strategy then asks its next predict early (PythonStrategyOptions.ahead). */
  ahead?: WalkAhead;
  /**
   * A worker already starting for one strategy file (a command started it before its modules
   * loaded: local-worker.ts), with the options this lineup gives it: the first agent playing that
   * file is played through it (PythonStrategyOptions.started).
   */
  started?: { strategy: string; worker: NonNullable<PythonStrategyOptions["started"]> };
}

/** Default limits of a Python or model-file strategy's calls, in CPU seconds (src/participant/call-limit.ts). */
const FIT_TIMEOUT_SECONDS = 600;
const PREDICT_TIMEOUT_SECONDS = 60;

/** Whether any agent's strategy runs in a Python worker of the lineup's own (a `.py` or `.pkl` file), which has a log. */
export function hasPythonWorkers(scenario: Scenario): boolean {
  return scenario.agents.some((a) => runsInPythonWorker(a.strategy));
}

export async function loadLineup(scenario: Scenario, opts: LineupOptions = {}): Promise<Lineup> {
  const held: Held<unknown>[] = [];
  const close = async () => {
    await Promise.all(held.splice(0).map((h) => h.close()));
  };
  let started = opts.started;
  /** The started worker, for the first agent that plays its file. */
  const take = (strategy: string) => {
    if (started?.strategy !== strategy) return undefined;
    const { worker } = started;
    started = undefined;
    return worker;
  };
  try {
    const strategies: Strategy<any>[] = [];
    const params: unknown[] = [];
    for (const [i, agent] of scenario.agents.entries()) {
      const where = `agents[${i}].strategy`;
      let strategy: Strategy<any>;
      try {
        strategy = await resolve(agent, opts, held, take);
      } catch (e) {
        throw new Error(`${where}: ${(e as Error).message}`);
      }
      if (strategy.kind !== scenario.kind) throw new Error(`${where}: '${agent.strategy}' plays ${strategy.kind}s, and this scenario is a ${scenario.kind}`);
      const parsed = strategy.params.safeParse(agent.params);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`agents[${i}].params${issue.path.length ? "." : ""}${issue.path.join(".")}: ${issue.message}`);
      }
      strategies.push(strategy);
      params.push(parsed.data);
    }
    return { strategies, params, close };
  } catch (e) {
    await close();
    throw e;
  }
}

async function resolve(
  agent: Scenario["agents"][number],
  opts: LineupOptions,
  held: Held<unknown>[],
  take: (strategy: string) => PythonStrategyOptions["started"],
): Promise<Strategy<any>> {
  const kind = strategyFileKind(agent.strategy);
  if (kind === null) return strategyByName(agent.strategy);
  if (kind === "module") return loadModuleStrategy(agent.strategy);
  if (kind === "predictions") return loadPredictionsStrategy(agent.strategy);
  const started = take(agent.strategy);
  const h = await loadPythonStrategy(agent.strategy, kind, agent.params, {
    agent: agent.name,
    log: opts.logDir === undefined ? undefined : strategyLogFile(opts.logDir, agent.name),
    watch: opts.watch,
    started,
    isolation: opts.isolation ?? (await localIsolation()),
    share: opts.share,
    forks: opts.forks,
    trainFile: opts.trainFile,
    ahead: opts.ahead,
    fit_timeout_seconds: agent.fit_timeout_seconds ?? FIT_TIMEOUT_SECONDS,
    predict_timeout_seconds: agent.predict_timeout_seconds ?? PREDICT_TIMEOUT_SECONDS,
  });
  held.push(h);
  return h.strategy;
}
