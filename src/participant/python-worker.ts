import { closeSync, openSync } from "node:fs";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Frame } from "../domain/frame.js";
import { findPython } from "../data/python-interpreter.js";
import { logSafe } from "../data/python-process.js";
import type { ForkServers } from "./fork-server.js";
import { probeSandbox, type Isolation } from "./isolation.js";
import { DEFAULT_LIMITS, insideLimits, launchSandbox, workerEnv, type CpuShare, type SandboxLaunch, type SandboxLimits } from "./sandbox.js";
import { boundsMode } from "./sandbox-group.js";
import { sandboxPython } from "./sandbox-python.js";
import { decodePredictAnswer, encodeRequest } from "./wire.js";
import { makeWorkDir, removeWorkDir } from "./work-dir.js";
import { WorkerProcess, type Command } from "./worker-process.js";

export type { Isolation } from "./isolation.js";

/** A failure's `traceback` is Python's, of the participant's own frames, when its code raised. */
export type Outcome<T extends object = {}> = ({ ok: true } & T) | { ok: false; error: string; traceback?: string };

/** What the worker runs. */
export type WorkerSource =
  /** A .py file defining predict(live, benchmark=None) -> Series or one-column DataFrame indexed by id; optional fit(train); optional PARAMS dict of defaults that `params` override (an unknown key is a load error naming it and the known keys). */
  | { kind: "module"; path: string; params: Record<string, unknown> }
  /** A cloudpickled predict callable (the service's model-file contract): called with live, plus benchmark when it takes two positional parameters (see positional_parameters in worker.py). */
  | { kind: "pickle"; bytes: Uint8Array };

export interface WorkerOptions {
  source: WorkerSource;
  isolation: Isolation;
  /** name used in reasons, e.g. "agent.py" */
  label: string;
  /** CPU seconds the interpreter may use to start and load the source (default 60; call-limit.ts). */
  loadTimeoutSeconds?: number;
  /** A sandbox's bounds, each DEFAULT_LIMITS' unless given. */
  limits?: Partial<SandboxLimits>;
  /** How much of the machine the process takes (CpuShare; default "shared"). */
  share?: CpuShare;
  /** A file the participant's stdout and stderr are appended to (every launch of the process); discarded without it. */
  log?: string;
  /**
   * Fork servers that start a sandboxed worker by forking a warm interpreter instead of starting
   * a sandbox and an interpreter of its own (fork-server.ts: for one user's own files, e.g. a
   * sweep's cells). Without them, unsandboxed, or where rlimits bound a sandbox instead of a cgroup
   * (a per-user process cap would count the server against the worker), each launch starts its own.
   */
  forks?: ForkServers;
  /**
   * The train split as its parquet file, which the worker reads itself (pandas): what a
   * participant's own script does, without the split crossing the wire or being held here to fit
   * again. The file is opened here and given to the process as descriptor TRAIN_FD, read-only (so
   * the sandbox needs no path to it, which its unprivileged user may not be let through). fit's
   * frame is then the served split's shape only (its columns, left unread): the worker reads those
   * columns' rows from the file.
   */
  trainFile?: TrainFile;
  /**
   * Whether a sandboxed launch waits for probeSandbox() to answer first (default true): false for
   * a start that answers the probe itself (local-worker.ts), which is still launched in the sandbox
   * and fails, never runs unsandboxed, where there is none.
   */
  awaitProbe?: boolean;
}

/**
 * A train split's parquet file, as the worker reads it: the file keeps `id` as its pandas index and
 * its exped labels as strings in the column `exped` (the frame's `exped`, whatever the file calls it).
 */
export interface TrainFile {
  path: string;
  exped: string;
}

