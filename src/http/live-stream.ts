import type { Context } from "hono";
import { API_PREFIX } from "../contract/index.js";
import type { Service } from "../service/service.js";
import type { LiveFeed, LiveListener, LiveMessage } from "../service/live/live-feed.js";

/** Paths of the web app's live streams: an agent's (keyed like `/api/v1`) and the organiser's. */
export const AGENT_STREAM_PATH = `${API_PREFIX}live`;
export const ORGANISER_STREAM_PATH = "/sim/v1/live";

/** Bytes a stream may hold unsent (a page that stopped reading) before it is closed. */
const MAX_UNSENT_BYTES = 1024 * 1024;
/** Wall-clock ms between comments that keep an idle stream's connection open. */
const KEEPALIVE_MS = 20_000;

/**
 * A server-sent-events response fed by `feed` for `who`. The key was authenticated by the caller
 * and travels only in its header; it is kept in memory to match the caller's own refusals.
 */
function eventStream(c: Context, feed: LiveFeed, who: Omit<LiveListener, "send" | "end">): Response {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>(
    { start: (ctl) => void (controller = ctl), cancel: () => end() },
    { highWaterMark: MAX_UNSENT_BYTES, size: (chunk) => chunk.byteLength },
  );
  let keepalive: NodeJS.Timeout | undefined;
  let unsubscribe = () => {};
  const end = () => {
    if (!open) return;
    open = false;
    clearInterval(keepalive);
    unsubscribe();
    try {
      controller.close();
    } catch {
      // Already closed: the client went away.
    }
  };
  const write = (text: string) => {
    if (!open) return;
    if ((controller.desiredSize ?? 0) <= 0) return end();
    controller.enqueue(encoder.encode(text));
  };
  // Refused past the per-key cap before any response is made.
  unsubscribe = feed.subscribe({ ...who, send: (m: LiveMessage) => write(`data: ${JSON.stringify(m)}\n\n`), end });
  // A greeting too large to queue has already ended the stream.
  if (!open) unsubscribe();
  keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
  keepalive.unref();
  c.req.raw.signal.addEventListener("abort", end);
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" },
  });
}

/** An agent's stream: its key is checked as `get_started` checks it (and counted as one such call). */
export async function agentStream(c: Context, service: Service, feed: LiveFeed): Promise<Response> {
  const key = c.req.header("x-api-key");
  const { agent } = await service.getStarted(key);
  return eventStream(c, feed, { agent, key: key as string });
}

/** The organiser's stream: refused, as every `/sim/v1` call is, without the organiser key. */
export async function organiserStream(c: Context, service: Service, feed: LiveFeed): Promise<Response> {
  const key = c.req.header("x-api-key");
  await service.clock(key);
  return eventStream(c, feed, { agent: null, key: key as string });
}
