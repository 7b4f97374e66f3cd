import { readdirSync, readFileSync } from "node:fs";

/** A process as /proc shows it; its start time (in clock ticks since boot) tells it from a later one with the same pid. */
export interface Proc {
  pid: number;
  ppid: number;
  start: string;
  command: string;
}

function stat(pid: number): (Proc & { state: string }) | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // `pid (comm) state ppid … starttime …`: comm may hold spaces and parentheses, so split after the last ')'.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  return { pid, command: text.slice(text.indexOf("(") + 1, close), state: fields[0], ppid: Number(fields[1]), start: fields[19] };
}

/** Every live process whose chain of parents leads to `root` (not `root` itself). */
export function descendants(root: number): Proc[] {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => stat(Number(d)))
    .filter((p): p is Proc & { state: string } => p !== null && p.state !== "Z");
  const found: Proc[] = [];
  let frontier = [root];
  while (frontier.length > 0) {
    const children = all.filter((p) => frontier.includes(p.ppid));
    found.push(...children);
    frontier = children.map((p) => p.pid);
  }
  return found;
}

/** Host processes whose command line holds `token` (live ones: zombies waiting to be reaped do not count). */
export function processesWith(token: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (cmdline.split("\0").includes(token) && !/\) Z /.test(state)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The processes of `procs` still running (a zombie is not). */
export function stillRunning(procs: Proc[]): Proc[] {
  return procs.filter((p) => {
    const now = stat(p.pid);
    return now !== null && now.start === p.start && now.state !== "Z";
  });
}

/** Kills a child that leads its own process group, and whatever it left running in that group. */
export function killGroup(child: { pid?: number } | undefined): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}
