import { refuse, type ServiceError } from "../domain/errors.js";
import type { EventSettings } from "../service/kernel/deployment.js";
import type { BodySource } from "./request-body.js";

/** The pace an upload's body must keep: at least `minBytes` (and at least one byte) in every `windowMs` of wall-clock time. */
export interface BodyPace {
  windowMs: number;
  minBytes: number;
}

/** An event's body pace: `intake_min_bytes_per_second` over every `intake_stall_seconds`. */
export function bodyPace(event: EventSettings): BodyPace {
  return {
    windowMs: event.intake_stall_seconds * 1000,
    minBytes: Math.max(1, Math.ceil(event.intake_min_bytes_per_second * event.intake_stall_seconds)),
  };
}

/**
 * A request body watched for pace as it streams: a window of wall-clock time that brings fewer
 * bytes than the pace asks (a stalled body brings none, a trickling one too few) ends the body
 * with the 408 `upload_body_too_slow` refusal, so whatever is reading it stops at once, and calls
 * `onStall`. The watch ends when the body does, or at `stop()`.
 *
 * The windows are timed by the event loop's timers, not by the service's Clock: how long a socket
 * takes to deliver bytes is a transport matter of the HTTP face, measured in real time even when
 * the simulated clock stands still (the one other place real time is read is the realtime clock).
 */
export class PacedBody {
  readonly body: BodySource;
  private arrived = 0;
  private tripped = false;
  private done = false;
  private readonly timer: NodeJS.Timeout;
  /** Ends the read waiting on the source, if one is, with the refusal (set while a read is under way). */
  private abandon: ((e: ServiceError) => void) | null = null;

  constructor(
    source: BodySource,
    private readonly pace: BodyPace,
    private readonly onStall: () => void,
  ) {
    this.body = { [Symbol.asyncIterator]: () => this.read(source) };
    // Judged after the event loop's next poll, so bytes that came while the loop was busy count.
    this.timer = setInterval(() => setImmediate(() => this.judge()), pace.windowMs);
    this.timer.unref();
  }

  /**
   * The source's chunks, counted. A reader that stops early gives the source back (a Node request
   * is then destroyed, as a cancelled stream would be); a body that stalled is left as it is, so
   * the 408 can still be written on its connection.
   */
  private async *read(source: BodySource): AsyncGenerator<Uint8Array> {
    const chunks = source[Symbol.asyncIterator]();
    let ended = false;
    try {
      for (;;) {
        let step: IteratorResult<Uint8Array>;
        try {
          step = await this.next(chunks);
        } catch (e) {
          ended = true;
          throw e;
        } finally {
          this.abandon = null;
        }
        if (step.done) {
          ended = true;
          return;
        }
        this.arrived += step.value.byteLength;
        yield step.value;
      }
    } finally {
      this.stop();
      if (!ended) await chunks.return?.();
    }
  }

  /**
   * The source's next chunk, or the refusal as soon as the body stalls. (Not a race against one
   * promise that lives as long as the body: each race would leave it a reaction holding its chunk,
   * and a large body would be kept whole in memory.)
   */
  private next(chunks: AsyncIterator<Uint8Array>): Promise<IteratorResult<Uint8Array>> {
    if (this.tripped) return Promise.reject(this.refusal);
    return new Promise((resolve, reject) => {
      this.abandon = reject;
      chunks.next().then(resolve, reject);
    });
  }

  /** The end of a window: a new one if enough arrived, else the body is dropped. */
  private judge(): void {
    if (this.done) return;
    if (this.arrived >= this.pace.minBytes) {
      this.arrived = 0;
      return;
    }
    this.tripped = true;
    this.stop();
    this.abandon?.(this.refusal);
    this.onStall();
  }

  /** The 408 a body that fell below the pace is ended with; made only then (an error's stack is not free, and most bodies keep the pace). */
  get refusal(): ServiceError {
    const seconds = this.pace.windowMs / 1000;
    return refuse("upload_body_too_slow", { min_bytes: this.pace.minBytes, seconds }, { extra: { min_bytes: this.pace.minBytes, seconds } });
  }

  /** Whether the body fell below the pace and was ended with the refusal. */
  get stalled(): boolean {
    return this.tripped;
  }

  /** Ends the watch (the body was read, or the request is done). */
  stop(): void {
    this.done = true;
    clearInterval(this.timer);
  }
}
