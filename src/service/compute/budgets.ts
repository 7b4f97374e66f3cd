import { agentId } from "../../domain/ids.js";
import type { ServiceContext } from "../kernel/context.js";
import { machinesOf, type MachineRow } from "../../store/machines.js";
import { creditParts, creditsOf } from "./jobs.js";
import { jobsOf, type JobRow } from "../../store/jobs.js";
import { requestOf } from "./train-request.js";
import { computeSettings } from "../kernel/settings/compute.js";

/** One kind's jobs and what they cost. */
export interface KindSpend {
  kind: string;
  jobs: number;
  completed: number;
  /** Simulated seconds the ended jobs ran: to their end, or to their cancel (none when cancelled while queued). */
  runtime_seconds: number;
  spent_cents: number;
}

/** One agent's grant and what became of it. */
export interface AgentBudget {
  agent: string;
  grant_cents: number;
  /** What the agent's ended jobs were charged. */
  spent_cents: number;
  /** What its stopped hosted machines were charged. */
  machine_cents: number;
  /** What its queued and running jobs and its running machine hold. */
  reserved_cents: number;
  /** What it could still launch with (the credits endpoint's `available_cents`). */
  remaining_cents: number;
  /** Its jobs by kind, kinds in the order of its first job of each. */
  by_kind: KindSpend[];
  /** Its hosted machine sessions, in the order they started. */
  machines: MachineSpend[];
}

/** One hosted machine session: how long it ran on the simulated clock, why it stopped, what it cost. */
export interface MachineSpend {
  machine_id: string;
  status: MachineRow["status"];
  stop_reason: MachineRow["stop_reason"];
  runtime_seconds: number | null;
  cost_cents: number | null;
}

export interface ComputeBudgets {
  agents: AgentBudget[];
  /** Every agent's jobs by kind, kinds in the order of their first job. */
  by_kind: KindSpend[];
}

/**
 * Each event agent's compute grant, spend, hold and remainder, with its jobs by kind, and the
 * kinds over every agent: the organiser's read at the end of a run. Null when the event has no
 * compute budget. The money is the credits endpoint's (`creditParts`, summed by `creditsOf` as
 * `credits` does), so the table and an agent's own `get_compute_credits` never disagree: grant −
 * jobs − machines − reserved = remaining.
 */
export function computeBudgets(ctx: ServiceContext): ComputeBudgets | null {
  if (!computeSettings(ctx)) return null;
  const all: JobRow[] = [];
  const agents = ctx.world.deployment.agents
    .filter((a) => a.scope === "event")
    .map((a) => {
      const id = agentId(a.name);
      const jobs = jobsOf(ctx.db, id);
      all.push(...jobs);
      const parts = creditParts(ctx, id);
      const c = creditsOf(parts);
      const machines = machinesOf(ctx.db, id).map(({ machine_id, status, stop_reason, runtime_seconds, cost_cents }) => ({ machine_id, status, stop_reason, runtime_seconds, cost_cents }));
      return {
        agent: a.name,
        grant_cents: c.grant_cents,
        spent_cents: parts.jobs.spent,
        machine_cents: parts.machines.spent,
        reserved_cents: c.reserved_cents,
        remaining_cents: c.available_cents,
        by_kind: byKind(jobs),
        machines,
      };
    });
  return { agents, by_kind: byKind(all.sort((x, y) => x.seq - y.seq)) };
}

function byKind(jobs: JobRow[]): KindSpend[] {
  const kinds = new Map<string, KindSpend>();
  for (const j of jobs) {
    const kind = requestOf(j).model;
    const k = kinds.get(kind) ?? { kind, jobs: 0, completed: 0, runtime_seconds: 0, spent_cents: 0 };
    k.jobs += 1;
    if (j.status === "completed") k.completed += 1;
    if (j.finished_at !== null) k.runtime_seconds += Math.max(0, Math.ceil((j.finished_at - j.running_at) / 1000));
    k.spent_cents += j.cost_cents ?? 0;
    kinds.set(kind, k);
  }
  return [...kinds.values()];
}
