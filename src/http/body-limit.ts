import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler } from "hono";
import { refuse } from "../domain/errors.js";
import { renderError } from "./render.js";
import { replaceBody, requestBody } from "./request-body.js";

/** How much of an oversized body is read and thrown away, past the limit, so its connection can serve the next request. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** How long that draining may take (wall-clock ms) before the connection is given up instead. */
export const DRAIN_MAX_MS = 2000;

/**
 * The body limit: a body over `maxSize` bytes (declared by Content-Length, or counted as a chunked
 * body streams) gets 413 naming the limit before the route runs. A keep-alive client's connection
 * stays usable: the rest of the body is read and dropped first (at most DRAIN_MAX_BYTES, within
 * DRAIN_MAX_MS); a body beyond that is not waited for, and the 413 says `Connection: close`, so the
 * client opens a new connection rather than reusing one the server is closing.
 */
export function bodyLimit(maxSize: number): MiddlewareHandler {
  return async (c, next) => {
    const headers = c.req.raw.headers;
    const declared = headers.get("content-length");
    const chunked = headers.has("transfer-encoding");
    // Over a socket, Node's parser frames the body by these headers: with neither there is none,
    // and the web Request (with its stream and abort signal) is not made for a body-less GET.
    if (declared === null && !chunked && overSocket(c)) return next();
    if (declared !== null && !chunked && Number(declared) <= maxSize) return next();
    const body = requestBody(c);
    if (!body) return next();
    const reader = body[Symbol.asyncIterator]();
    if (declared !== null && !chunked) {
      const size = Number(declared);
      return tooLarge(maxSize, size - maxSize <= DRAIN_MAX_BYTES && (await drained(reader, size)));
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.next();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) return tooLarge(maxSize, await drained(reader, maxSize + DRAIN_MAX_BYTES - size));
      chunks.push(value);
    }
    const whole = concat(chunks, size);
    c.req.raw = new Request(c.req.raw, { body: whole });
    replaceBody(c, (async function* () {
      yield whole;
    })());
    return next();
  };
}

/** Whether the request came over a socket (@hono/node-server), not as a web Request handed to `app.request` in a test. */
function overSocket(c: Context): boolean {
  return (c.env as Partial<HttpBindings> | undefined)?.incoming !== undefined;
}

/** 413 naming the limit; `Connection: close` unless the whole body was read. */
function tooLarge(limit: number, bodyRead: boolean): Response {
  const res = renderError(refuse("payload_too_large", { limit }, { extra: { limit } }));
  if (!bodyRead) res.headers.set("Connection", "close");
  return res;
}

/** Reads the rest of a body and drops it: true once it ended, false past `budget` bytes or DRAIN_MAX_MS. */
async function drained(reader: AsyncIterator<Uint8Array>, budget: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), DRAIN_MAX_MS);
  });
  try {
    let read = 0;
    for (;;) {
      const step = await Promise.race([reader.next(), expired]);
      if (step === "expired") return false;
      if (step.done) return true;
      read += step.value.byteLength;
      if (read > budget) return false;
    }
  } finally {
    clearTimeout(timer);
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
