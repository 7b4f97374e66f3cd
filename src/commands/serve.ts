import { openBasecamp, type Basecamp } from "../app.js";
import { SimClock } from "../domain/clock.js";
import { RealtimeClock } from "../domain/realtime-clock.js";
import { removeLeftovers } from "../data/temp-roots.js";
import { ownRoot } from "../participant/work-dir.js";
import { createApp } from "../http/app.js";
import { listen, type Listening } from "../http/listen.js";
import { LiveFeed } from "../service/live/live-feed.js";
import type { ClockControl } from "../service/cadence/clock-control.js";
import { loadWorld } from "../service/kernel/deployment.js";
import { Service } from "../service/service.js";
import { probeSandbox, type Isolation } from "../participant/isolation.js";
import { announcePython, announceUntrainedKinds, applyPythonFlags, type PythonFlags } from "./python-flags.js";
import { logsLine, makeLogDir } from "./strategy-logs.js";
import { hasPythonWorkers, loadLineup } from "../../sim/agents/lineup.js";
import { deploymentOf } from "../../sim/deployment.js";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { loadScenario, type Scenario } from "../../sim/scenario.js";
import { missingPython, pythonUses, requireScenarioPython, servedPythonLanes } from "../../sim/requirements.js";
import { servedAgents } from "../../sim/served-agents.js";

export interface ServeOptions {
  /** A scenario, or the path of its JSON file. */
  scenario: Scenario | string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** `manual`: the clock moves only by /sim/v1/clock/advance. `realtime`: `speed` × the wall clock. */
  clock?: "manual" | "realtime";
  speed?: number;
  /** SQLite file to keep the store in (resumed when it holds this scenario); when absent, a temporary file removed on close (`openScratchDb`). */
  db?: string;
  bodyLimitBytes?: number;
  /** Realtime mode: wall-clock ms between the timer's syncs, so rounds move without requests. */
  syncEveryMs?: number;
  /** The scenario's agents (and organiser actions) act on the served clock at their replay instants; needs a fresh store. */
  withAgents?: boolean;
  /**
   * How participants' model files (the auto-submit lane) and the agents' Python strategies run.
   * Default: in the sandbox where this machine can set it up, else as plain processes
   * (`localIsolation`); `basecamp serve` asks for "sandbox" unless started with --trust-model-files.
   */
  modelIsolation?: Isolation;
  log?: (line: string) => void;
  /** Serves the web app at `/` (default: when `host` is a loopback address). */
  web?: boolean;
  /** With agents: where each Python strategy's log goes (`<agent>.log`); discarded without it. */
  logDir?: string;
}

/** The organiser's hold on the served clock: a realtime clock may also be held still. */
function clockControl(clock: SimClock | RealtimeClock, mode: ClockControl["mode"], speed: number): ClockControl {
  const hold = clock instanceof RealtimeClock ? { pause: () => clock.pause(), resume: () => clock.resume() } : {};
  return { mode, speed, advance: (ms) => clock.advance(ms), ...hold };
}

/** Whether `host` names this machine only. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface RunningServer {
  url: string;
  service: Service;
  organiserKey: string;
  /** Whether the web app is served at `/`. */
  web: boolean;
  /** Stops accepting, finishes in-flight requests and pending operations, closes the store. */
  close(): Promise<void>;
}

