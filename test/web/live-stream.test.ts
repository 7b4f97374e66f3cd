import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/commands/serve.js";
import { agentStream } from "../../src/http/live-stream.js";
import { LiveFeed } from "../../src/service/live/live-feed.js";
import { logDigest } from "../../src/store/event-log.js";
import { smallEvent } from "../helpers/small-event.js";
import { ANN, BEN, csvUpload, eventServer, newModel, postForm, PRACTICE_UPLOAD, splitIds, toPhase } from "../http/event-server.js";
import { ORGANISER, refusal, type TestServer } from "../http/server.js";

/** A live stream opened with `key`: its messages as they come, and how to close it. */
async function openStream(s: TestServer, path: string, key?: string) {
  const abort = new AbortController();
  const res = await fetch(s.url + path, { headers: key === undefined ? {} : { "X-API-Key": key }, signal: abort.signal });
  if (!res.ok) return { status: res.status, json: await res.json(), close: () => abort.abort() };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const queued: any[] = [];
  /** The next message that passes `test` (earlier ones are dropped). */
  const next = async (test: (m: any) => boolean = () => true): Promise<any> => {
    for (;;) {
      while (queued.length > 0) {
        const m = queued.shift();
        if (test(m)) return m;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended");
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith("data: ")) queued.push(JSON.parse(block.slice(6)));
      }
    }
  };
  return { status: res.status, headers: res.headers, next, close: () => abort.abort() };
}

async function practiceUpload(s: TestServer, key: string, label: string) {
  const model = await newModel(s, key, label);
  const ids = await splitIds(s, key, "validation");
  const a = await postForm(s, PRACTICE_UPLOAD, key, csvUpload(model, ids, ids.map((_, i) => i / ids.length)));
  expect(a.status).toBe(202);
  return a.json.upload_id as string;
}

