import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";

/**
 * A sweep file: a base (a strategy and a scenario) and axes to vary over it. Each axis is a list
 * of values crossed with the others (a grid), or, with `sample`, a seeded random draw of `n` cells
 * where a strategy parameter may also be a range. Errors name the field.
 */
const json = z.unknown();

/**
 * The most cells a sweep may have (a grid, or a sample's draws). The report holds every cell's
 * outcome in memory: 10,000 backtests of examples/agent.py on default-tournament (245 MB of stored
 * outcomes, a 129 MB `--json`) report in 2-4 s and 0.7-1.1 GB; 100,000 ran out of heap, and
 * `--json` would pass V8's longest string near 41,000.
 */
export const MAX_CELLS = 10_000;

/** The largest sweep file read: a real one is a few kB. */
const MAX_SWEEP_FILE_BYTES = 16 * 1024 * 1024;

/** A union's message when no option fits: what it takes, and the value it got (zod says only "Invalid input"). */
function expected(what: string): (issue: { code?: string; input?: unknown }) => string | undefined {
  return (issue) => (issue.code === "invalid_union" ? `expected ${what}, got ${shown(issue.input)}` : undefined);
}

/** A value as JSON, cut to 60 characters. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** A scenario's seed. */
const seedSchema = z.union([z.int(), z.string().min(1)], { error: expected("an integer or a non-empty string") });

/** A numeric range for a sampled parameter: uniform, or uniform in log space with `log`; `int` rounds down. */
const rangeSchema = z
  .strictObject({
    min: z.number(),
    max: z.number(),
    log: z.boolean().default(false),
    int: z.boolean().default(false),
  })
  .refine((r) => r.min < r.max, { message: "expected min < max", path: ["max"] })
  .refine((r) => !r.log || r.min > 0, { message: "a log range needs min > 0", path: ["min"] });

/** A seed list, or `count` consecutive seeds from `from`. */
const seedsSchema = z.union([z.array(seedSchema).min(1), z.strictObject({ from: z.int().default(1), count: z.int().min(1).max(MAX_CELLS) })], {
  error: expected(`a non-empty list of seeds (integers or non-empty strings) or {"from"?: integer, "count": 1 to ${MAX_CELLS}}`),
});

/** A strategy parameter's axis: its values, or (sampled) a range. */
const paramAxisSchema = z.union([z.array(json).min(1), rangeSchema], {
  error: expected('a non-empty list of values or a range {"min": number, "max": number, "log"?: boolean, "int"?: boolean}'),
});

/** A scenario's scoring settings to override: only what it names changes. */
const scoringOverride = z.strictObject({
  weights: z.strictObject({ corr: z.number(), aimc: z.number(), ncorr: z.number() }).optional(),
  clip: z.number().positive().optional(),
  aggregate: z.enum(["sum", "exped_weighted_mean"]).optional(),
});

const sweepSchema = z
  .strictObject({
    /** One backtest per cell, or one replay of the scenario with the engine's invariants checked (a swarm). */
    kind: z.enum(["backtest", "replay"]).default("backtest"),
    base: z.strictObject({
      /** A strategy file (relative to the sweep file) or a built-in's name; a backtest needs one. */
      strategy: z.string().min(1).optional(),
      params: z.record(z.string(), json).default({}),
      /** A scenario file (relative to the sweep file) or a built-in scenario's name. */
      scenario: z.string().min(1).default("default-tournament"),
      /** Fields merged into the scenario's dataset, e.g. {"dir": "data", "core_features": [...]} for data in the service's file layout. */
      dataset: z.record(z.string(), json).optional(),
      /** Strategies to show beside the strategy in each backtest, besides v1_designated. */
      against: z.array(z.string().min(1)).default([]),
    }),
    axes: z
      .strictObject({
        params: z.record(z.string(), paramAxisSchema).default({}),
        strategies: z.array(z.string().min(1)).min(1).optional(),
        scenarios: z.array(z.string().min(1)).min(1).optional(),
        /** Fields merged into the scenario's dataset, e.g. {"dir": "/shared/data"} or {"rows_per_exped": 100}. */
        datasets: z.array(z.record(z.string(), json)).min(1).optional(),
        scoring: z.array(scoringOverride).min(1).optional(),
        seeds: seedsSchema.optional(),
      })
      .default({ params: {} }),
    /** Seeded random cells instead of the full grid. */
    sample: z.strictObject({ n: z.int().min(1).max(MAX_CELLS), seed: seedSchema }).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.kind === "backtest" && s.base.strategy === undefined && s.axes.strategies === undefined) {
      ctx.addIssue({ code: "custom", path: ["base", "strategy"], message: "a backtest sweep needs a strategy (or axes.strategies)" });
    }
    if (s.kind === "replay") {
      for (const key of ["strategy", "against"] as const) {
        if (key === "strategy" ? s.base.strategy !== undefined : s.base.against.length > 0) {
          ctx.addIssue({ code: "custom", path: ["base", key], message: "a replay sweep plays the scenario's own agents" });
        }
      }
      for (const key of ["params", "strategies"] as const) {
        if (key === "params" ? Object.keys(s.axes.params).length > 0 : s.axes.strategies !== undefined) {
          ctx.addIssue({ code: "custom", path: ["axes", key], message: "a replay sweep plays the scenario's own agents" });
        }
      }
    }
    if (s.sample === undefined) {
      for (const [name, axis] of Object.entries(s.axes.params)) {
        if (!Array.isArray(axis)) ctx.addIssue({ code: "custom", path: ["axes", "params", name], message: "a range needs \"sample\" (a grid takes a list of values)" });
      }
    }
  });

export type SweepInput = z.infer<typeof sweepSchema>;
export type ParamRange = z.infer<typeof rangeSchema>;
export type ScoringOverride = z.infer<typeof scoringOverride>;

/** A validated sweep, with its files' paths resolved against the sweep file's directory. */
export interface Sweep extends SweepInput {
  /** The directory relative paths in the file are read against. */
  dir: string;
}

export function parseSweep(raw: unknown, source: string, dir: string): Sweep {
  const result = sweepSchema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.length === 0 ? "(top level)" : issue.path.join(".")}: ${issue.message}`);
    throw new Error(`${source} is not a valid sweep: ${issues.join("; ")}`);
  }
  return { ...result.data, dir: resolve(dir) };
}

export function loadSweep(path: string): Sweep {
  let raw: unknown;
  try {
    const stat = statSync(path);
    // A FIFO or a device has no size to check before reading it.
    if (!stat.isFile()) throw new Error("not a regular file");
    if (stat.size > MAX_SWEEP_FILE_BYTES) throw new Error(`the file is ${stat.size} bytes, at most ${MAX_SWEEP_FILE_BYTES} (a sweep file is a few kB)`);
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  }
  return parseSweep(raw, path, dirname(path));
}
