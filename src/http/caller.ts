import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";

/**
 * The request's client address, handed to the service with each call (it counts failed
 * authentications per address). A request that did not come over a socket (`app.request` in a
 * test) has none, and is served as an in-process caller.
 */
export function callerAddress(c: Context): string | undefined {
  return (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
}
