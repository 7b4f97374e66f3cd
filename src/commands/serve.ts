import type { Command } from "commander";
import { SimClock } from "../domain/clock.js";
import { RealtimeClock } from "../domain/realtime-clock.js";
import { createApp } from "../http/app.js";
import { listen } from "../http/listen.js";
import { DownloadDir } from "../mcp/downloads.js";
import { resumeInstant, type ClockControl } from "../service/clock-control.js";
import { buildWorld, type ServiceContext } from "../service/deployment.js";
import { Service } from "../service/service.js";
import { initialiseStore } from "../service/setup.js";
import { openDb } from "../store/db.js";
import { deploymentOf } from "../../sim/deployment.js";
import { loadScenario, type Scenario } from "../../sim/scenario.js";
import { numberFlag } from "./number-flag.js";

export const DEFAULT_SCENARIO = "scenarios/default-tournament.json";

export interface ServeOptions {
  /** A scenario, or the path of its JSON file. */
  scenario: Scenario | string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** `manual`: the clock moves only by /sim/v1/clock/advance. `realtime`: `speed` × the wall clock. */
  clock?: "manual" | "realtime";
  speed?: number;
  /** SQLite file to keep the store in (resumed when it holds this scenario); in memory when absent. */
  db?: string;
  bodyLimitBytes?: number;
  /** Realtime mode: wall-clock ms between the timer's syncs, so rounds move without requests. */
  syncEveryMs?: number;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  service: Service;
  organiserKey: string;
  /** Stops accepting, finishes in-flight requests and pending operations, closes the store. */
  close(): Promise<void>;
}

/** Starts Basecamp's HTTP face over a fresh or resumed store; tests and `sim/remote` use it in-process. */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const scenario = typeof opts.scenario === "string" ? loadScenario(opts.scenario) : opts.scenario;
  const world = buildWorld(deploymentOf(scenario));
  const db = openDb(opts.db);
  const start = resumeInstant(db, world.schedule.phases[0].start);
  const mode = opts.clock ?? "manual";
  const speed = mode === "realtime" ? (opts.speed ?? 1) : 0;
  const realtime = mode === "realtime" ? new RealtimeClock(start, speed) : null;
  const clock = realtime ?? new SimClock(start);
  const ctx: ServiceContext = { db, clock, world };
  try {
    initialiseStore(ctx, start);
  } catch (e) {
    db.close();
    throw e;
  }
  const hold = realtime ? { pause: () => realtime.pause(), resume: () => realtime.resume() } : {};
  const control: ClockControl = { mode, speed, advance: (ms) => clock.advance(ms), ...hold };
  const service = new Service(ctx, { clockControl: control });
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const downloads = new DownloadDir();
  const server = await listen(createApp(service, { bodyLimitBytes: opts.bodyLimitBytes, log, downloads }), opts.port ?? 8787, opts.host ?? "127.0.0.1");
  const timer =
    mode === "realtime"
      ? setInterval(() => service.sync().catch((e: unknown) => log(`sync failed: ${String(e)}`)), opts.syncEveryMs ?? 1000)
      : undefined;
  timer?.unref();
  return {
    url: server.url,
    service,
    organiserKey: scenario.organiser_key,
    close: async () => {
      clearInterval(timer);
      await server.close();
      await service.idle();
      downloads.close();
      db.close();
    },
  };
}

interface ServeFlags {
  port: number;
  host: string;
  clock: "manual" | "realtime";
  speed: number;
  db?: string;
}

/** `basecamp serve [scenario]`: the REST API on loopback, with the organiser's clock control. */
export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve /api/v1 (and the organiser's /sim/v1) for a scenario on a local port")
    .argument("[scenario]", "scenario JSON file", DEFAULT_SCENARIO)
    .option("--port <port>", "port to listen on (0 = any free port)", numberFlag("--port", 0), 8787)
    .option("--host <host>", "interface to bind (loopback unless you mean otherwise)", "127.0.0.1")
    .option("--clock <mode>", "manual (moved by /sim/v1/clock/advance) or realtime", "manual")
    .option("--speed <n>", "realtime: simulated seconds per wall-clock second", numberFlag("--speed", 0), 1)
    .option("--db <file>", "keep the store in this SQLite file (resumed when it holds this scenario)")
    .action(async (file: string, flags: ServeFlags) => {
      if (flags.clock !== "manual" && flags.clock !== "realtime") throw new Error(`--clock: expected manual or realtime, got '${flags.clock}'`);
      const running = await startServer({ scenario: file, ...flags });
      const key = running.organiserKey;
      process.stderr.write(
        `basecamp: serving ${file} at ${running.url}/api/v1 (clock ${flags.clock}${flags.clock === "realtime" ? ` x${flags.speed}` : ""})\n` +
          `basecamp: organiser API at ${running.url}/sim/v1 with X-API-Key = the scenario's organiser_key (${key.slice(0, 4)}…${key.slice(-4)})\n`,
      );
      let stopping = false;
      // A terminal's Ctrl-C can reach us more than once (the group, then relays): stop once.
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stderr.write(`basecamp: ${signal}: finishing in-flight requests, closing the store\n`);
        running.close().then(
          () => process.exit(0),
          (e: unknown) => {
            process.stderr.write(`basecamp: shutdown failed: ${String(e)}\n`);
            process.exit(1);
          },
        );
      };
      process.on("SIGINT", () => stop("SIGINT"));
      process.on("SIGTERM", () => stop("SIGTERM"));
    });
}
