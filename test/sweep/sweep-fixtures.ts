import { readFileSync } from "node:fs";
import { descendants, type Proc } from "../helpers/process-tree.js";

/** A tournament scenario small enough that a backtest of it takes a moment: the sweep tests' base. */
export const TINY_SCENARIO = {
  name: "tiny",
  seed: 7,
  dataset: { n_features: 8, n_core: 3, train_expeds: 10, validation_expeds: 4, rows_per_exped: 40, gap_expeds: 2, universe_size: 30 },
  calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 1 },
  agents: [{ name: "bob", key: "key-bob-00000002", strategy: "benchmark_copier" }],
};

/**
 * The source of a module strategy that submits each round what `body` returns: TypeScript statements
 * with the round's frame `live` and the strategy's params `p` (of the zod schema `params`) in scope,
 * after `top`, its module-level statements. It imports the Strategy API from `api`: by its package
 * name, as a user's module does under the CLI, or (in vitest's own process) by sim/strategy-api.ts's path.
 */
export function roundStrategy(body: string[], { top = [], params = "z.strictObject({})", api = "basecamp-sim/strategy" }: { top?: string[]; params?: string; api?: string } = {}): string {
  return [
    `import { duringWindow, submitRound, uniformRanks, z, type Strategy } from ${JSON.stringify(api)};`,
    `const params = ${params};`,
    ...top,
    "const strategy: Strategy<z.infer<typeof params>> = { name: 'under-test', kind: 'tournament', summary: 'a test strategy', params,",
    "  actAt: (slot, _p, rng) => duringWindow(slot, rng),",
    "  act: (ctx, _slot, p) => submitRound(ctx, async (_c, live) => {",
    ...body.map((line) => `    ${line}`),
    "  }) };",
    "export default strategy;",
  ].join("\n");
}

/**
 * A module strategy that leaves behind all it can in the process that runs it: a top-level count of
 * its rounds (which shifts its ranks), a global, and with `scribble` every feature of the live
 * frames it is handed overwritten.
 */
export const LEAVER = roundStrategy(
  [
    "const columns = Object.values(live.columns);",
    "rounds += 1 + ((globalThis as { leaverRuns?: number }).leaverRuns ?? 0);",
    "(globalThis as { leaverRuns?: number }).leaverRuns = rounds;",
    "const sums = Float64Array.from(live.ids, (_, r) => columns.reduce((s, c) => s + c[(r + rounds) % c.length], 0));",
    "if (p.scribble) for (const c of columns) c.fill(3);",
    "return uniformRanks(sums);",
  ],
  { top: ["let rounds = 0;"], params: "z.strictObject({ scribble: z.boolean().default(false) })" },
);

/**
 * A strategy that predicts its first feature; with PARAMS["hold"], its fit first waits for SIGUSR1,
 * which it catches (heldFit finds it by that). A cell held so is one in flight for as long as a test needs.
 */
export const HOLDER = `import signal
import time

PARAMS = {"hold": False}
released = []


def fit(train):
    if PARAMS["hold"]:
        signal.signal(signal.SIGUSR1, lambda *_: released.append(True))
        while not released:
            time.sleep(0.02)


def predict(live, benchmark=None):
    first = next(c for c in live.columns if c.startswith("feature_"))
    return live[first].rank(pct=True)
`;

/** SIGUSR1's bit in /proc/PID/status's signal masks. */
const SIGUSR1_BIT = 1n << 9n;

/** Whether a process catches SIGUSR1 (its SigCgt mask), as a held fit does; false once it is gone. */
function catchesSigusr1(pid: number): boolean {
  try {
    const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return caught !== undefined && (BigInt(`0x${caught}`) & SIGUSR1_BIT) !== 0n;
  } catch {
    return false;
  }
}

/** The Python process of a held fit among the descendants of `roots`, and the root it is under; undefined while there is none. */
export function heldFit(roots: number[]): { holder: Proc; root: number } | undefined {
  for (const root of roots) {
    const holder = descendants(root).find((p) => p.command.startsWith("python") && catchesSigusr1(p.pid));
    if (holder) return { holder, root };
  }
  return undefined;
}
