import { basename } from "node:path";
import { Rng } from "../../src/domain/rng.js";
import { strategyFileKind } from "../agents/strategy-file.js";
import { datasetFields, scenarioPath, strategyPath } from "./named-files.js";
import { MAX_CELLS, type ParamRange, type ScoringOverride, type Sweep } from "./sweep-file.js";

/**
 * One cell of a sweep, fully described by this JSON: a worker anywhere runs it from this alone and
 * gets the same numbers. Paths are absolute (on a cluster, a path every node sees).
 */
export interface Cell {
  kind: "backtest" | "replay";
  /** A strategy file's absolute path or a built-in's name (backtest only). */
  strategy?: string;
  params: Record<string, unknown>;
  against: string[];
  /** The scenario file's absolute path. */
  scenario: string;
  /** How the scenario is named in reports (as the sweep file names it). */
  scenario_name: string;
  /** Fields merged into the scenario's dataset. */
  dataset?: Record<string, unknown>;
  scoring?: ScoringOverride;
  /** Replaces the scenario's seed. */
  seed?: number | string;
}

/** A cell in its sweep: its place, and the value of each axis that varies (for the leaderboard's columns). */
export interface PlannedCell {
  index: number;
  cell: Cell;
  varied: Record<string, unknown>;
}

type Axis = { name: string; values: unknown[] | ParamRange; apply: (cell: Cell, value: unknown) => void; label?: (value: unknown) => unknown };

/**
 * The sweep's cells: the grid of its axes in file order (seeds innermost), or `sample.n` seeded
 * draws. A grid makes at most MAX_CELLS (a sample draws at most as many, from a grid of any size).
 */
export function planCells(sweep: Sweep): PlannedCell[] {
  const axes = axesOf(sweep);
  const base = (): Cell => ({
    kind: sweep.kind,
    // Without base.strategy, the strategies axis (which the file must then have) gives each cell's.
    ...(sweep.kind === "backtest" && sweep.base.strategy !== undefined ? { strategy: strategyPath(sweep.base.strategy, sweep.dir) } : {}),
    params: { ...sweep.base.params },
    against: sweep.base.against.map((s) => strategyPath(s, sweep.dir)),
    scenario: scenarioPath(sweep.base.scenario, sweep.dir),
    scenario_name: sweep.base.scenario,
    ...(sweep.base.dataset ? { dataset: datasetFields(sweep.base.dataset, sweep.dir) } : {}),
  });
  const varies = axes.filter((a) => !Array.isArray(a.values) || a.values.length > 1);
  const make = (index: number, values: unknown[]): PlannedCell => {
    const cell = base();
    axes.forEach((a, i) => a.apply(cell, values[i]));
    const varied = Object.fromEntries(varies.map((a) => [a.name, (a.label ?? ((v) => v))(values[axes.indexOf(a)])]));
    return { index, cell, varied };
  };
  if (sweep.sample) return sampleDraws(axes, sweep.sample).map((values, index) => make(index, values));
  const lists = axes.map((a) => a.values as unknown[]);
  const count = gridSize(axes);
  if (count > MAX_CELLS) throw new Error(`the sweep's axes make ${count} cells (${gridShape(axes)}); at most ${MAX_CELLS}: draw a "sample" instead`);
  const cells: PlannedCell[] = [];
  const walk = (i: number, picked: unknown[]): void => {
    if (i === lists.length) {
      cells.push(make(cells.length, picked));
      return;
    }
    for (const v of lists[i]) walk(i + 1, [...picked, v]);
  };
  walk(0, []);
  return cells;
}

