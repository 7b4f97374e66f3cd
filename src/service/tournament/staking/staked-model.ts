import { DESIGNATED } from "../../../data/schema.js";
import { refuse } from "../../../domain/errors.js";
import type { Principal } from "../../kernel/auth.js";
import type { ServiceContext } from "../../kernel/context.js";
import { resolveModel, type ModelRecord } from "../../models/models.js";
import { ownerOf } from "../../../store/models.js";

/** The published benchmark models' names: the benchmark file's columns, `v1_designated` first. */
function benchmarkNames(ctx: ServiceContext): Set<string> {
  return new Set([DESIGNATED, ...Object.keys(ctx.world.dataset.benchmarks.train.columns)]);
}

/**
 * The caller's model a stake refers to, by id or name. Staking answers the spec's staking table
 * rather than the model table: a benchmark is 403 `Cannot stake on a benchmark model`, another
 * agent's model 403 `Model does not belong to this agent`; an unknown id or name is the model
 * table's 404.
 */
export function stakedModel(ctx: ServiceContext, p: Principal, ref: string): ModelRecord {
  const benchmarks = benchmarkNames(ctx);
  if (benchmarks.has(ref)) throw refuse("benchmark_not_stakeable");
  const owner = ownerOf(ctx.db, ref);
  if (owner !== undefined && owner !== p.agent_id) throw refuse("model_not_owned");
  const model = resolveModel(ctx, p, ref);
  if (benchmarks.has(model.name)) throw refuse("benchmark_not_stakeable");
  return model;
}
