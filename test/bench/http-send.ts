import { request, type Agent } from "node:http";

/**
 * One HTTP call through node:http: its status and body. The served-latency bench's load generator
 * calls this way rather than through fetch: on this 2-core machine it shares the cores with the
 * server it measures, and fetch costs several times node:http's CPU per call, taken from the server.
 */
export function send(url: string, method: string, headers: Record<string, string>, body: Uint8Array | undefined, agent?: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: body ? { ...headers, "content-length": String(body.length) } : headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
