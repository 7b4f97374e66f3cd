import { refuse } from "../../domain/errors.js";
import { selectColumns, type Frame } from "../../domain/frame.js";
import { splits, type Split } from "../../data/schema.js";
import { readerScopes, requireScope, type Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { requireEventOpen, requireEventStarted } from "../kernel/event-gate.js";
import { benchmarkWithheld, liveEmptied } from "../kernel/faults.js";
import { latestOpenedRound, openRound } from "../../store/rounds.js";

function parseSplit(split: string): Split {
  if (!(splits as readonly string[]).includes(split)) throw refuse("invalid_split", { split });
  return split as Split;
}

/**
 * The open round's live data. Between rounds the split is not served (404); before any round has
 * opened there is no live dataset at all (503 not available); a round under the `empty_live`
 * fault serves nothing (503 empty).
 */
function liveRound(ctx: ServiceContext, split: Split) {
  const r = openRound(ctx.db);
  if (!r) throw latestOpenedRound(ctx.db) ? refuse("dataset_not_found", { split }) : refuse("live_not_available");
  if (liveEmptied(ctx, r.idx)) throw refuse("live_empty");
  return { round: r, live: ctx.world.dataset.rounds[r.idx - 1] };
}

/**
 * A dataset split: `train` and `validation` with the dataset's target columns (the graded one among
 * them), `live` (features only) while a round is open. Event and practice keys on an event follow the event's rules instead.
 */
export function downloadDataset(ctx: ServiceContext, p: Principal, split: string): Frame {
  if (ctx.world.deployment.kind === "event" && (p.scope === "event" || p.scope === "practice")) return eventDataset(ctx, split);
  requireScope(p, ["tournament"], "dataset download");
  const s = parseSplit(split);
  if (s === "live") return liveRound(ctx, s).live.frame;
  return s === "train" ? ctx.world.dataset.train : ctx.world.dataset.validation;
}

/**
 * An event key's split: nothing before the event starts (403); `train` and `validation` from then
 * on, validation's targets blanked (the practice board scores it server-side); `live` only while a
 * round is open, else 409 `cadence_not_open` with `Retry-After` (403 once the event has ended).
 */
function eventDataset(ctx: ServiceContext, split: string): Frame {
  const s = parseSplit(split);
  if (s === "live") {
    requireEventOpen(ctx, true);
    return liveRound(ctx, s).live.frame;
  }
  requireEventStarted(ctx);
  return s === "train" ? ctx.world.dataset.train : blankTargets(ctx.world.dataset.validation, ctx.world.dataset.features);
}

/** Every target column blanked: all columns but the features. */
function blankTargets(frame: Frame, features: string[]): Frame {
  const blank = new Float64Array(frame.ids.length).fill(Number.NaN);
  const columns = Object.fromEntries(Object.entries(frame.columns).map(([name, col]) => [name, features.includes(name) ? col : blank]));
  return { ...frame, columns };
}

/**
 * A benchmark prediction file: index `id`, columns `exped` and one per benchmark model
 * (`v1_designated`). The live file is served while a round is open; a fault can withhold its column.
 * Event keys get only `train`: `validation` and `live` answer 404 by design (public facts, section 2).
 */
export function downloadBenchmark(ctx: ServiceContext, p: Principal, split: string): Frame {
  requireScope(p, readerScopes, "benchmark download");
  const s = parseSplit(split);
  if (p.scope !== "tournament" && s !== "train") throw refuse("benchmark_withheld", { split: s });
  if (s !== "live") return ctx.world.dataset.benchmarks[s];
  const { round, live } = liveRound(ctx, s);
  if (benchmarkWithheld(ctx, round.idx)) return selectColumns(live.benchmark, []);
  return live.benchmark;
}

