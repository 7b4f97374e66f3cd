/**
 * Start-up: the built bin (`npm run build` first unless dist/ is current) run by plain node, as the
 * installed package runs. `basecamp --help` loads no command's code (target: median < 0.5 s);
 * `basecamp run default-tournament --plain` is the default season's whole replay.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ensureBuilt, medianMs, report } from "./measure.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = `${root}dist/src/cli.js`;

export async function run(): Promise<void> {
  ensureBuilt();
  const basecamp = (...args: string[]) => execFileSync(process.execPath, [cli, ...args], { cwd: "/", stdio: "ignore" });
  const help = await medianMs(7, () => basecamp("--help"));
  const replay = await medianMs(3, () => basecamp("run", "default-tournament", "--plain"));
  const node = await medianMs(7, () => execFileSync(process.execPath, ["-e", ""]));
  report("Start-up of the built bin (node dist/src/cli.js)", {
    "--help": `${(help.median / 1000).toFixed(3)} s median of 7 (target < 0.5 s; bare node: ${(node.median / 1000).toFixed(3)} s)`,
    replay: `${(replay.median / 1000).toFixed(3)} s median of 3 (run default-tournament --plain, 12 rounds, 20 agents)`,
  });
}
