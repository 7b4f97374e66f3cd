import { tournamentSchedule, type TournamentCalendar } from "../../src/domain/cadence.js";
import { defaultTournamentCalendar } from "../../src/domain/cadence-tournament.js";
import { columnsWithoutRows, rowsByExped, selectColumns, takeRows, type Frame, type NumericColumn } from "../../src/domain/frame.js";
import type { LiveRound } from "../../src/data/generate.js";
import { compareIds } from "../../src/scoring/align.js";
import type { World } from "../../src/service/kernel/deployment.js";
import type { WalkAhead } from "../agents/python-strategy.js";

/**
 * The world a backtest walks: the scenario's dataset with each validation exped turned into one
 * tournament round (its features as the live split, its target as the hidden truth, its
 * v1_designated rows as the live benchmark), in exped order. The validation split itself is
 * served empty, so no strategy can read the targets of the rounds it is about to predict; the
 * train split is served as it is. The calendar is the scenario's (or the default weekday one)
 * with as many rounds as there are validation expeds.
 */
export function walkWorld(world: World): WalkWorld {
  let walked = walks.get(world);
  if (!walked) walks.set(world, (walked = walkOf(world)));
  return walked;
}

export type WalkWorld = Omit<World, "deployment"> & { calendar: TournamentCalendar };

/**
 * Walks already made, by the world they were made from: a sweep-worker's cells on the same data
 * share one world (run-cell.ts), and so one walk, instead of re-slicing every exped per cell. A
 * walk is read, never written (its rounds' frames are views of the world's validation split).
 */
const walks = new WeakMap<World, WalkWorld>();

function walkOf(world: World): WalkWorld {
  const { dataset } = world;
  const validation = dataset.validation;
  const benchmarkRow = new Map(dataset.benchmarks.validation.ids.map((id, i) => [id, i] as const));
  const groups = rowsByExped(validation);
  const rounds = [...groups.keys()].sort(compareIds).map((exped): LiveRound => {
    const rows = groups.get(exped) as number[];
    const frame = expedRows(selectColumns(validation, dataset.features), rows);
    const benchmark = expedRows(
      dataset.benchmarks.validation,
      frame.ids.map((id) => {
        const row = benchmarkRow.get(id);
        if (row === undefined) throw new Error(`validation row '${id}' of ${exped} has no v1_designated row in the validation benchmark file`);
        return row;
      }),
    );
    const target = validation.columns[dataset.target];
    return { exped, frame, target: Float64Array.from(rows, (r) => target[r]), benchmark };
  });
  if (rounds.length === 0) throw new Error("the scenario's validation split has no rows to walk");
  const calendar: TournamentCalendar = { ...defaultTournamentCalendar, start: "2026-01-05", ...world.deployment.calendar, n_rounds: rounds.length };
  return {
    calendar,
    dataset: {
      ...dataset,
      validation: columnsWithoutRows(Object.keys(validation.columns)),
      benchmarks: { train: dataset.benchmarks.train, validation: columnsWithoutRows(Object.keys(dataset.benchmarks.validation.columns)) },
      rounds,
    },
    schedule: tournamentSchedule(calendar, (i) => rounds[i - 1].exped),
  };
}

/**
 * One exped's rows of a frame (the validation features, or the validation benchmark). A file's
 * exped is one run of rows (the service's files are sorted by exped, and the benchmark's rows are
 * in the validation file's order), whose columns are then views of the frame's, not copies: the
 * walk's rounds hold no second copy of validation or its benchmark, and nothing writes to a round's frame.
 */
function expedRows(frame: Frame, rows: number[]): Frame {
  const first = rows[0];
  if (!rows.every((r, i) => r === first + i)) return takeRows(frame, rows);
  const end = first + rows.length;
  const columns: Record<string, NumericColumn> = {};
  for (const [name, col] of Object.entries(frame.columns)) columns[name] = col.subarray(first, end);
  return { ids: frame.ids.slice(first, end), exped: frame.exped.slice(first, end), columns };
}

/** The walk's rounds after a slot's, as the service serves them (live frame and benchmark: the walk has no faults). */
export function walkAhead(rounds: LiveRound[]): WalkAhead {
  return (slot, step) => {
    const next = rounds[slot.index - 1 + step]; // slot.index counts rounds from 1
    return next ? { live: next.frame, benchmark: next.benchmark } : null;
  };
}
