/** An event's compute budgets as plain text: each agent's grant and spend, the spend by kind, then the hosted machine sessions. */
import type { ComputeBudgets, KindSpend } from "../service/compute/budgets.js";

const usd = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;

/** "xgboost 0.12, ridge 0.04": an agent's spend per kind, or "no jobs". */
const kindsCell = (kinds: KindSpend[]) => (kinds.length === 0 ? "no jobs" : kinds.map((k) => `${k.kind} ${usd(k.spent_cents)}${k.jobs > 1 ? ` (${k.jobs} jobs)` : ""}`).join(", "));

export function formatComputeBudgets({ agents, by_kind }: ComputeBudgets): string {
  const width = Math.max(5, ...agents.map((a) => a.agent.length));
  const money = ["grant", "jobs", "machine", "reserved", "remaining"];
  const out = [
    "compute budgets (USD)",
    `${"agent".padEnd(width)}  ${money.map((m) => m.padStart(9)).join("  ")}  by kind`,
    ...agents.map(
      (a) => `${a.agent.padEnd(width)}  ${[a.grant_cents, a.spent_cents, a.machine_cents, a.reserved_cents, a.remaining_cents].map((c) => usd(c).padStart(9)).join("  ")}  ${kindsCell(a.by_kind)}`,
    ),
  ];
  if (by_kind.length > 0) {
    const kw = Math.max(4, ...by_kind.map((k) => k.kind.length));
    out.push(
      "",
      "compute spent by kind (USD; runtime on the simulated clock)",
      `${"kind".padEnd(kw)}  ${"jobs".padStart(4)}  ${"completed".padStart(9)}  ${"runtime".padStart(9)}  ${"spent".padStart(9)}`,
      ...by_kind.map((k) => `${k.kind.padEnd(kw)}  ${String(k.jobs).padStart(4)}  ${String(k.completed).padStart(9)}  ${minutes(k.runtime_seconds).padStart(9)}  ${usd(k.spent_cents).padStart(9)}`),
    );
  }
  const sessions = agents.flatMap((a) => a.machines.map((m) => ({ agent: a.agent, ...m })));
  if (sessions.length > 0) {
    const mw = Math.max(7, ...sessions.map((m) => m.machine_id.length));
    out.push(
      "",
      "hosted machine sessions (USD; runtime on the simulated clock)",
      `${"agent".padEnd(width)}  ${"machine".padEnd(mw)}  ${"state".padEnd(18)}  ${"runtime".padStart(9)}  ${"spent".padStart(9)}`,
      ...sessions.map((m) => {
        const state = m.status === "running" ? "running" : `stopped (${m.stop_reason})`;
        const runtime = m.runtime_seconds === null ? "–" : minutes(m.runtime_seconds);
        const spent = m.cost_cents === null ? "held" : usd(m.cost_cents);
        return `${m.agent.padEnd(width)}  ${m.machine_id.padEnd(mw)}  ${state.padEnd(18)}  ${runtime.padStart(9)}  ${spent.padStart(9)}`;
      }),
    );
  }
  return out.join("\n") + "\n";
}