/** Starts Basecamp's HTTP face over a fresh or resumed store; tests and `sim/remote` use it in-process. */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const scenario = typeof opts.scenario === "string" ? loadScenario(opts.scenario) : opts.scenario;
  if (opts.withAgents) await requireScenarioPython(scenario);
  // What earlier servers killed with -9 left (workspaces and their mounts, spools, stores) goes before this one makes its own.
  removeLeftovers();
  await ownRoot();
  const world = await loadWorld(deploymentOf(scenario));
  const lineup = opts.withAgents ? await loadLineup(scenario, { isolation: opts.modelIsolation, logDir: opts.logDir }) : null;
  const mode = opts.clock ?? "manual";
  const speed = mode === "realtime" ? (opts.speed ?? 1) : 0;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const appointments = lineup ? (s: Service) => servedAgents(scenario, world, lineup, s, log) : undefined;
  let app: Basecamp<SimClock | RealtimeClock>;
  try {
    app = openBasecamp(world, {
      db: opts.db,
      scratch: !opts.db,
      clock: ({ resumeAt }) => (mode === "realtime" ? new RealtimeClock(resumeAt, speed) : new SimClock(resumeAt)),
      // The agents start at the season's start; a resumed store does not say which of their steps ran.
      check: ({ events }) => {
        if (lineup && events > 0) throw new Error(`${opts.db} already holds a run: --with-agents needs a fresh store`);
      },
      isolation: opts.modelIsolation,
      service: (clock) => ({ clockControl: clockControl(clock, mode, speed), appointments }),
    });
  } catch (e) {
    await lineup?.close();
    throw e;
  }
  const realtime = app.clock instanceof RealtimeClock ? app.clock : null;
  const { service, ctx } = app;
  const stop = async () => {
    await service.idle();
    await lineup?.close();
    app.close();
  };
  const host = opts.host ?? "127.0.0.1";
  const web = (opts.web ?? isLoopback(host)) ? new LiveFeed(ctx, { clockRate: () => (realtime && !realtime.paused() ? speed : 0) }) : undefined;
  let server: Listening;
  try {
    // The agents' steps at the season's very start are kept before anyone can move the clock.
    if (lineup) await service.catchUp();
    server = await listen(createApp(service, { bodyLimitBytes: opts.bodyLimitBytes, log, web }), opts.port ?? 8787, host);
  } catch (e) {
    web?.close();
    await stop();
    throw e;
  }
  // A tick that finds the last catch-up still running (an agent's Python strategy is slow) lets it be.
  let catchingUp = false;
  const tick = () => {
    if (catchingUp) return;
    catchingUp = true;
    service
      .catchUp()
      .catch((e: unknown) => log(`sync failed: ${String(e)}`))
      .finally(() => (catchingUp = false));
  };
  const timer = mode === "realtime" ? setInterval(tick, opts.syncEveryMs ?? 1000) : undefined;
  timer?.unref();
  return {
    url: server.url,
    service,
    organiserKey: scenario.organiser_key,
    web: web !== undefined,
    close: async () => {
      clearInterval(timer);
      web?.close();
      await server.close();
      await stop();
    },
  };
}

export interface ServeFlags extends Pick<PythonFlags, "python"> {
  port: number;
  host: string;
  clock: "manual" | "realtime";
  speed: number;
  db?: string;
  withAgents?: boolean;
  trustModelFiles?: boolean;
  /** commander's `--web` / `--no-web`; unset: on when serving on loopback. */
  web?: boolean;
}

/** `basecamp serve [scenario]` (defined in serve-command.ts): serves until SIGINT or SIGTERM. */
export async function serveCommand(file: string, flags: ServeFlags): Promise<void> {
  if (flags.clock !== "manual" && flags.clock !== "realtime") throw new Error(`--clock: expected manual or realtime, got '${flags.clock}'`);
  const { trustModelFiles, python, ...rest } = flags;
  applyPythonFlags({ python });
  const scenario = loadScenario(scenarioFile(file));
  if (flags.withAgents) await requireScenarioPython(scenario);
  const agentsNeedPython = flags.withAgents === true && pythonUses(scenario).length > 0;
  const noPython = await missingPython(scenario.name, servedPythonLanes(scenario));
  if (noPython) process.stderr.write(`basecamp: warning: ${noPython}: participants' model files will fail their runs\n`);
  else await announcePython([...servedPythonLanes(scenario), ...(agentsNeedPython ? pythonUses(scenario) : [])], { served: { trusted: trustModelFiles === true } });
  if (flags.withAgents) await announceUntrainedKinds(scenario, trustModelFiles ? "trusted" : "sandbox");
  if (!trustModelFiles) {
    const sandbox = await probeSandbox();
    if (!sandbox.ok) {
      const why = `no sandbox on this machine (${sandbox.reason})`;
      if (agentsNeedPython) throw new Error(`--with-agents: the scenario's agents run Python, and ${why}; --trust-model-files runs them unsandboxed`);
      if (!noPython) process.stderr.write(`basecamp: ${why}: participants' model files will fail their runs; --trust-model-files runs them unsandboxed\n`);
    }
  }
  const logDir = flags.withAgents && hasPythonWorkers(scenario) ? makeLogDir("serve") : undefined;
  const running = await startServer({ scenario, ...rest, logDir, modelIsolation: trustModelFiles ? "trusted" : "sandbox" });
  const key = running.organiserKey;
  process.stderr.write(
    `basecamp: serving ${file} at ${running.url}/api/v1 (clock ${flags.clock}${flags.clock === "realtime" ? ` x${flags.speed}` : ""})\n` +
      `basecamp: organiser API at ${running.url}/sim/v1 with X-API-Key = the scenario's organiser_key (${key.slice(0, 4)}…${key.slice(-4)})\n` +
      (running.web ? `basecamp: web app at ${running.url}/ (participants) and ${running.url}/console (organiser); keys are typed into the page\n` : "") +
      (flags.withAgents ? "basecamp: the scenario's agents act on the served clock; their notes and missed rounds follow here\n" : "") +
      (logDir ? `basecamp: ${logsLine(logDir)}\n` : ""),
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
}
