import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { exitText } from "../data/python-process.js";
import { CallLimit } from "./call-limit.js";
import { ProcessTreeCpu } from "./tree-cpu.js";
import { fileTail } from "./log-tail.js";
import type { Readable, Writable } from "node:stream";
import { MAX_BODY_BYTES, MAX_HEADER_BYTES, type Answer } from "./wire.js";

/** The last stderr bytes kept for a crash's reason: a chatty worker cannot exhaust memory. */
const STDERR_TAIL = 64 * 1024;
/** How long an exited worker's pipes are waited for, for the last of its stderr. */
const CLOSE_GRACE_MS = 200;

export interface Command {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  /** A file the process's stdout and stderr are appended to (the participant's log); without it stdout is discarded and stderr kept as a crash tail. */
  log?: string;
  /** The process whose tree a call's CPU time is counted in (default: the spawned process; a forked worker's is its fork server: fork-server.ts). */
  cpuRoot?: number;
  /** Open descriptors the process is given after its pipes, as fd 5 on (the caller closes its own copies once it has started). */
  fds?: number[];
}

export type CallOutcome = { ok: true; answer: Answer } | { ok: false; error: string };

/**
 * One running worker process: requests on its fd 3, answers on its fd 4, stdout and stderr to the
 * command's log file (else stdout discarded and a bounded stderr tail kept). It runs in a process
 * group of its own, killed whole on a timeout, on an unreadable answer and on kill(); once killed
 * or exited it answers every call with a failure.
 * One call at a time: the caller serialises.
 */
export class WorkerProcess {
  private readonly child: ChildProcess;
  private stderr = "";
  private chunks: Buffer[] = [];
  private size = 0;
  private pending: ((o: CallOutcome) => void) | null = null;
  private what = "";
  private exit: string | null = null;
  private readonly log: string | undefined;
  /** The CPU time its calls are limited by (null where /proc does not show it). */
  private readonly cpu: ProcessTreeCpu | null;
  readonly exited: Promise<void>;

