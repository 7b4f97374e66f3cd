import type { Command } from "commander";
import { DEFAULT_SCENARIO } from "../../sim/builtin-scenarios.js";
import { numberFlag, portFlag } from "./number-flag.js";
import { pythonOptions } from "./python-flags.js";
import type { ServeFlags } from "./serve.js";

/** `basecamp serve [scenario]`: the REST API on loopback, with the organiser's clock control. */
export function registerServeCommand(program: Command): void {
  const command = program
    .command("serve")
    .description("serve /api/v1 (and the organiser's /sim/v1) for a scenario on a local port")
    .argument("[scenario]", "a scenario JSON file or a built-in scenario's name", DEFAULT_SCENARIO)
    .option("--port <port>", "port to listen on (0 = any free port)", portFlag("--port"), 8787)
    .option("--host <host>", "interface to bind (loopback unless you mean otherwise)", "127.0.0.1")
    .option("--clock <mode>", "manual (moved by /sim/v1/clock/advance) or realtime", "manual")
    .option("--speed <n>", "realtime: simulated seconds per wall-clock second", numberFlag("--speed", 0), 1)
    .option("--db <file>", "keep the store in this SQLite file (resumed when it holds this scenario)")
    .option("--with-agents", "the scenario's agents and organiser actions act on the served clock, at their replay instants")
    .option("--trust-model-files", "run participants' model files and Python strategies as this user, outside the sandbox: they can then read the store, the keys and the network")
    .option("--web", "serve the web app at / (the default on a loopback host)")
    .option("--no-web", "serve the API only");
  pythonOptions(command, false).action(async (file: string, flags: ServeFlags) => (await import("./serve.js")).serveCommand(file, flags));
}