export interface PythonWorker {
  /** Calls fit(train) if the module defines it (ok and a no-op otherwise; a model file, which has no fit, is never sent the frame); with a trainFile, the frame gives only the columns the worker reads from it. Remembered: if the process later dies or is killed, the next call restarts it, loads again and re-runs fit on the same frame before going on. */
  fit(train: Frame, timeoutSeconds: number): Promise<Outcome>;
  /** predict on the live frame (and benchmark frame, may be null). Returns exactly what Python returned: ids as strings in its row order, values as float64 (NaN/inf preserved), and the column name. No checking of ids or ranges here: callers do that. */
  predict(live: Frame, benchmark: Frame | null, timeoutSeconds: number): Promise<Outcome<{ column: string; ids: string[]; values: Float64Array }>>;
  /** Kills the process group; idempotent. */
  close(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL("./python/worker.py", import.meta.url));
/** Where the sandbox sees the worker script and the participant's file. */
const INSIDE = { script: "/participant/worker.py", module: "/participant/strategy.py", pickle: "/participant/model.pkl" };
/** The descriptor the process reads its train file from (WorkerOptions.trainFile): the first after its request and answer pipes. */
const TRAIN_FD = 5;
const DEFAULT_LOAD_TIMEOUT_SECONDS = 60;
/**
 * Predicts a running process may be sent at once. It answers them in order, and begins the next the
 * moment it has answered one, instead of idling until its answer has been read here and the next
 * request written (a backtest asks its rounds ahead: python-strategy.ts).
 */
export const PREDICTS_AHEAD = 2;

/**
 * Starts a persistent Python worker for one strategy: the process is spawned and the source loaded
 * (a load error is the outcome). Each later call crosses as binary columns on dedicated pipes
 * (src/participant/wire.ts). Never throws, and never runs a "sandbox" worker unsandboxed.
 */
export async function startPythonWorker(opts: WorkerOptions): Promise<Outcome<{ worker: PythonWorker }>> {
  const worker = new Worker(opts);
  const started = await worker.start();
  if (!started.ok) {
    await worker.close();
    return started;
  }
  return { ok: true, worker };
}

/** A call's outcome: its answer, or why not (`unbegun`: the process ended before it began the call: WorkerProcess). */
type Called = { ok: true; answer: { header: Record<string, unknown>; body: Buffer } } | { ok: false; error: string; traceback?: string; unbegun?: true };

/** One launch of the process: it, its directory, and how to take paths out of its reasons. */
interface Run {
  process: WorkerProcess;
  clean: (reason: string) => string;
  removed: Promise<void>;
}

class Worker implements PythonWorker {
  private run: Run | null = null;
  private fitted: { train: Frame; timeoutSeconds: number } | null = null;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Calls queued or running (serial). */
  private inFlight = 0;
  /** Of those, the predicts written to the process at once (PREDICTS_AHEAD), not yet answered. */
  private writtenAhead = 0;

  constructor(private readonly opts: WorkerOptions) {}

  start(): Promise<Outcome> {
    return this.serial(() => this.ensureRunning());
  }

  fit(train: Frame, timeoutSeconds: number): Promise<Outcome> {
    return this.serial(async () => {
      const up = await this.ensureRunning();
      if (!up.ok || this.opts.source.kind === "pickle") return up;
      const done = await this.call(this.fitRequest(train), timeoutSeconds, "fit");
      if (done.ok) this.fitted = { train, timeoutSeconds };
      return done.ok ? { ok: true } : done;
    });
  }

  /**
   * A running process is asked at once, in this turn, also behind predicts it has not answered yet
   * (up to PREDICTS_AHEAD): the request is then written before the caller goes on (a backtest's
   * next rounds, asked ahead while this one settles). Anything else waits its turn.
   */
  predict(live: Frame, benchmark: Frame | null, timeoutSeconds: number): Promise<Outcome<{ column: string; ids: string[]; values: Float64Array }>> {
    const send = () => this.call(encodeRequest({ op: "predict" }, [live, benchmark]), timeoutSeconds, "predict");
    const ask = async () => {
      const up = this.running() ? { ok: true as const } : await this.ensureRunning();
      return up.ok ? this.predicted(await send()) : up;
    };
    if (!this.running() || this.inFlight !== this.writtenAhead || this.writtenAhead >= PREDICTS_AHEAD) return this.serial(ask);
    this.writtenAhead++;
    const sent = send();
    return this.track(
      sent.then((done) => {
        this.writtenAhead--;
        // A call before it ended the process first: nothing of it ran; it is asked as it would have been, on a process started again.
        return !done.ok && done.unbegun ? ask() : this.predicted(done);
      }),
    );
  }

  /** A predict's answer, read; one that cannot be read stops the process. */
  private predicted(done: Called): Outcome<{ column: string; ids: string[]; values: Float64Array }> {
    if (!done.ok) return done;
    const read = decodePredictAnswer(done.answer);
    if (read.ok) return read;
    this.run?.process.kill();
    return { ok: false, error: `predict's answer cannot be read: ${read.error}; the worker was stopped` };
  }

  close(): Promise<void> {
    this.closed = true;
    return this.stop();
  }

  private async stop(): Promise<void> {
    const run = this.run;
    this.run = null;
    if (!run) return;
    run.process.kill();
    await run.removed;
  }

