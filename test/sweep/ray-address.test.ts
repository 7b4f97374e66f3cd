import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkRayAddress } from "../../sim/sweep/ray-address.js";
import { basecamp, errorLines } from "../helpers/cli.js";
import { TINY_SCENARIO } from "./sweep-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-ray-address-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port on the loopback that was just listened on and closed: nothing accepts there. */
async function closedPort(): Promise<number> {
  const server = await listening();
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

function listening(): Promise<Server> {
  return new Promise((done) => {
    const server = createServer((socket) => socket.destroy());
    server.listen(0, "127.0.0.1", () => done(server));
  });
}

describe("a --ray address is checked before any work", () => {
  it("passes an address where something accepts a connection, and auto (left to Ray)", async () => {
    const server = await listening();
    try {
      const { port } = server.address() as AddressInfo;
      await expect(checkRayAddress(`127.0.0.1:${port}`)).resolves.toBeUndefined();
      await expect(checkRayAddress(`ray://127.0.0.1:${port}`)).resolves.toBeUndefined();
      await expect(checkRayAddress("auto")).resolves.toBeUndefined();
      await expect(checkRayAddress(`[::ffff:127.0.0.1]:${port}`)).resolves.toBeUndefined();
    } finally {
      server.close();
    }
  });

  it("refuses one where nothing does, or one that is not host:port, naming it", async () => {
    const port = await closedPort();
    await expect(checkRayAddress(`127.0.0.1:${port}`)).rejects.toThrow(`--ray 127.0.0.1:${port}: no Ray cluster there (ECONNREFUSED); start one with \`ray start --head\` (README, Sweeps)`);
    await expect(checkRayAddress("head")).rejects.toThrow("--ray head: expected host:port (as `ray start --head` prints it), ray://host[:port], or auto");
    await expect(checkRayAddress("127.0.0.1:99999")).rejects.toThrow("--ray 127.0.0.1:99999: port 99999 is not one (1 to 65535)");
    await expect(checkRayAddress("127.0.0.1:0")).rejects.toThrow("--ray 127.0.0.1:0: port 0 is not one (1 to 65535)");
  });

  it("stops basecamp sweep in one line, with no results store, rather than waiting on Ray for minutes", async () => {
    writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
    writeFileSync(join(dir, "grid.json"), JSON.stringify({ base: { strategy: "ridge", scenario: "tiny.json" }, axes: { seeds: [1, 2] } }));
    const port = await closedPort();
    const run = await basecamp(["sweep", join(dir, "grid.json"), "--ray", `127.0.0.1:${port}`]);
    expect(run.status).toBe(1);
    expect(errorLines(run)).toEqual([`basecamp: --ray 127.0.0.1:${port}: no Ray cluster there (ECONNREFUSED); start one with \`ray start --head\` (README, Sweeps)`]);
    expect(existsSync(join(dir, "grid.sweep.db"))).toBe(false);
  }, 60_000);
});