  /** `stoppedBy` answers why the sandbox's bounds stopped it (its memory limit), asked when it crashes. */
  constructor(command: Command, private readonly stoppedBy: () => string | null = () => null) {
    this.log = command.log;
    const output = command.log === undefined ? null : openSync(command.log, "a");
    try {
      this.child = spawn(command.file, command.args, {
        cwd: command.cwd,
        env: command.env,
        detached: true,
        stdio: ["ignore", output ?? "ignore", output ?? "pipe", "pipe", "pipe", ...(command.fds ?? [])],
      });
    } finally {
      if (output !== null) closeSync(output); // the child holds its own copy
    }
    this.cpu = this.child.pid === undefined ? null : ProcessTreeCpu.of(command.cpuRoot ?? this.child.pid);
    const stderr = this.child.stderr;
    stderr?.setEncoding("utf8");
    stderr?.on("data", (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL)));
    (this.child.stdio[3] as Writable).on("error", () => {}); // a dead worker's closed pipe: reported by the exit
    (this.child.stdio[4] as Readable).on("data", (chunk: Buffer) => this.onData(chunk));
    this.exited = new Promise((resolve) => {
      this.child.on("error", (e) => {
        this.exit = `could not start: ${e.message}`;
        this.settle({ ok: false, error: `the ${this.what || "worker"} run could not start: ${e.message}` });
        resolve();
      });
      this.child.on("exit", (code, signal) => {
        this.killGroup();
        this.exit ??= code === 0 ? "exited" : `exit ${code ?? signal}`;
        // The stderr tail's last bytes may still be in flight: wait for the pipes, but not for a
        // process that left the group and keeps them open.
        const grace = setTimeout(done, CLOSE_GRACE_MS);
        this.child.on("close", done);
        function done(this: void) {
          clearTimeout(grace);
          resolve();
        }
      });
    });
    void this.exited.then(() => {
      const { exitCode, signalCode } = this.child;
      this.settle({ ok: false, error: this.crashReason(exitCode, signalCode) });
    });
  }

  get alive(): boolean {
    return this.exit === null;
  }

  /**
   * Sends one request and waits for its answer, at most `timeoutSeconds` of CPU time of the
   * worker's process tree (a worker that sleeps is stopped once idle for that long, or at
   * WALL_BACKSTOP times it in wall time: call-limit.ts). An answer that comes after the limit was used up is not taken.
   */
  call(parts: Buffer[], timeoutSeconds: number, what: string): Promise<CallOutcome> {
    if (!this.alive) return Promise.resolve({ ok: false, error: `the ${what} run could not start: the worker is gone (${this.exit})` });
    this.what = what;
    return new Promise((resolve) => {
      const over: CallOutcome = { ok: false, error: `${what} did not finish within ${timeoutSeconds} s and was stopped` };
      const limit = new CallLimit(this.cpu, timeoutSeconds, () => {
        this.settle(over);
        this.kill();
      });
      this.pending = (o) => {
        const late = o.ok && !limit.within();
        limit.clear();
        if (late) this.kill();
        resolve(late ? over : o);
      };
      const requests = this.child.stdio[3] as Writable;
      // One writev for the message's parts (a frame's stream is a part per column buffer), not a write each.
      requests.cork();
      for (const part of parts) requests.write(part);
      requests.uncork();
    });
  }

  /** Kills the process group; the answer to a pending call is a failure. */
  kill(): void {
    if (this.exit === null) this.exit = "killed";
    this.killGroup();
  }

  private killGroup(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // the group is already gone
    }
  }

  private settle(o: CallOutcome): void {
    const pending = this.pending;
    this.pending = null;
    pending?.(o);
  }

  /** A broken answer fails its call and ends the worker: nothing after it can be trusted. */
  private broken(why: string): void {
    this.chunks = [];
    this.size = 0;
    this.settle({ ok: false, error: `${this.what || "the worker"}'s answer cannot be read: ${why}; the worker was stopped` });
    this.kill();
  }

  private onData(chunk: Buffer): void {
    if (!this.alive) return;
    if (this.pending === null) return this.broken("it wrote when nothing was asked");
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < 8) return;
    if (this.chunks[0].length < 8) this.chunks = [Buffer.concat(this.chunks)];
    const headerLength = this.chunks[0].readUInt32LE(0);
    const bodyLength = this.chunks[0].readUInt32LE(4);
    if (headerLength > MAX_HEADER_BYTES) return this.broken(`its header claims ${headerLength} bytes`);
    if (bodyLength > MAX_BODY_BYTES) return this.broken(`its body claims ${bodyLength} bytes, more than ${MAX_BODY_BYTES}`);
    const end = 8 + headerLength + bodyLength;
    if (this.size < end) return;
    if (this.size > end) return this.broken("it wrote more than one answer");
    const message = Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    let header: unknown;
    try {
      header = JSON.parse(message.toString("utf8", 8, 8 + headerLength));
    } catch {
      return this.broken("its header is not JSON");
    }
    if (typeof header !== "object" || header === null || typeof (header as { ok?: unknown }).ok !== "boolean") return this.broken("its header has no ok");
    const body = message.subarray(8 + headerLength);
    this.settle({ ok: true, answer: { header: header as Record<string, unknown>, body } });
  }

  private crashReason(code: number | null, signal: NodeJS.Signals | null): string {
    const what = this.what || "worker";
    if (code === 0) return `${what} ended without reporting a result (the process exited early, e.g. through os._exit)`;
    const bound = this.stoppedBy();
    if (bound !== null) return `the ${what} run was ${bound}`;
    const tail = this.log === undefined ? this.stderr : fileTail(this.log, STDERR_TAIL);
    const last = tail.trim().split("\n").pop();
    return `the ${what} run crashed: ${last || exitText(code, signal)}`;
  }
}
