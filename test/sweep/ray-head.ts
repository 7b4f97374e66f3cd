import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { LOOPBACK_ENV } from "../../sim/sweep/ray-pool.js";

/** A Ray head this process started, bound to 127.0.0.1 only, and the way to stop it and nothing else. */
export interface RayHead {
  /** `127.0.0.1:PORT`, for `--ray`. */
  address: string;
  /** Every process of its session (the head's and the workers' of each job): pid and command, from /proc. */
  processes(): { pid: number; command: string }[];
  /** Kills every process of its session and removes its directory; idempotent. */
  stop(): void;
}

/** Rounds of SIGKILL (20 ms apart) before `stop` gives up on a process that will not die. */
const KILL_ROUNDS = 100;

/**
 * Starts `ray start --head --block` in a session of its own (so its pid is the session id of every
 * process Ray starts: GCS, raylet, agents and each job's workers, which lead process groups of their
 * own), with its own temp dir and a free port, bound to the loopback (LOOPBACK_ENV), no dashboard, no
 * usage stats. Resolves once Ray says it runs. `stop` kills that session alone, never another Ray on
 * the machine; it also runs when this process exits, so a failing test leaves no head behind.
 */
export async function startRayHead(ray: string, cpus: number): Promise<RayHead> {
  const dir = mkdtempSync(join(tmpdir(), "bc-ray-"));
  const port = await freePort();
  const env = { ...process.env, ...LOOPBACK_ENV, RAY_USAGE_STATS_ENABLED: "0" };
  const args = ["start", "--head", "--block", "--node-ip-address=127.0.0.1", `--port=${port}`, `--num-cpus=${cpus}`, "--include-dashboard=false", "--disable-usage-stats", `--temp-dir=${dir}`];
  const child = spawn(ray, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const session = child.pid as number;
  const processes = () => inSession(session);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stop);
    // Killed until none is left: a raylet may start a worker while its siblings are being killed.
    let left = processes();
    for (let round = 0; left.length > 0 && round < KILL_ROUNDS; round++, left = processes()) {
      for (const p of left) {
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
    rmSync(dir, { recursive: true, force: true });
    if (left.length > 0) throw new Error(`the Ray head's processes outlived SIGKILL: ${left.map((p) => `${p.pid} ${p.command}`).join(", ")}`);
  };
  process.on("exit", stop);
  let output = "";
  try {
    await new Promise<void>((ready, failed) => {
      const read = (line: string) => {
        output += `${line}\n`;
        if (line.includes("Ray runtime started")) ready();
      };
      createInterface({ input: child.stdout }).on("line", read);
      createInterface({ input: child.stderr }).on("line", read);
      child.on("error", failed);
      child.on("exit", (code) => failed(new Error(`ray start exited (${code}) before the head ran:\n${output}`)));
    });
  } catch (e) {
    stop();
    throw e;
  }
  return { address: `127.0.0.1:${port}`, processes, stop };
}

/** A TCP port free on 127.0.0.1 now (the kernel's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Live processes whose session id is `sid` (zombies left out). */
function inSession(sid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // `pid (comm) state ppid pgrp session …`: comm may hold spaces and parentheses.
    const close = text.lastIndexOf(")");
    const [state, , , session] = text.slice(close + 2).split(" ");
    if (Number(session) === sid && state !== "Z") found.push({ pid: Number(entry), command: text.slice(text.indexOf("(") + 1, close) });
  }
  return found;
}
