/** Stake balances as plain text: on a money event the final deposit decides the winner. */
import { formatUsdc } from "../domain/money.js";
import type { StakeBalances } from "../service/overview/stake-balances.js";

const titles = { event: "event deposits (USDC)", tournament: "tournament stakes (USDC): net = stake limit, settled = earned" } as const;

export function formatStakeBalances({ product, rank_metric, rows }: StakeBalances): string {
  const width = Math.max(5, ...rows.map((r) => r.agent.length));
  const cell = (micro: number) => formatUsdc(micro).padStart(12);
  const lines = rows.map((r) => `${String(r.rank).padStart(4)}  ${r.agent.padEnd(width)}  ${cell(r.net_micro)}  ${cell(r.settled_micro)}  ${cell(r.locked_micro)}`);
  const header = `rank  ${"agent".padEnd(width)}  ${"net".padStart(12)}  ${"settled".padStart(12)}  ${"locked".padStart(12)}`;
  return [titles[product], `ranked by ${rank_metric}`, header, ...lines].join("\n") + "\n";
}
