import { connect } from "node:net";

/** The port a Ray Client address (ray://host) takes when it names none, as Ray does. */
const RAY_CLIENT_PORT = 10001;

/** How long a cluster's host may take to accept a connection before the sweep says it did not. */
const ANSWER_WITHIN_MS = 10_000;

/**
 * Refuses a `--ray` address (host:port, or a Ray Client's ray://host:port) at which nothing accepts a connection, before any work:
 * Ray's own ray.init keeps retrying such an address for minutes, with nothing on screen. `auto`
 * is left to Ray, which finds this machine's cluster (and says at once when there is none).
 */
export async function checkRayAddress(address: string): Promise<void> {
  if (address === "auto") return;
  const parsed = /^(?:(ray:\/\/)(\[[^\]]+\]|[^:/]+)(?::(\d+))?|(\[[^\]]+\]|[^:/]+):(\d+))$/.exec(address);
  if (!parsed) throw new Error(`--ray ${address}: expected host:port (as \`ray start --head\` prints it), ray://host[:port], or auto`);
  const host = (parsed[2] ?? parsed[4]).replace(/^\[|\]$/g, "");
  const port = parsed[1] ? Number(parsed[3] ?? RAY_CLIENT_PORT) : Number(parsed[5]);
  if (!(port >= 1 && port <= 65535)) throw new Error(`--ray ${address}: port ${port} is not one (1 to 65535)`);
  const refusal = await new Promise<string | null>((done) => {
    const socket = connect({ host, port });
    socket.setTimeout(ANSWER_WITHIN_MS, () => {
      socket.destroy();
      done(`nothing answered within ${ANSWER_WITHIN_MS / 1000} s`);
    });
    socket.once("connect", () => {
      socket.destroy();
      done(null);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
  });
  if (refusal !== null) throw new Error(`--ray ${address}: no Ray cluster there (${refusal}); start one with \`ray start --head\` (README, Sweeps)`);
}