describe("the web app's live streams", () => {
  it("are keyed like the API: no key, a bad key, a key in the query, a participant on the organiser's", async () => {
    const s = await eventServer();
    expect(await openStream(s, "/api/v1/live")).toMatchObject({ status: 401, json: { detail: { code: "missing_api_key" } } });
    expect(await openStream(s, "/api/v1/live", "key-nobody-0000")).toMatchObject({ status: 401, json: { detail: { code: "invalid_api_key" } } });
    expect(await openStream(s, `/api/v1/live?api_key=${ANN}`, ANN)).toMatchObject({ status: 401, json: { detail: { code: "key_in_query_refused" } } });
    expect(await openStream(s, "/sim/v1/live", ANN)).toMatchObject({ status: 403, json: { detail: { code: "organiser_key_required" } } });
    const ok = await openStream(s, "/api/v1/live", ANN);
    expect(ok.status).toBe(200);
    expect(ok.headers!.get("content-type")).toContain("text/event-stream");
    ok.close();
  });

  it("tell an agent only of its own uploads, and the organiser of every event with each agent's tally", async () => {
    const s = await eventServer();
    const ann = await openStream(s, "/api/v1/live", ANN);
    const ben = await openStream(s, "/api/v1/live", BEN);
    const organiser = await openStream(s, "/sim/v1/live", ORGANISER);
    expect(await ann.next!()).toMatchObject({ kind: "hello", uploads: [], clock_rate: 0 });
    await ben.next!();
    await organiser.next!((m) => m.kind === "events");
    const upload = await practiceUpload(s, ANN, "mine");
    expect(await ann.next!((m) => m.uploads.length > 0)).toMatchObject({ kind: "changed", uploads: [upload] });
    const seen = await organiser.next!((m) => m.events.some((e: any) => e.type === "upload.accepted"));
    expect(seen.tallies).toEqual([expect.objectContaining({ agent: "ann", practice_uploads: 1, round_uploads: 0 })]);
    // Ben heard that something changed, never whose upload.
    const benHeard = await ben.next!();
    expect(benHeard).toEqual({ kind: "changed", clock_rate: 0, uploads: [] });
    // A page opened later is told the agent's uploads so far.
    const later = await openStream(s, "/api/v1/live", ANN);
    expect(await later.next!()).toMatchObject({ kind: "hello", uploads: [upload] });
    // A refused call reaches the caller's own streams and the organiser, not another agent's.
    const refused = await s.get("/api/v1/diagnostics/runs/upl_nothing", ANN);
    expect(refused.status).toBe(404);
    expect(await ann.next!((m) => m.kind === "refusal")).toMatchObject({ path: "/api/v1/diagnostics/runs/upl_nothing", status: 404, code: "upload_not_found" });
    expect(await organiser.next!((m) => m.kind === "refusal")).toMatchObject({ agent: "ann", code: "upload_not_found" });
    for (const st of [ann, ben, organiser, later]) st.close();
  });

  it("tell an agent whether its own state moved or what every agent sees (a board), so a page reads only what changed", async () => {
    const s = await eventServer();
    const ann = await openStream(s, "/api/v1/live", ANN);
    const ben = await openStream(s, "/api/v1/live", BEN);
    await ann.next!();
    await ben.next!();
    const upload = await practiceUpload(s, ANN, "mine");
    expect(await ann.next!((m) => m.uploads.length > 0)).toMatchObject({ kind: "changed", uploads: [upload], mine: true });
    expect(await ben.next!()).not.toHaveProperty("mine");
    // Past the scoring time Ann's run is finalised: the practice board moved for both, only Ann's own state.
    expect((await s.advance({ seconds: 120 })).status).toBe(200);
    expect(await ann.next!((m) => m.shared === true)).toMatchObject({ kind: "changed", uploads: [upload], mine: true, shared: true });
    const benHeard = await ben.next!((m) => m.shared === true);
    expect(benHeard).toEqual({ kind: "changed", clock_rate: 0, uploads: [], shared: true });
    for (const st of [ann, ben]) st.close();
  });

  it("tell every page when the organiser moves the clock, though a manual clock's move may log nothing", async () => {
    const s = await eventServer();
    const ann = await openStream(s, "/api/v1/live", ANN);
    await ann.next!();
    expect((await s.advance({ seconds: 1 })).status).toBe(200);
    expect(await ann.next!()).toEqual({ kind: "changed", clock_rate: 0, uploads: [] });
    ann.close();
  });

  it("are capped per key (429 naming the cap); a closed stream frees its place", async () => {
    const s = await eventServer();
    const open = await Promise.all([1, 2, 3, 4].map(() => openStream(s, "/api/v1/live", ANN)));
    expect(open.map((o) => o.status)).toEqual([200, 200, 200, 200]);
    const fifth = await openStream(s, "/api/v1/live", ANN);
    expect(refusal(fifth as any)).toEqual({ status: 429, code: "live_streams_exhausted", message: "At most 4 live streams may be open per key; close one first." });
    expect((await openStream(s, "/api/v1/live", BEN)).status).toBe(200);
    open[0].close();
    let again: Awaited<ReturnType<typeof openStream>> | undefined;
    await expect
      .poll(async () => {
        again = await openStream(s, "/api/v1/live", ANN);
        return again.status;
      })
      .toBe(200);
    again?.close();
  });

  it("close a stream whose reader stopped reading once it holds a mebibyte unsent; its place is free again", async () => {
    const s = await eventServer();
    const feed = new LiveFeed(s.service.ctx, { clockRate: () => 0 });
    const app = new Hono();
    app.get("/live", (c) => agentStream(c, s.service, feed));
    const open = () => app.request("/live", { headers: { "X-API-Key": ANN } });
    // In process, no socket buffers stand between the stream and its reader, which never reads.
    const stalled = await open();
    expect(stalled.status).toBe(200);
    const path = `/api/v1/${"x".repeat(64 * 1024)}`;
    for (let i = 0; i < 20; i++) feed.refused(ANN, { method: "GET", path, status: 404, code: "not_found", message: "Not found" });
    // Closed: its body ends after what it held (a stream left open would never end).
    const held = await stalled.text();
    expect(held.length).toBeGreaterThan(1024 * 1024 - 2 * path.length);
    expect(held.length).toBeLessThan(1024 * 1024 + 2 * path.length);
    // Its place under the per-key cap of 4 is free: four more open.
    const more = await Promise.all([1, 2, 3, 4].map(open));
    expect(more.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const r of more) await r.body?.cancel();
    feed.close();
  });

  it("do not hold a closing server open", async () => {
    // Its own server: the file's servers are closed once more after its tests.
    const s = (await startServer({ scenario: smallEvent(), port: 0, host: "127.0.0.1", log: () => {} })) as unknown as TestServer;
    const streams = [await openStream(s, "/api/v1/live", ANN), await openStream(s, "/sim/v1/live", ORGANISER)];
    await s.close();
    await expect(streams[0].next!(() => false)).rejects.toThrow();
  });

  it("leave the event log as it would be without them, byte for byte", async () => {
    const digests: string[] = [];
    for (const listening of [false, true]) {
      const s = await eventServer();
      const streams = listening ? [await openStream(s, "/api/v1/live", ANN), await openStream(s, "/sim/v1/live", ORGANISER)] : [];
      await practiceUpload(s, ANN, "mine");
      await toPhase(s, "round_1");
      await s.advance({ seconds: 120 });
      digests.push(logDigest(s.service.ctx.db));
      for (const st of streams) st.close();
    }
    expect(digests[1]).toBe(digests[0]);
  });
});
