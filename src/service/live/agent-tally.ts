import type { LoggedEvent } from "../../store/event-log.js";

/** One agent's activity as the organiser's console shows it, folded from the event log. */
export interface AgentTally {
  agent: string;
  round_uploads: number;
  practice_uploads: number;
  /** The round lane's pool left after the agent's last accepted upload; null before any. */
  uploads_remaining: number | null;
  runs_finalised: number;
  runs_failed: number;
  compute_jobs: number;
  machine_sessions: number;
  /** Hosted compute spent: ended jobs and stopped machines. */
  compute_cents: number;
}

/** The newest uploads remembered per agent (a participant's page is told their ids on connecting). */
export const UPLOADS_REMEMBERED = 100;

/**
 * Folds the event log, in order, into per-agent tallies and who owns which upload, job and machine
 * (run, job-end and machine-stop events name only their id).
 */
export class AgentTallies {
  private readonly tallies = new Map<string, AgentTally>();
  private readonly owners = new Map<string, string>();
  private readonly uploads = new Map<string, string[]>();

  /** Folds one event; returns the agent it concerned, if any. */
  fold(e: LoggedEvent): string | null {
    const p = (e.payload ?? {}) as Record<string, unknown>;
    const agent = typeof p.agent === "string" ? p.agent : this.ownerOf(p);
    if (agent === null) return null;
    const t = this.tallyOf(agent);
    switch (e.type) {
      case "upload.accepted":
        this.owners.set(String(p.upload_id), agent);
        this.remember(agent, String(p.upload_id));
        if (p.lane === "round") {
          t.round_uploads += 1;
          if (typeof p.uploads_remaining === "number") t.uploads_remaining = p.uploads_remaining;
        } else t.practice_uploads += 1;
        break;
      case "run.finalised":
        t.runs_finalised += 1;
        break;
      case "run.failed":
        t.runs_failed += 1;
        break;
      case "job.queued":
        this.owners.set(String(p.job_id), agent);
        t.compute_jobs += 1;
        break;
      case "machine.started":
        this.owners.set(String(p.machine_id), agent);
        t.machine_sessions += 1;
        break;
    }
    if (typeof p.cost_cents === "number") t.compute_cents += p.cost_cents;
    return agent;
  }

  /** Every agent's tally, by name. */
  all(): AgentTally[] {
    return [...this.tallies.values()].sort((a, b) => a.agent.localeCompare(b.agent));
  }

  /** The agent's newest uploads, oldest first. */
  uploadsOf(agent: string): string[] {
    return this.uploads.get(agent) ?? [];
  }

  private ownerOf(p: Record<string, unknown>): string | null {
    for (const field of ["upload_id", "job_id", "machine_id"]) {
      const owner = typeof p[field] === "string" ? this.owners.get(p[field]) : undefined;
      if (owner !== undefined) return owner;
    }
    return null;
  }

  private remember(agent: string, uploadId: string): void {
    const list = this.uploads.get(agent) ?? [];
    list.push(uploadId);
    if (list.length > UPLOADS_REMEMBERED) list.shift();
    this.uploads.set(agent, list);
  }

  private tallyOf(agent: string): AgentTally {
    let t = this.tallies.get(agent);
    if (!t) {
      t = { agent, round_uploads: 0, practice_uploads: 0, uploads_remaining: null, runs_finalised: 0, runs_failed: 0, compute_jobs: 0, machine_sessions: 0, compute_cents: 0 };
      this.tallies.set(agent, t);
    }
    return t;
  }
}
