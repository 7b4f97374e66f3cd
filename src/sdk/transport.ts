import { requestOf } from "../contract/args.js";
import { operations, type OperationName } from "../contract/index.js";
import { ApiError, apiErrorFrom } from "./api-error.js";
import { retryDelayMs } from "./retry.js";

export interface TransportOptions {
  /** The service's origin, e.g. `http://127.0.0.1:8787` (paths carry `/api/v1` themselves). */
  baseUrl: string;
  /** Access-gate service token; defaults to `CF_ACCESS_CLIENT_ID` / `CF_ACCESS_CLIENT_SECRET`. */
  cfAccessClientId?: string;
  cfAccessClientSecret?: string;
  /** How to wait before a retry; tests pass a fake that moves a simulated clock. */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
  /** Retries after the first attempt before the last error is thrown (default 6). */
  maxRetries?: number;
}

const DEFAULT_MAX_RETRIES = 6;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** JSON cannot carry NaN or ±Infinity: they travel as the strings "NaN", "Infinity", "-Infinity". */
const nonFiniteAsString = (_key: string, value: unknown) =>
  typeof value === "number" && !Number.isFinite(value) ? String(value) : value;

/**
 * One key's HTTP channel to the service: sends the key in `X-API-Key` (never `Authorization`,
 * never the query string) plus the gate headers when both are set, never follows a redirect
 * (a redirect is the access gate), and retries per the spec's rules.
 */
export class Transport {
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly fetch: typeof fetch;
  private readonly maxRetries: number;

  constructor(key: string | undefined, opts: TransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.sleep = opts.sleep ?? realSleep;
    this.fetch = opts.fetch ?? fetch;
    this.maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    const gateId = opts.cfAccessClientId ?? process.env.CF_ACCESS_CLIENT_ID;
    const gateSecret = opts.cfAccessClientSecret ?? process.env.CF_ACCESS_CLIENT_SECRET;
    this.headers = {
      ...(key ? { "X-API-Key": key } : {}),
      ...(gateId && gateSecret ? { "CF-Access-Client-Id": gateId, "CF-Access-Client-Secret": gateSecret } : {}),
    };
  }

  /** A JSON call; `body` (when given) is sent as JSON. */
  async json<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
    const sent = body === undefined ? {} : { body: JSON.stringify(body, nonFiniteAsString), type: "application/json" };
    return this.answer<T>(method, path, await this.send(method, path, sent));
  }

  /** A JSON call of an operation's first REST endpoint, as the contract describes it: the arguments as its path and body. */
  operation<T>(name: OperationName, args: readonly unknown[]): Promise<T> {
    const route = operations[name].rest[0];
    const { path, body } = requestOf(route, args);
    return this.json(route.method, path, body);
  }

  /** A multipart POST (the event lanes); `fetch` sets the content type with its boundary. */
  async form<T>(path: string, form: FormData): Promise<T> {
    return this.answer<T>("POST", path, await this.send("POST", path, { body: form }));
  }

  private async answer<T>(method: string, path: string, res: Response): Promise<T> {
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      const type = res.headers.get("content-type") ?? "no content type";
      throw new ApiError(
        res.status,
        "not_json",
        `expected JSON from ${method} ${path} but got ${type}: the access gate may have answered instead of the API`,
        { body: text.slice(0, 500) },
        null,
      );
    }
  }

  /** A file download's bytes. */
  async bytes(path: string): Promise<Uint8Array> {
    const res = await this.send("GET", path, {});
    return new Uint8Array(await res.arrayBuffer());
  }

  /**
   * Sends until an answer is not retried. A FormData body is serialised afresh on each attempt;
   * `type` is the body's content type when fetch cannot tell it.
   */
  private async send(method: string, path: string, payload: { body?: string | FormData; type?: string }): Promise<Response> {
    const init: RequestInit = {
      method,
      redirect: "manual",
      headers: payload.type ? { ...this.headers, "Content-Type": payload.type } : this.headers,
      body: payload.body,
    };
    for (let attempt = 0; ; attempt++) {
      const res = await this.fetch(this.baseUrl + path, init);
      if (res.ok) return res;
      const error = await apiErrorFrom(res);
      const wait = attempt < this.maxRetries ? retryDelayMs(error, attempt) : null;
      if (wait === null) throw error;
      await this.sleep(wait);
    }
  }
}
