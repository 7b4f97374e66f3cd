import { once } from "node:events";
import type { Worker } from "node:worker_threads";
import { refuse, type ServiceError } from "../../domain/errors.js";
import { startWorker, workerModule } from "../../scoring/workers.js";
import type { PreparedExped } from "../../scoring/exped.js";
import { useTruth } from "./kept-truths.js";
import { refusalData, type CheckedFiles, type FileRules, type UploadFiles } from "./upload-files.js";

interface Task {
  id: number;
  files: UploadFiles;
  rules: FileRules;
  /** The files' bytes: the queue serves the smallest first. */
  size: number;
  resolve: (result: CheckedFiles) => void;
  reject: (e: Error) => void;
}

interface Slot {
  thread: Worker;
  ready: boolean;
  /**
   * The tasks sent to the thread and not yet answered, in the order sent (the thread checks them
   * in that order): the first is being checked, the others wait in the thread's own queue.
   */
  tasks: Task[];
  /** The first task's deadline: past it the thread is terminated and that task refused. */
  deadline: NodeJS.Timeout | null;
  /** The truths (by number) this thread holds, as `useTruth` keeps them on its side. */
  truths: Map<number, true>;
  /** The thread took a large file, and so lowered its CPU priority for the rest of its life. */
  yielded: boolean;
}

/** A task as a thread receives it: the truth to score against by number, and its expeds only when the thread does not hold them yet. */
export interface CheckMessage {
  id: number;
  files: UploadFiles;
  rules: FileRules;
  truth: number | null;
  large: boolean;
}

const WORKER_MODULE = workerModule("upload-check-worker", import.meta.url);

/** Files above this many bytes are large: while a large one is checked, a thread is kept for the small. */
const LARGE_CHECK_BYTES = 1024 * 1024;

/**
 * Small uploads a thread may hold at once. A thread given one task at a time sits idle from each
 * answer until the thread that answers requests has read it and sent the next, and that thread is
 * busy: at 20 agents submitting, small uploads waited tens of milliseconds in the pool's queue
 * while their thread had CPU to spare. A few sent ahead are checked back to back; a few, so that
 * one slow small file holds up little behind it.
 */
const SMALL_TASKS_AHEAD = 8;

/**
 * The longest one upload's files may take to check. Files within the upload bounds take a second
 * or two (tens on a machine whose cores are all busy); a decoder still busy after this is spinning
 * on something the checks before it did not foresee, and is terminated (its WebAssembly memory with it).
 */
export const UPLOAD_CHECK_SECONDS = 60;

/**
 * A bounded pool of worker threads that check uploads' files (src/service/event/upload-files.ts)
 * away from the service's serial path and from the thread that answers requests. At most `size`
 * threads, each with a heap of `memoryMb`; tasks wait in a queue (its length is bounded by the
 * lanes' intake slots) and the smallest waiting task goes first; large tasks (over
 * LARGE_CHECK_BYTES) never take the last thread, so a practice upload of a few kilobytes never
 * waits behind a batch of large files, and at most `size - 1` large files are in memory at once.
 * A small upload never takes a thread that lowered its priority while another thread kept it.
 * A thread takes one task at a time, but the one kept for small uploads takes up to
 * SMALL_TASKS_AHEAD, which it checks in turn; a task sent behind another is copied (not moved),
 * so that, should the thread end before it (a deadline, a refused parquet file), it is checked on another.
 * A task whose thread runs out of memory or time (`deadlineSeconds`) is
 * that upload's refusal (413 naming the limit), and the thread is replaced; so is a thread whose
 * WebAssembly memory grew large, one whose check threw, and one that refused a parquet file (its
 * decoder may have failed midway: no WebAssembly instance is used again after a failed decode). A thread that takes a large file lowers its own CPU priority for
 * the rest of its life, so the thread that answers requests goes first when both cores are busy;
 * small uploads take the last idle thread first, which (in a pool of two or more) never takes a
 * large file and so keeps its priority. Idle threads do not keep the process alive.
 */
