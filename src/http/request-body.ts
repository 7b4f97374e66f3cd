import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";

/** A request body as it arrives, chunk by chunk. */
export type BodySource = AsyncIterable<Uint8Array>;

/** Bodies a guard put in place of a request's own: the intake's pace watch, the body limit's buffered copy. */
const replaced = new WeakMap<Request, BodySource>();

/**
 * The request's body: one a guard put in its place (`replaceBody`), else, over a socket, the Node
 * request itself (no web Request, abort signal and stream are made to carry it: for an upload at 20
 * looping agents, a tenth of a millisecond of the main thread each), else the web Request's stream
 * (`app.request` in a test). null: a GET or HEAD, which carries none.
 */
export function requestBody(c: Context): BodySource | null {
  const put = replaced.get(c.req.raw);
  if (put !== undefined) return put;
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming === undefined) return c.req.raw.body as BodySource | null;
  return c.req.method === "GET" || c.req.method === "HEAD" ? null : incoming;
}

/** Puts `body` in place of the request's own, for every later reader (`requestBody`). */
export function replaceBody(c: Context, body: BodySource): void {
  replaced.set(c.req.raw, body);
}
