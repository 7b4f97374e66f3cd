import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";
import { withCallerAddress } from "../service/kernel/caller-address.js";

/**
 * The request's client address, handed to the service for the calls it makes (it counts failed
 * authentications per address). A request that did not come over a socket (`app.request` in a
 * test) has none, and is served as an in-process caller.
 */
export const callerAddress: MiddlewareHandler = async (c, next) => {
  const address = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
  return address === undefined ? next() : withCallerAddress(address, next);
};