function axesOf(sweep: Sweep): Axis[] {
  const { axes, dir } = sweep;
  const list: Axis[] = [];
  if (axes.strategies) {
    list.push({ name: "strategy", values: axes.strategies, apply: (c, v) => (c.strategy = strategyPath(v as string, dir)), label: (v) => display(v as string, axes.strategies as string[]) });
  }
  if (axes.scenarios) {
    list.push({
      name: "scenario",
      values: axes.scenarios,
      apply: (c, v) => {
        c.scenario = scenarioPath(v as string, dir);
        c.scenario_name = v as string;
      },
    });
  }
  if (axes.datasets) {
    list.push({
      name: "dataset",
      values: axes.datasets,
      apply: (c, v) => (c.dataset = { ...c.dataset, ...datasetFields(v as Record<string, unknown>, dir) }),
      label: (v) => JSON.stringify(v),
    });
  }
  if (axes.scoring) list.push({ name: "scoring", values: axes.scoring, apply: (c, v) => (c.scoring = v as ScoringOverride), label: (v) => JSON.stringify(v) });
  for (const [name, values] of Object.entries(axes.params)) list.push({ name: paramColumn(name), values, apply: (c, v) => (c.params[name] = v) });
  if (axes.seeds) {
    const seeds = Array.isArray(axes.seeds) ? axes.seeds : Array.from({ length: axes.seeds.count }, (_, i) => (axes.seeds as { from: number }).from + i);
    list.push({ name: "seed", values: seeds, apply: (c, v) => (c.seed = v as number | string) });
  }
  return list;
}

/** The axes other than params, by their columns' names. */
const AXIS_NAMES = new Set(["strategy", "scenario", "dataset", "scoring", "seed"]);

/**
 * A parameter's column: its name, or `params.NAME` when an axis has that name (LightGBM's `seed`
 * beside the scenario's seeds), so neither column takes the other's place in the leaderboard.
 */
function paramColumn(name: string): string {
  return AXIS_NAMES.has(name) ? `params.${name}` : name;
}

/**
 * `sample.n` seeded draws of each axis's value, in draw order. When every axis is a list, the draws
 * are distinct cells of the grid (without replacement), so `n` may not exceed the grid's size.
 * When any axis is a range (even an `int` one), every draw is independent: a float range's values
 * essentially never repeat, but a list's or an `int` range's may.
 */
function sampleDraws(axes: Axis[], sample: NonNullable<Sweep["sample"]>): unknown[][] {
  const rng = new Rng(sample.seed).fork("sweep-sample");
  if (axes.some((a) => !Array.isArray(a.values))) return Array.from({ length: sample.n }, () => axes.map((a) => draw(a.values, rng)));
  const size = gridSize(axes);
  if (sample.n > size) {
    throw new Error(`sample.n is ${sample.n} but the grid has only ${size} cell${size === 1 ? "" : "s"} (${gridShape(axes)}): drop "sample" to run the whole grid`);
  }
  return distinctDraws(axes.map((a) => a.values as unknown[]), sample.n, rng);
}

/**
 * `n` distinct combinations of the lists' values: a value of each list drawn uniformly, the whole
 * combination drawn again when it was drawn before. Memory stays O(n) however large the grid; the
 * worst case (n = the grid's size = 10,000) takes about 98,000 draws, well under a second.
 */
function distinctDraws(lists: unknown[][], n: number, rng: Rng): unknown[][] {
  const seen = new Set<string>();
  const draws: unknown[][] = [];
  while (draws.length < n) {
    const at = lists.map((l) => rng.int(l.length));
    const key = at.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    draws.push(at.map((i, axis) => lists[axis][i]));
  }
  return draws;
}

/** How many cells the axes' lists make. */
function gridSize(axes: Axis[]): number {
  return axes.reduce((n, a) => n * (a.values as unknown[]).length, 1);
}

/** The axes' sizes, as in "alpha 4 × seed 3". */
function gridShape(axes: Axis[]): string {
  return axes.length === 0 ? "no axes" : axes.map((a) => `${a.name} ${(a.values as unknown[]).length}`).join(" × ");
}

/** A value from a list (uniformly) or a range. */
function draw(values: unknown[] | ParamRange, rng: Rng): unknown {
  if (Array.isArray(values)) return values[rng.int(values.length)];
  const { min, max, log, int } = values;
  const u = rng.next();
  const x = log ? Math.exp(Math.log(min) + u * (Math.log(max) - Math.log(min))) : min + u * (max - min);
  return int ? Math.floor(x) : x;
}

/** A strategies axis value as its column shows it: a file by its name, or as written where another of the axis's files has that name too (a/agent.py, b/agent.py). */
function display(strategy: string, all: string[]): string {
  if (strategyFileKind(strategy) === null) return strategy;
  const name = basename(strategy);
  return all.some((s) => s !== strategy && basename(s) === name) ? strategy : name;
}
