import { afterAll } from "vitest";
import { startServer, type RunningServer, type ServeOptions } from "../../src/commands/serve.js";
import type { Scenario } from "../../sim/scenario.js";
import { smallScenario } from "../helpers/small-scenario.js";

export const ALICE = "key-alice-0001";
export const BOB = "key-bob-00000002";
export const EVE = "key-eve-00000007";
export const ORGANISER = "organiser-key-0000";

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null when the body is not JSON. */
  json: any;
  bytes: Uint8Array;
}

export interface TestServer extends RunningServer {
  call(method: string, path: string, opts?: { key?: string; body?: unknown; raw?: string | FormData; headers?: Record<string, string> }): Promise<Answer>;
  get(path: string, key?: string): Promise<Answer>;
  post(path: string, body: unknown, key?: string): Promise<Answer>;
  /** The organiser's clock advance. */
  advance(body: unknown): Promise<Answer>;
}

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A real Basecamp server on 127.0.0.1 (a free port) over the small scenario; closed after the file's tests. */
export function testServer(overrides: Record<string, unknown> = {}, opts: Partial<ServeOptions> = {}): Promise<TestServer> {
  return serveScenario(smallScenario(overrides), opts);
}

/** A real Basecamp server on 127.0.0.1 (a free port) over `scenario`; closed after the file's tests. */
export async function serveScenario(scenario: Scenario, opts: Partial<ServeOptions> = {}): Promise<TestServer> {
  const server = await startServer({ scenario, port: 0, host: "127.0.0.1", log: () => {}, ...opts });
  running.push(server);
  const call: TestServer["call"] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key !== undefined) headers["X-API-Key"] = o.key;
    let body: string | FormData | undefined = o.raw;
    if (o.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(o.body);
    }
    const r = await fetch(server.url + path, { method, headers, body, redirect: "manual" });
    const bytes = new Uint8Array(await r.arrayBuffer());
    const isJson = (r.headers.get("content-type") ?? "").includes("json");
    return { status: r.status, headers: r.headers, bytes, json: isJson ? JSON.parse(new TextDecoder().decode(bytes)) : null };
  };
  return {
    ...server,
    call,
    get: (path, key) => call("GET", path, { key }),
    post: (path, body, key) => call("POST", path, { key, body }),
    advance: (body) => call("POST", "/sim/v1/clock/advance", { key: ORGANISER, body }),
  };
}

/** The rendered refusal: `{status, code, message}` plus the answer for further checks. */
export function refusal(a: Answer): { status: number; code: string; message: string } {
  return { status: a.status, code: a.json?.detail?.code, message: a.json?.detail?.message };
}
