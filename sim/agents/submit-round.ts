import type { AgentContext, Predict } from "./strategy.js";

/**
 * The submit loop every built-in strategy shares: make sure the model exists, read the open round's
 * instruments and live features, predict, and submit exactly the round's instruments.
 */
export async function submitRound(ctx: AgentContext, predict: Predict): Promise<void> {
  await ctx.client.createModel({ name: ctx.model });
  const { exped, instrument_ids } = await ctx.client.instruments();
  const live = await ctx.client.downloadDataset("live");
  const values = await predict(ctx, live);
  if (values === null) return;
  await ctx.client.submit({ model_id: ctx.model, exped, predictions: entries(instrument_ids, live.ids, values) });
}

/** One entry per instrument of the round, its value found by id (by row when the live split lists them in the same order). */
function entries(instrumentIds: string[], liveIds: string[], values: Float64Array): { instrument_id: string; prediction: number }[] {
  if (instrumentIds.length === liveIds.length && instrumentIds.every((id, i) => id === liveIds[i])) {
    return instrumentIds.map((instrument_id, i) => ({ instrument_id, prediction: values[i] }));
  }
  const byId = new Map<string, number>();
  liveIds.forEach((id, i) => byId.set(id, values[i]));
  return instrumentIds.map((instrument_id) => ({ instrument_id, prediction: byId.get(instrument_id) as number }));
}
