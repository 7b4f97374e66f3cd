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
  const byId = new Map<string, number>();
  live.ids.forEach((id, i) => byId.set(id, values[i]));
  await ctx.client.submit({
    model_id: ctx.model,
    exped,
    predictions: instrument_ids.map((instrument_id) => ({ instrument_id, prediction: byId.get(instrument_id) as number })),
  });
}
