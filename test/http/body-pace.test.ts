import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ServiceError } from "../../src/domain/errors.js";
import { PacedBody } from "../../src/http/body-pace.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The windows are wall-clock time (setInterval) and the sources send on setTimeout: both faked, so
// a window holds exactly what the test sent in it however busy the machine is. (The judging at a
// window's end, after the event loop's next poll, keeps its real setImmediate.)
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A source that sends `chunks` (byte counts) one every `everyMs`, then ends (or, `hang`, never does). */
function source(chunks: number[], everyMs: number, hang = false): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i === chunks.length) {
        if (hang) await new Promise(() => undefined);
        controller.close();
        return;
      }
      await sleep(everyMs);
      controller.enqueue(new Uint8Array(chunks[i++]).fill(i));
    },
  });
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const chunk of body) n += chunk.byteLength;
  return n;
}

describe("PacedBody", () => {
  it("passes a body that keeps the pace through whole, over several windows", async () => {
    let stalls = 0;
    const paced = new PacedBody(source(Array(30).fill(40), 10), { windowMs: 100, minBytes: 30 }, () => stalls++);
    const read = readAll(paced.body);
    await vi.advanceTimersByTimeAsync(300);
    expect(await read).toBe(1200);
    await vi.advanceTimersByTimeAsync(220);
    expect({ stalled: paced.stalled, stalls }).toEqual({ stalled: false, stalls: 0 });
  });

  it("ends a body that stalls after its first bytes with the 408 refusal, and reports the stall once", async () => {
    let stalls = 0;
    const paced = new PacedBody(source([40], 5, true), { windowMs: 50, minBytes: 30 }, () => stalls++);
    const reading = readAll(paced.body).catch((e: unknown) => e);
    // The first window holds the 40 bytes; the second none.
    await vi.advanceTimersByTimeAsync(100);
    const read = await reading;
    expect(read).toBeInstanceOf(ServiceError);
    expect((read as ServiceError).detail).toMatchObject({ code: "upload_body_too_slow", min_bytes: 30, seconds: 0.05 });
    await vi.advanceTimersByTimeAsync(120);
    expect({ stalled: paced.stalled, stalls }).toEqual({ stalled: true, stalls: 1 });
  });

  it("keeps no chunk once it is read: a large body is never held whole", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const sent: WeakRef<Uint8Array>[] = [];
    async function* large() {
      for (let i = 0; i < 40; i++) {
        const chunk = new Uint8Array(1024 * 1024).fill(i);
        sent.push(new WeakRef(chunk));
        yield chunk;
      }
    }
    const paced = new PacedBody(large(), { windowMs: 1000, minBytes: 1 }, () => undefined);
    expect(await readAll(paced.body)).toBe(40 * 1024 * 1024);
    await new Promise((r) => setImmediate(r));
    gc();
    expect(sent.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(2);
    paced.stop();
  });

  it("ends a trickle that brings bytes every window, but fewer than the pace asks", async () => {
    const paced = new PacedBody(source(Array(20).fill(1), 10), { windowMs: 50, minBytes: 30 }, () => undefined);
    const read = expect(readAll(paced.body)).rejects.toBeInstanceOf(ServiceError);
    // 5 of the 30 bytes the first window asks.
    await vi.advanceTimersByTimeAsync(50);
    await read;
    expect(paced.stalled).toBe(true);
  });
});
