import { connect, type Socket } from "node:net";

/** A form as the bytes and content type a client would stream. */
export async function encoded(form: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const r = new Request("http://127.0.0.1/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await r.arrayBuffer()), type: r.headers.get("content-type") as string };
}

/** What came back on a raw socket: the status (0: closed without an answer), the headers (lower-case names), the JSON body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  json: any;
}

export interface RawUpload {
  /** Settles with the first answer the server sends, or (status 0) when the connection closes without one. */
  answer: Promise<RawAnswer>;
  /** Whether an answer (or a close) has arrived yet. */
  readonly settled: boolean;
  /** Resolves once the server has closed the connection. */
  closed: Promise<void>;
  destroy(): void;
}

/**
 * A multipart upload on its own socket whose body trickles: the headers (with the whole body's
 * Content-Length) and `head` bytes at once, then `perSecond` bytes each second (0: none, a stalled
 * body). The answer is read as soon as the server sends one, body still unsent or not.
 */
export function rawUpload(
  url: string,
  path: string,
  key: string | undefined,
  body: { bytes: Uint8Array; type: string },
  opts: { head?: number; perSecond?: number } = {},
): RawUpload {
  const u = new URL(url);
  const socket: Socket = connect(Number(u.port), u.hostname);
  socket.on("error", () => undefined); // writes after the server closed the connection
  const keyLine = key === undefined ? "" : `X-API-Key: ${key}\r\n`;
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\n${keyLine}Content-Type: ${body.type}\r\nContent-Length: ${body.bytes.length}\r\n\r\n`,
  );
  let sent = opts.head ?? 0;
  socket.write(body.bytes.subarray(0, sent));
  const perSecond = opts.perSecond ?? 1;
  const timer = setInterval(() => {
    if (perSecond === 0 || sent >= body.bytes.length || socket.destroyed) return;
    socket.write(body.bytes.subarray(sent, sent + perSecond));
    sent += perSecond;
  }, 1000);
  let settled = false;
  let received = Buffer.alloc(0);
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  void closed.then(() => clearInterval(timer));
  const answer = new Promise<RawAnswer>((resolve) => {
    const done = (a: RawAnswer) => {
      if (settled) return;
      settled = true;
      resolve(a);
    };
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseAnswer(received);
      if (parsed) done(parsed);
    });
    socket.on("close", () => done({ status: 0, headers: {}, json: null }));
  });
  return {
    answer,
    get settled() {
      return settled;
    },
    closed,
    destroy: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** A complete HTTP/1.1 answer with a Content-Length body, or null while it is still arriving. */
function parseAnswer(raw: Buffer): RawAnswer | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  if (raw.length < end + 4 + length) return null;
  const text = raw.subarray(end + 4, end + 4 + length).toString("utf8");
  return { status: Number(statusLine.split(" ")[1]), headers, json: text ? JSON.parse(text) : null };
}
