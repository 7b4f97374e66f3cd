import { describe, expect, it, vi } from "vitest";
import { ANN, BEN, ROUND_UPLOAD, csvUpload, eventServer, newModel, placesTaken, postForm, splitIds, spread, toPhase } from "./event-server.js";
import { encoded, rawUpload, type RawAnswer, type RawUpload } from "./raw-upload.js";
import type { TestServer } from "./server.js";

const SATURATED = { code: "lane_saturated", message: "Upload lane saturated; retry after 5 seconds." };

/** A server in round 1 with a model for ann and one for ben, and round 1's live ids. */
async function inRound(event: Record<string, unknown>): Promise<{ s: TestServer; live: string[]; ann: string; ben: string }> {
  const s = await eventServer(event);
  await toPhase(s, "round_1");
  const live = await splitIds(s, ANN, "live");
  return { s, live, ann: await newModel(s, ANN, "a"), ben: await newModel(s, BEN, "b") };
}

/** Resolves once `n` of `uploads` have an answer (or a close). */
function answered(uploads: RawUpload[], n: number): Promise<void> {
  let count = 0;
  return new Promise((resolve) => {
    for (const u of uploads) void u.answer.then(() => ++count === n && resolve());
  });
}

/**
 * The windows of wall-clock time a body's pace is judged by (src/http/body-pace.ts), and the
 * trickling clients' sends, run on `setInterval`: faked, so a window ends when the test says and
 * not when a loaded machine gets round to it. Everything else keeps real time.
 */
function paceWindowsByHand(): void {
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
}

function expectTooSlow(a: RawAnswer, minBytes: number, seconds: number): void {
  expect(a.status).toBe(408);
  expect(a.headers.connection).toBe("close");
  expect(a.json.detail).toEqual({
    code: "upload_body_too_slow",
    message: `Upload body too slow: fewer than ${minBytes} bytes arrived in ${seconds} s; the upload was dropped.`,
    min_bytes: minBytes,
    seconds,
  });
}

describe("fair intake: places per agent, taken after authentication, given back by a body that stalls", () => {
  it("one agent trickling 4 uploads at 1 byte/s holds its one place: its extras get 503, another agent's upload is accepted, and the trickle is dropped with 408 after the stall limit", async () => {
    const { s, live, ann, ben } = await inRound({ intake_concurrency: 2, intake_per_agent: 1, intake_stall_seconds: 2, intake_min_bytes_per_second: 16 });
    const body = await encoded(csvUpload(ann, live, spread(live, 3)));
    paceWindowsByHand();
    const trickles = Array.from({ length: 4 }, () => rawUpload(s.url, ROUND_UPLOAD, ANN, body, { perSecond: 1 }));
    try {
      await answered(trickles, 3);
      const holder = trickles.find((t) => !t.settled) as RawUpload;
      const extras = await Promise.all(trickles.filter((t) => t !== holder).map((t) => t.answer));
      for (const a of extras) {
        expect({ status: a.status, code: a.json.detail.code, message: a.json.detail.message }).toEqual({ status: 503, ...SATURATED });
        expect(a.headers["retry-after"]).toBe("5");
      }

      // ann holds one of the lane's two places; ben's upload takes the other.
      const other = await postForm(s, ROUND_UPLOAD, BEN, csvUpload(ben, live, spread(live, 5)));
      expect(other.status).toBe(202);
      expect(holder.settled).toBe(false);

      // One stall window: the holder's trickle brings 2 of the 32 bytes it asks.
      vi.advanceTimersByTime(2000);
      expectTooSlow(await holder.answer, 32, 2);
      await holder.closed;
      // Its place came back: ann's share is free again.
      expect((await postForm(s, ROUND_UPLOAD, ANN, csvUpload(ann, live, spread(live, 7)))).status).toBe(202);
    } finally {
      for (const t of trickles) t.destroy();
      vi.useRealTimers();
    }
  });

  it("drops every stalled or trickling body of a full lane after the stall limit, and the lane serves the others again", async () => {
    const { s, live, ann, ben } = await inRound({ intake_concurrency: 4, intake_per_agent: 4, intake_stall_seconds: 2, intake_min_bytes_per_second: 64 });
    const body = await encoded(csvUpload(ann, live, spread(live, 3)));
    paceWindowsByHand();
    const taken = placesTaken(s, 4);
    const held = [
      rawUpload(s.url, ROUND_UPLOAD, ANN, body, { perSecond: 1 }),
      rawUpload(s.url, ROUND_UPLOAD, ANN, body, { perSecond: 1 }),
      rawUpload(s.url, ROUND_UPLOAD, ANN, body, { head: 100, perSecond: 0 }),
      rawUpload(s.url, ROUND_UPLOAD, ANN, body, { head: 0, perSecond: 0 }),
    ];
    try {
      const form = () => csvUpload(ben, live, spread(live, 5));
      await taken;
      const full = await postForm(s, ROUND_UPLOAD, BEN, form());
      expect(full.status).toBe(503);
      expect(full.headers.get("retry-after")).toBe("5");

      vi.advanceTimersByTime(2000);
      for (const h of held) expectTooSlow(await h.answer, 128, 2);
      await Promise.all(held.map((h) => h.closed));
      expect((await postForm(s, ROUND_UPLOAD, BEN, form())).status).toBe(202);
    } finally {
      for (const h of held) h.destroy();
      vi.useRealTimers();
    }
  });

  it("a missing or unknown key is refused before its body is read and never holds a place", async () => {
    const { s, live, ann, ben } = await inRound({ intake_concurrency: 1, intake_stall_seconds: 30 });
    const body = await encoded(csvUpload(ann, live, spread(live, 3)));
    const unknown = rawUpload(s.url, ROUND_UPLOAD, "key-nobody-0000099", body, { head: 100, perSecond: 0 });
    const missing = rawUpload(s.url, ROUND_UPLOAD, undefined, body, { head: 100, perSecond: 0 });
    try {
      const [u, m] = await Promise.all([unknown.answer, missing.answer]);
      expect({ status: u.status, code: u.json.detail.code }).toEqual({ status: 401, code: "invalid_api_key" });
      expect({ status: m.status, code: m.json.detail.code }).toEqual({ status: 401, code: "missing_api_key" });
      // The lane's one place is free for ben while those bodies are still unsent.
      expect((await postForm(s, ROUND_UPLOAD, BEN, csvUpload(ben, live, spread(live, 5)))).status).toBe(202);
    } finally {
      unknown.destroy();
      missing.destroy();
    }
  });
});