  /**
   * Calls run one after another (save predicts written ahead: predict), as a worker answers one
   * request at a time. A call made while none is in flight starts at once, in the caller's turn,
   * rather than a microtask later: in between, the caller's own work (a round's settlement) would
   * run first and hold the request back.
   */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.track(this.inFlight === 0 ? fn() : this.queue.then(fn));
  }

  /** Counts a call in flight until it ends; later serial calls wait for it. */
  private track<T>(call: Promise<T>): Promise<T> {
    this.inFlight++;
    const ended = call.then(
      () => void this.inFlight--,
      () => void this.inFlight--,
    );
    this.queue = Promise.all([this.queue, ended]);
    return call;
  }

  /** Whether the process is up with its source loaded (ensureRunning has nothing to do). */
  private running(): boolean {
    return !this.closed && this.run?.process.alive === true;
  }

  /** A live process with the source loaded and, when fit ran before, fitted again. */
  private async ensureRunning(): Promise<Outcome> {
    if (this.closed) return { ok: false, error: `the worker for ${this.opts.label} is closed` };
    if (this.running()) return { ok: true };
    await this.stop();
    const launched = await this.launch();
    if (!launched.ok) return launched;
    this.run = launched.run;
    const loadSeconds = this.opts.loadTimeoutSeconds ?? DEFAULT_LOAD_TIMEOUT_SECONDS;
    const source = this.opts.source;
    const load = source.kind === "module" ? { kind: "module", path: launched.path, params: source.params } : { kind: "pickle", path: launched.path };
    const loaded = await this.call(encodeRequest({ op: "load", ...load }), loadSeconds, "load");
    const refit = !loaded.ok || this.fitted === null ? loaded : await this.call(this.fitRequest(this.fitted.train), this.fitted.timeoutSeconds, "fit");
    if (refit.ok) return { ok: true };
    await this.stop(); // a process without its source (or its fit) must not answer the next call
    if (!loaded.ok) return loaded;
    return { ...refit, error: `the worker was restarted and fit again, which failed: ${refit.error}` };
  }

  /** A fit request: the frame, or with a train file, its columns for the worker to read from the file. */
  private fitRequest(train: Frame): Buffer[] {
    const { trainFile } = this.opts;
    if (!trainFile) return encodeRequest({ op: "fit" }, [train]);
    return encodeRequest({ op: "fit", train_file: { fd: TRAIN_FD, exped: trainFile.exped, columns: Object.keys(train.columns) } });
  }

  /** One request to the running process; a refusal from Python is a failure with its (cleaned) reason. */
  private async call(parts: Buffer[], timeoutSeconds: number, what: string): Promise<Called> {
    const run = this.run as Run;
    const done = await run.process.call(parts, timeoutSeconds, what);
    if (!done.ok) return { ok: false, error: run.clean(done.error), ...(done.unbegun ? { unbegun: true as const } : {}) };
    if (done.answer.header.ok) return { ok: true, answer: done.answer };
    const { error, traceback } = done.answer.header;
    if (typeof error === "string") return { ok: false, error: run.clean(error), ...(typeof traceback === "string" ? { traceback: run.clean(traceback) } : {}) };
    run.process.kill();
    return { ok: false, error: `${what}'s answer cannot be read: its header has no reason; the worker was stopped` };
  }