export class UploadCheckPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 0;
  /** A number per truth (a lane's prepared expeds, the same array while it stands). */
  private readonly truthNumbers = new WeakMap<readonly PreparedExped[], number>();
  private nextTruth = 0;
  private sent = 0;
  private threads = 0;

  constructor(
    private readonly size: number,
    private readonly memoryMb: number,
    private readonly deadlineSeconds = UPLOAD_CHECK_SECONDS,
  ) {}

  /** How many times a truth's expeds were sent to a thread: once per thread and truth while it keeps them. */
  get truthsSent(): number {
    return this.sent;
  }

  /** Threads started so far: a thread replaced after a failed check is a new one. */
  get started(): number {
    return this.threads;
  }

  /** Threads checking a task now. */
  get busy(): number {
    return this.slots.filter((s) => s.tasks.length > 0).length;
  }

  /** Tasks waiting for a thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Starts every thread the pool may have and resolves once each can take a task (otherwise threads start as uploads need them). */
  async ready(): Promise<void> {
    while (this.slots.length < this.size) this.start();
    await Promise.all(this.slots.filter((s) => !s.ready).map((s) => once(s.thread, "message")));
  }

  check(files: UploadFiles, rules: FileRules): Promise<CheckedFiles> {
    const size = (files.model_pkl?.bytes.length ?? 0) + (files.predictions?.bytes.length ?? 0);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, files, rules, size, resolve, reject });
      this.pump();
    });
  }

  /**
   * The smallest waiting task that has a thread it may take goes first (a small upload waiting for
   * its thread does not hold up a large file whose thread is idle); a thread is started while a
   * task waits and there are fewer than `size`.
   */
  private pump(): void {
    const waiting = [...this.queue].sort((a, b) => a.size - b.size);
    for (let i = 0; i < waiting.length; ) {
      const slot = this.threadFor(waiting[i]);
      if (!slot) {
        i++;
        continue;
      }
      const task = waiting.splice(i, 1)[0];
      this.queue.splice(this.queue.indexOf(task), 1);
      this.send(slot, task);
      i = 0; // from the smallest again: a large file's thread now yields, which can free any thread for a small upload
    }
    if (this.queue.length > 0 && this.slots.length < this.size) this.start();
  }

  /**
   * The thread the task may take now: an idle one, the last first (the last never takes a large
   * file, so it keeps its priority); a small upload may also queue on the thread kept for small
   * uploads, up to SMALL_TASKS_AHEAD (only there: a thread a large file may take is left to drain).
   * The one holding the fewest tasks goes first.
   */
  private threadFor(task: Task): Slot | undefined {
    const small = task.size <= LARGE_CHECK_BYTES;
    const open = this.threadsFor(task).filter((s) => s.ready && (s.tasks.length === 0 || (small && this.keptForSmall(s) && s.tasks.length < SMALL_TASKS_AHEAD)));
    return open.reverse().reduce<Slot | undefined>((best, s) => (best === undefined || s.tasks.length < best.tasks.length ? s : best), undefined);
  }

  /** The thread no large file takes: the last of a pool of two or more. */
  private keptForSmall(slot: Slot): boolean {
    return this.size > 1 && this.slots.indexOf(slot) === this.size - 1;
  }

  /**
   * A large file may take any thread but the last, which is kept for small uploads (and so never
   * holds a large file's garbage). A small upload never takes a thread that lowered its priority
   * for a large file while the pool has one that did not: on a busy machine it would wait there
   * behind every other runnable thread (seconds at the 99th percentile, at 20 looping agents).
   */
  private threadsFor(task: Task): Slot[] {
    if (task.size > LARGE_CHECK_BYTES) return this.size > 1 ? this.slots.slice(0, this.size - 1) : this.slots;
    const keptPriority = this.slots.filter((s) => !s.yielded);
    return keptPriority.length > 0 ? keptPriority : this.slots;
  }

  /**
   * A lane's truth is cloned into a thread once, not with every upload (for a real validation
   * split, megabytes of ids and columns copied on the thread that answers requests).
   */
  private send(slot: Slot, task: Task): void {
    const { score_against, ...rules } = task.rules;
    const truth = score_against ? this.truthNumber(score_against) : null;
    const fresh = truth !== null && !slot.truths.has(truth);
    const message: CheckMessage = { id: task.id, files: task.files, rules: fresh ? task.rules : rules, truth, large: task.size > LARGE_CHECK_BYTES };
    try {
      // Behind another task the bytes are copied: they may yet have to go to another thread.
      slot.thread.postMessage(message, slot.tasks.length === 0 ? movedMemory(task.files) : []);
    } catch (e) {
      // Nothing was sent (bytes that cannot be cloned or moved): the task fails, the thread stays idle.
      task.reject(e as Error);
      return;
    }
    if (truth !== null) useTruth(slot.truths, truth, true);
    if (fresh) this.sent++;
    if (message.large) slot.yielded = true;
    slot.tasks.push(task);
    if (slot.tasks.length === 1) this.startClock(slot);
    slot.thread.ref();
  }

  /** The deadline of the slot's first task, which the thread is checking from now on. */
  private startClock(slot: Slot): void {
    slot.deadline = setTimeout(() => this.overtime(slot), this.deadlineSeconds * 1000);
  }

  /** The slot's first task took longer than the deadline: refused, and its thread terminated (never to be used again). */
  private overtime(slot: Slot): void {
    const task = this.finish(slot);
    this.retire(slot);
    task?.resolve(this.refused(task, refuse("upload_check_time", { limit: this.deadlineSeconds }, { extra: { limit_seconds: this.deadlineSeconds } })));
    this.pump();
  }

  /** The slot's first task, taken off it with its deadline; the next one's deadline starts. */
  private finish(slot: Slot): Task | null {
    const task = slot.tasks.shift() ?? null;
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    if (slot.tasks.length > 0) this.startClock(slot);
    return task;
  }

  private truthNumber(expeds: readonly PreparedExped[]): number {
    let n = this.truthNumbers.get(expeds);
    if (n === undefined) this.truthNumbers.set(expeds, (n = this.nextTruth++));
    return n;
  }

  private start(): void {
    const { thread } = startWorker(WORKER_MODULE, null, { maxOldGenerationSizeMb: this.memoryMb });
    const slot: Slot = { thread, ready: false, tasks: [], deadline: null, truths: new Map(), yielded: false };
    this.threads++;
    this.slots.push(slot);
    thread.unref();
    thread.on("message", (msg: { ready?: true; id?: number; result?: CheckedFiles; error?: string; recycle?: boolean }) => {
      if (msg.ready) {
        slot.ready = true;
        return this.pump();
      }
      // A thread terminated at its deadline may still deliver what it posted before: its task is answered already.
      const task = this.finish(slot);
      if (!task) return;
      if (slot.tasks.length === 0) thread.unref();
      if (msg.error !== undefined) task.reject(new Error(`upload check failed: ${msg.error}`));
      else task.resolve(msg.result as CheckedFiles);
      if (msg.recycle || msg.error !== undefined) this.retire(slot);
      this.pump();
    });
    thread.on("error", (e: Error & { code?: string }) => {
      const task = this.finish(slot);
      this.retire(slot);
      if (task && e.code === "ERR_WORKER_OUT_OF_MEMORY") {
        task.resolve(this.refused(task, refuse("upload_check_memory", { limit: this.memoryMb }, { extra: { limit_mb: this.memoryMb } })));
      }
      else if (task) task.reject(e);
      this.pump();
    });
    thread.on("exit", () => {
      const task = this.finish(slot);
      this.retire(slot);
      task?.reject(new Error("the upload check worker exited"));
      this.pump();
    });
  }

  /**
   * Ends a thread; the tasks it held behind its first go back to the queue (their bytes were
   * copied to it). One that had started is replaced at once, so the next upload (after a refused
   * one, often) does not wait for a thread to load; one that never started is not, lest a thread
   * that cannot start be started again and again.
   */
  private retire(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    this.queue.push(...slot.tasks.splice(0));
    void slot.thread.terminate();
    if (slot.ready && this.slots.length < this.size) this.start();
  }

  /** The refusal of a task whose thread ran out of heap or time: on each part it carries. */
  private refused(task: Task, e: ServiceError): CheckedFiles {
    const refused = { ok: false as const, refusal: refusalData(e) };
    return { model_file: refused, predictions: task.files.predictions ? refused : null };
  }
}

/**
 * The predictions file's memory when its part is movable and its bytes span the whole of it; else
 * nothing moves. Never an empty buffer: one already moved elsewhere (detached) would be dropped
 * with its message without a word, where cloning it fails at once.
 */
function movedMemory(files: UploadFiles): ArrayBuffer[] {
  const part = files.predictions;
  if (!part?.movable) return [];
  const { buffer, byteOffset, byteLength } = part.bytes;
  return buffer instanceof ArrayBuffer && byteLength > 0 && byteOffset === 0 && byteLength === buffer.byteLength ? [buffer] : [];
}

const pools = new Map<string, UploadCheckPool>();

/** The process's pool of this size and memory limit (servers and replays in one process share it). */
export function uploadCheckPool(size: number, memoryMb: number): UploadCheckPool {
  const key = `${size}/${memoryMb}`;
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = new UploadCheckPool(size, memoryMb)));
  return pool;
}
