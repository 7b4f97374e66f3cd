/** Event stake balances as plain text: on a money event the final balance decides the winner. */
import { formatUsdc } from "../domain/money.js";
import type { StakeBalanceRow } from "../service/event-staking/view.js";

export function formatStakeBalances(rows: StakeBalanceRow[], title = "stake balances (USDC)"): string {
  const width = Math.max(5, ...rows.map((r) => r.agent.length));
  const cell = (micro: number) => formatUsdc(micro).padStart(12);
  const lines = rows.map((r) => `${String(r.rank).padStart(4)}  ${r.agent.padEnd(width)}  ${cell(r.net_micro)}  ${cell(r.settled_micro)}  ${cell(r.locked_micro)}`);
  const header = `rank  ${"agent".padEnd(width)}  ${"net".padStart(12)}  ${"settled".padStart(12)}  ${"locked".padStart(12)}`;
  return [title, "ranked by net_micro", header, ...lines].join("\n") + "\n";
}
