import { closeSync, openSync, readdirSync, readSync } from "node:fs";

/** Linux reports CPU times in /proc in USER_HZ ticks, 100 a second on every architecture it runs on (an ABI constant). */
const TICKS_PER_SECOND = 100;

/** Enough for any /proc/<pid>/stat line (52 fields and a 16-byte name). */
const line = Buffer.alloc(4096);

interface Stat {
  ppid: number;
  /** User and system ticks of the process (all its threads) and of the children it has reaped. */
  ticks: number;
  /** When it started, in ticks since boot: tells it from a later process given the same pid. */
  start: number;
}

/** `/proc/<pid>/stat` opened, or null once the process is gone. */
function openStat(pid: number | string): number | null {
  try {
    return openSync(`/proc/${pid}/stat`, "r");
  } catch {
    return null; // gone
  }
}

function readStat(pid: number | string): Stat | null {
  const fd = openStat(pid);
  if (fd === null) return null;
  try {
    return statAt(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A process's stat, read again from its file's start: a file kept open stays the process's own
 * (a later process given the same pid has a file of its own), and once the process is gone it reads null.
 */
function statAt(fd: number): Stat | null {
  try {
    const text = line.toString("latin1", 0, readSync(fd, line, 0, line.length, 0));
    // The name, in parentheses, may hold spaces and parentheses: the fields start after the last ')'.
    // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime … starttime
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]), start: Number(f[19]) };
  } catch {
    return null;
  }
}

/** /proc/uptime, kept open for the process's life and read again from its start at each look. */
let uptime: number | null = null;

/** Ticks since boot, now. */
function uptimeTicks(): number {
  uptime ??= openSync("/proc/uptime", "r");
  const text = line.toString("latin1", 0, readSync(uptime, line, 0, line.length, 0));
  return Math.floor(Number(text.split(" ")[0]) * TICKS_PER_SECOND);
}

/**
 * The CPU time (user and system) of a worker's whole process tree: the process `root` and every
 * process below it, each one's own (all threads) plus what the children it reaped had used. A
 * process that ends is reaped by its parent (or, orphaned inside the sandbox's PID namespace, by the
 * sandbox's init), which is in the tree, so the total never loses a finished process's time.
 *
 * `mark` starts a call's count and is cheap: it reads the processes the last full pass found (one,
 * or bwrap's two and the interpreter's in a sandbox). `sinceMark` makes a full pass over /proc (a
 * few ms with a hundred processes on the machine). A process it finds that started during the
 * call counts whole; one that started before the call but was not seen by a pass until now (a pool
 * worker an earlier, short call left running) counts from when it is first seen, so the time it
 * used in earlier calls is never charged to this one (call-limit.ts makes a pass at the end of the
 * first call and of every call of REFRESH_MS or more, so such a process is rare).
 */
export class ProcessTreeCpu {
  /** The tree's processes as the last full pass found them. */
  private members = new Map<number, number>(); // pid → start
  /** Their stat files, kept open while they are members: a call's mark re-reads them instead of opening each again. */
  private readonly files = new Map<number, { start: number; fd: number }>();
  /** Whether a full pass has run: before one, `mark` knows of the root alone. */
  passed = false;
  private markTicks = 0;
  private markedAt = 0;
  /** Per process in the tree at the mark (or first seen since), the ticks not charged to the call. */
  private baseline = new Map<number, { start: number; ticks: number }>();

  private constructor(private readonly root: number, start: number) {
    this.members.set(root, start);
  }

  /** The tree below `root`, or null where /proc does not show it. */
  static of(root: number): ProcessTreeCpu | null {
    const stat = readStat(root);
    return stat === null ? null : new ProcessTreeCpu(root, stat.start);
  }

  /** Starts counting a call's CPU time from now. */
  mark(): void {
    this.markedAt = uptimeTicks();
    this.baseline = new Map();
    this.markTicks = 0;
    for (const [pid, start] of this.members) {
      const stat = this.statOf(pid);
      if (stat === null || stat.start !== start) continue; // ended, and counted in its parent's reaped time
      this.baseline.set(pid, { start, ticks: stat.ticks });
      this.markTicks += stat.ticks;
    }
  }

  /** CPU seconds the tree has used since `mark`; null once the root is gone. */
  sinceMark(): number | null {
    const tree = this.pass();
    if (tree === null) return null;
    let ticks = -this.markTicks;
    this.members = new Map();
    this.passed = true;
    for (const [pid, stat] of tree) {
      this.members.set(pid, stat.start);
      ticks += stat.ticks;
      const known = this.baseline.get(pid);
      if (known !== undefined && known.start === stat.start) continue; // counted from the mark
      if (stat.start < this.markedAt) {
        // Older than the call and not seen before: what it had used is not this call's.
        this.baseline.set(pid, { start: stat.start, ticks: stat.ticks });
        this.markTicks += stat.ticks;
        ticks -= stat.ticks;
      }
    }
    for (const [pid, file] of this.files) if (this.members.get(pid) !== file.start) this.forget(pid);
    return Math.max(0, ticks) / TICKS_PER_SECOND;
  }

  /** Closes the stat files it keeps open (the worker has exited). */
  close(): void {
    for (const pid of [...this.files.keys()]) this.forget(pid);
  }

  /** A member's stat, from its kept file (opened at its first read). */
  private statOf(pid: number): Stat | null {
    const start = this.members.get(pid) as number;
    let file = this.files.get(pid);
    if (file?.start !== start) {
      this.forget(pid);
      const fd = openStat(pid);
      if (fd === null) return null;
      this.files.set(pid, (file = { start, fd }));
    }
    return statAt(file.fd);
  }

  private forget(pid: number): void {
    const file = this.files.get(pid);
    if (file === undefined) return;
    closeSync(file.fd);
    this.files.delete(pid);
  }

  /** Every process of the tree, by one pass over /proc. */
  private pass(): Map<number, Stat> | null {
    let names: string[];
    try {
      names = readdirSync("/proc");
    } catch {
      return null;
    }
    const children = new Map<number, number[]>();
    const stats = new Map<number, Stat>();
    for (const name of names) {
      const first = name.charCodeAt(0);
      if (first < 48 || first > 57) continue; // not a process
      const stat = readStat(name);
      if (stat === null) continue;
      const pid = Number(name);
      stats.set(pid, stat);
      const siblings = children.get(stat.ppid);
      if (siblings) siblings.push(pid);
      else children.set(stat.ppid, [pid]);
    }
    if (stats.get(this.root)?.start !== this.members.get(this.root)) return null;
    const tree = new Map<number, Stat>();
    const stack = [this.root];
    while (stack.length > 0) {
      const pid = stack.pop()!;
      tree.set(pid, stats.get(pid)!);
      stack.push(...(children.get(pid) ?? []));
    }
    return tree;
  }
}
