import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";

export interface Listening {
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Serves `app` on `host:port` (port 0 picks a free one). */
export async function listen(app: Hono, port: number, host: string): Promise<Listening> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // A keep-alive connection would hold close() open until it times out: drop each one as
        // soon as it goes idle; a busy one finishes its request first.
        const sweep = setInterval(() => server.closeIdleConnections(), 25);
        server.close((e) => {
          clearInterval(sweep);
          if (e) reject(e);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
