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

/**
 * A call's outcome. `unbegun`: the process ended (a call before it failed, or it was killed) before it
 * began this call, which was written behind another: nothing of it ran, and it may be asked again.
 */
export type CallOutcome = { ok: true; answer: Answer } | { ok: false; error: string; unbegun?: true };

/** A call written to the process and not yet answered. Its limit starts when the process begins it (the call before it answered). */
interface Written {
  what: string;
  timeoutSeconds: number;
  resolve: (o: CallOutcome) => void;
  limit: CallLimit | null;
}

/**
 * One running worker process: requests on its fd 3, answers on its fd 4, stdout and stderr to the
 * command's log file (else stdout discarded and a bounded stderr tail kept). It runs in a process
 * group of its own, killed whole on a timeout, on an unreadable answer and on kill(); once killed
 * or exited it answers every call with a failure.
 * The process reads its requests in order and answers each before it reads the next, so a call may
 * be written behind others (the caller bounds how many): the process then begins it the moment it
 * has answered the one before, without waiting for that answer to be read here. Each call is
 * limited from when the process begins it (call-limit.ts).
 */
export class WorkerProcess {
  private readonly child: ChildProcess;
  private stderr = "";
  private chunks: Buffer[] = [];
  private size = 0;
  /** Calls written and not yet answered, oldest first: the first is the one the process is on. */
  private readonly written: Written[] = [];
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
        this.fail({ ok: false, error: `the ${this.what || "worker"} run could not start: ${e.message}` });
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
      this.failUnbegun();
      this.fail({ ok: false, error: this.crashReason(exitCode, signalCode) });
      this.cpu?.close(); // its calls are over: nothing looks at its CPU time again
    });
  }

  get alive(): boolean {
    return this.exit === null;
  }

  /**
   * Sends one request (at once, behind any the process has not answered yet) and waits for its
   * answer, at most `timeoutSeconds` of CPU time of the worker's process tree from when the process
   * begins it (a worker that sleeps is stopped once idle for that long, or at WALL_BACKSTOP times it
   * in wall time: call-limit.ts). An answer that comes after the limit was used up is not taken.
   */
  call(parts: Buffer[], timeoutSeconds: number, what: string): Promise<CallOutcome> {
    if (!this.alive) return Promise.resolve({ ok: false, error: `the ${what} run could not start: the worker is gone (${this.exit})` });
    return new Promise((resolve) => {
      this.written.push({ what, timeoutSeconds, resolve, limit: null });
      if (this.written.length === 1) this.begin();
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
    this.failUnbegun();
  }

  private killGroup(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // the group is already gone
    }
  }

  /** The process begins the first written call: its limit starts now. */
  private begin(): void {
    const call = this.written[0];
    this.what = call.what;
    call.limit = new CallLimit(this.cpu, call.timeoutSeconds, () => this.overtime(call));
  }

  /** The current call's answer, taken if it came within its limit; the process begins the next. */
  private answered(answer: Answer): void {
    const call = this.written[0];
    const limit = call.limit as CallLimit;
    const late = !limit.within();
    limit.clear();
    if (late) return this.overtime(call);
    this.written.shift();
    call.resolve({ ok: true, answer });
    if (this.written.length > 0) this.begin();
  }

  /** The current call used up its limit: it fails, and the process is killed. */
  private overtime(call: Written): void {
    this.fail({ ok: false, error: `${call.what} did not finish within ${call.timeoutSeconds} s and was stopped` });
    this.kill();
  }

  /**
   * Fails the current call with `o`, and the calls behind it as unbegun once the process is gone
   * (one still alive is about to be killed: every caller kills it, and kill() fails them).
   */
  private fail(o: CallOutcome): void {
    const call = this.written.shift();
    call?.limit?.clear();
    call?.resolve(o);
    if (!this.alive) this.failUnbegun();
  }

  /** The calls the process had not begun fail as unbegun: it is gone. */
  private failUnbegun(): void {
    const begun = this.written[0]?.limit ? 1 : 0; // only the first can have been begun
    for (const call of this.written.splice(begun)) {
      call.resolve({ ok: false, error: `${call.what} was not begun: the worker ended first (${this.exit})`, unbegun: true });
    }
  }

  /** A broken answer fails its call and ends the worker: nothing after it can be trusted. */
  private broken(why: string): void {
    this.chunks = [];
    this.size = 0;
    this.fail({ ok: false, error: `${this.what || "the worker"}'s answer cannot be read: ${why}; the worker was stopped` });
    this.kill();
  }

  /** Reads answers off the stream: one per written call, in order; a chunk may end one and begin the next. */
  private onData(chunk: Buffer): void {
    if (!this.alive) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.written.length === 0) return this.broken("it wrote when nothing was asked");
    while (this.alive && this.size > 0) {
      if (this.size < 8) return;
      if (this.chunks[0].length < 8) this.chunks = [Buffer.concat(this.chunks)];
      const headerLength = this.chunks[0].readUInt32LE(0);
      const bodyLength = this.chunks[0].readUInt32LE(4);
      if (headerLength > MAX_HEADER_BYTES) return this.broken(`its header claims ${headerLength} bytes`);
      if (bodyLength > MAX_BODY_BYTES) return this.broken(`its body claims ${bodyLength} bytes, more than ${MAX_BODY_BYTES}`);
      const end = 8 + headerLength + bodyLength;
      if (this.size < end) return;
      const whole = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      const message = whole.subarray(0, end);
      const rest = whole.subarray(end);
      // Bytes after an answer are the next one's only if another call was written.
      if (rest.length > 0 && this.written.length < 2) return this.broken("it wrote more than one answer");
      this.chunks = rest.length > 0 ? [rest] : [];
      this.size = rest.length;
      let header: unknown;
      try {
        header = JSON.parse(message.toString("utf8", 8, 8 + headerLength));
      } catch {
        return this.broken("its header is not JSON");
      }
      if (typeof header !== "object" || header === null || typeof (header as { ok?: unknown }).ok !== "boolean") return this.broken("its header has no ok");
      this.answered({ header: header as Record<string, unknown>, body: message.subarray(8 + headerLength) });
    }
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