  /** Spawns the process in a fresh directory, removed once the process is gone. */
  private async launch(): Promise<Outcome<{ run: Run; path: string }>> {
    const { isolation, source, label } = this.opts;
    if (isolation === "sandbox" && this.opts.awaitProbe !== false) {
      const sandbox = await probeSandbox();
      if (!sandbox.ok) return { ok: false, error: sandbox.reason };
    }
    const limits = { ...DEFAULT_LIMITS, ...this.opts.limits };
    // A forked worker's sandbox binds no train file: one that reads its own starts a sandbox of its own.
    const forking = isolation === "sandbox" && this.opts.forks !== undefined && !this.opts.trainFile && boundsMode().kind === "cgroup";
    // Its directory and files are made while the interpreter is inspected, not after.
    const preparing = forking ? null : this.prepare(limits);
    const sandboxed = isolation === "sandbox" ? await sandboxPython() : null;
    const python = sandboxed ?? (await findPython());
    if (!python.ok) {
      const prepared = await preparing;
      if (prepared?.ok) await removeWorkDir(prepared.dir);
      return python;
    }
    if (preparing === null) return this.forked(this.opts.forks as ForkServers, limits);
    const prepared = await preparing;
    if (!prepared.ok) return prepared;
    const { dir, scratch, files } = prepared;
    let path: string;
    let command: Command;
    let sandbox: SandboxLaunch | null = null;
    if (sandboxed?.ok) {
      path = source.kind === "pickle" ? INSIDE.pickle : INSIDE.module;
      const args = ["-B", INSIDE.script, JSON.stringify(insideLimits(limits))];
      const started = launchSandbox({ python: sandboxed, scratch, files, args, keep: this.opts.trainFile ? TRAIN_FD + 1 : TRAIN_FD, share: this.opts.share }, limits);
      if (!started.ok) {
        await removeWorkDir(dir);
        return started;
      }
      sandbox = started.launch;
      command = { ...sandbox.command, log: this.opts.log };
    } else {
      path = source.kind === "pickle" ? join(dir, "model.pkl") : resolve(source.path);
      command = { file: python.path, args: ["-B", SCRIPT, "{}"], env: { ...process.env, ...workerEnv(this.opts.share ?? "shared"), TMPDIR: scratch }, cwd: scratch, log: this.opts.log };
    }
    let trainFd: number | null = null;
    let child: WorkerProcess;
    try {
      if (this.opts.trainFile) trainFd = openSync(resolve(this.opts.trainFile.path), "r");
      child = new WorkerProcess(trainFd === null ? command : { ...command, fds: [trainFd] }, sandbox?.stoppedBy);
    } catch (e) {
      await sandbox?.release();
      await removeWorkDir(dir);
      const what = trainFd === null && this.opts.trainFile ? `the train file ${this.opts.trainFile.path}` : `the log file ${this.opts.log}`;
      return { ok: false, error: `${what} cannot be opened: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    } finally {
      if (trainFd !== null) closeSync(trainFd); // the process holds its own copy
    }
    const launched = sandbox;
    const removed = child.exited.then(async () => {
      await launched?.release();
      await removeWorkDir(dir);
    });
    const inside = path;
    const clean = (reason: string) => logSafe(reason.replaceAll(inside, label), dir);
    return { ok: true, run: { process: child, clean, removed }, path };
  }

  /** The process's fresh directory, with the files it reads there: the source's (a sandbox's own copy) and, in a sandbox, the worker script. */
  private async prepare(limits: SandboxLimits): Promise<Outcome<{ dir: string; scratch: string; files: Record<string, string> }>> {
    const { isolation, source, label } = this.opts;
    let made: { dir: string; scratch: string };
    try {
      made = await makeWorkDir(limits.scratch_bytes);
    } catch (e) {
      return { ok: false, error: `the worker's directory cannot be made: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    const { dir, scratch } = made;
    const files: Record<string, string> = {};
    try {
      if (source.kind === "pickle") {
        await writeFile(join(dir, "model.pkl"), source.bytes);
        files[INSIDE.pickle] = join(dir, "model.pkl");
      } else {
        const text = await readFile(source.path);
        if (isolation === "sandbox") await writeFile(join(dir, "strategy.py"), text);
        files[INSIDE.module] = join(dir, "strategy.py");
      }
      if (isolation === "sandbox") {
        await copyFile(SCRIPT, join(dir, "worker.py"));
        files[INSIDE.script] = join(dir, "worker.py");
      }
    } catch (e) {
      await removeWorkDir(dir);
      const what = source.kind === "module" ? `the strategy ${label} cannot be read` : "the model file cannot be written";
      return { ok: false, error: logSafe(`${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, dir) };
    }
    return { ok: true, dir, scratch, files };
  }

  /** Forks the process from a fork server: the same sandbox, paths and bounds as a launch of its own. */
  private async forked(forks: ForkServers, limits: SandboxLimits): Promise<Outcome<{ run: Run; path: string }>> {
    const { source, label } = this.opts;
    let bytes: Uint8Array;
    try {
      bytes = source.kind === "pickle" ? source.bytes : await readFile(source.path);
    } catch (e) {
      return { ok: false, error: `the strategy ${label} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    const name = source.kind === "pickle" ? "model.pkl" : "strategy.py";
    const started = await forks.launch({ name, bytes }, [JSON.stringify(insideLimits(limits))], limits, this.opts.share ?? "shared", this.opts.log);
    if (!started.ok) return started;
    const { launch } = started;
    let child: WorkerProcess;
    try {
      child = new WorkerProcess(launch.command, launch.stoppedBy);
    } catch (e) {
      await launch.release();
      return { ok: false, error: `the log file ${this.opts.log} cannot be opened: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    const removed = child.exited.then(() => launch.release());
    const clean = (reason: string) => reason.replaceAll(launch.path, label);
    return { ok: true, run: { process: child, clean, removed }, path: launch.path };
  }
}
