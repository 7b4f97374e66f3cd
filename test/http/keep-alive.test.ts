import http from "node:http";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DRAIN_MAX_BYTES } from "../../src/http/body-limit.js";
import { ALICE, testServer } from "./server.js";

interface Reply {
  status: number;
  connection: string | undefined;
  json: any;
  /** Whether the request went out on a connection an earlier one had used. */
  reused: boolean;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

/**
 * One request through the pooled keep-alive agent. `body` is sent whole; `declare` instead declares
 * that many bytes and sends only `body`, leaving the rest unsent.
 */
function send(url: string, method: string, body?: Buffer, declare?: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "X-API-Key": ALICE, "content-type": "application/json" };
    if (body) headers["content-length"] = String(declare ?? body.length);
    const req = http.request(url, { agent, method, headers }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, json: JSON.parse(text), reused: req.reusedSocket }));
    });
    // An unfinished body's socket is closed by the server after it answered: not this request's failure.
    req.on("error", declare === undefined ? reject : () => {});
    if (body && declare === undefined) req.end(body);
    else if (body) req.write(body);
    else req.end();
  });
}

describe("a keep-alive client after a 413", () => {
  it("gets its next request answered on the same connection: the oversized body is read and dropped first", async () => {
    const s = await testServer({}, { bodyLimitBytes: 4096 });
    const submit = `${s.url}/api/v1/futures/submit/v2`;
    expect((await send(`${s.url}/api/v1/status`, "GET")).status).toBe(200);
    // The drain's wall-clock limit (DRAIN_MAX_MS, a setTimeout) is held still: these bodies are judged by their size alone, however busy the machine is.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      for (const size of [5_000, 200_000, 5_000_000]) {
        const big = await send(submit, "POST", Buffer.alloc(size, 32));
        expect(big.status, `${size}`).toBe(413);
        expect(big.json.detail).toMatchObject({ code: "payload_too_large", limit: 4096 });
        expect(big.connection).toBe("keep-alive");
        const next = await send(`${s.url}/api/v1/status`, "GET");
        expect(next.status, `${size}`).toBe(200);
        expect(next.reused).toBe(true);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("a body too large to drain is answered with Connection: close, and the next request gets a clean new connection", async () => {
    const s = await testServer({}, { bodyLimitBytes: 4096 });
    const big = await send(`${s.url}/api/v1/futures/submit/v2`, "POST", Buffer.alloc(1000, 32), 4096 + DRAIN_MAX_BYTES + 1);
    expect(big.status).toBe(413);
    expect(big.connection).toBe("close");
    const next = await send(`${s.url}/api/v1/status`, "GET");
    expect(next.status).toBe(200);
    expect(next.reused).toBe(false);
  });
});
