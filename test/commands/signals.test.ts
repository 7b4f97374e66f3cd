import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { descendants, killGroup, stillRunning } from "../helpers/process-tree.js";
import { printed as output } from "../helpers/printed.js";
import { smallScenario } from "../helpers/small-scenario.js";
import { requires } from "../helpers/requires.js";
import { until } from "../helpers/until.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "bin", "basecamp.js");

let child: ChildProcess | undefined;
let dir: string | undefined;
/** The log directory a served run made in the project's root. */
let logs: string | undefined;
afterEach(() => {
  // Each child leads a process group of its own: whatever a failed test left running goes with it.
  killGroup(child);
  child = undefined;
  for (const made of [dir, logs]) if (made) rmSync(made, { recursive: true, force: true });
  dir = logs = undefined;
});

function start(command: string, args: string[]): ChildProcess {
  child = spawn(command, args, { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  return child;
}

/** A small scenario whose served agents include a Python strategy, so `serve --with-agents` runs a Python worker. */
function scenarioWithPython(): string {
  dir = mkdtempSync(join(tmpdir(), "basecamp-signals-"));
  copyFileSync(join(root, "examples", "agent.py"), join(dir, "agent.py"));
  const base = smallScenario();
  const file = join(dir, "python.json");
  const agents = [...base.agents.slice(0, 2), { name: "py", key: "key-py-000000008", strategy: "agent.py" }];
  writeFileSync(file, JSON.stringify({ name: "python", seed: base.seed, dataset: base.dataset, calendar: base.calendar, agents }));
  return file;
}

/** Starts `serve` through `command`, sends SIGTERM to that process only, checks that everything it started is gone, and returns its exit code. */
async function serveThenTerminate(command: string, args: string[]): Promise<number | null> {
  const p = start(command, [...args, "serve", scenarioWithPython(), "--port", "0", "--with-agents", "--trust-model-files"]);
  const said = await output(p, "stderr", /go to \S+\/<agent>\.log\n/);
  const url = /at (http:\/\/\S+)\/api\/v1/.exec(said)![1];
  logs = join(root, /go to (\S+)\/<agent>\.log/.exec(said)![1]);
  expect(existsSync(join(logs, "py.log"))).toBe(true); // the Python agent's stdout and stderr
  await expect(fetch(`${url}/api/v1/scoring`).then((r) => r.status)).resolves.toBe(200);
  const tree = descendants(p.pid!);
  expect(tree.map((t) => t.command)).toContain("python3");

  const exited = once(p, "exit");
  p.kill("SIGTERM");
  const [code] = (await exited) as [number | null];
  await until(() => stillRunning(tree).length === 0);
  await expect(fetch(`${url}/api/v1/scoring`)).rejects.toThrow(/fetch failed/);
  return code;
}

describe("SIGTERM and SIGINT to the process the user started", () => {
  requires("python").it("the bin: serve closes its port, stops its Python worker and exits 0", async () => {
    expect(await serveThenTerminate(process.execPath, [BIN])).toBe(0);
  });

  requires("python").it("npx basecamp serve: the shell npx puts in between does not keep the server running", async () => {
    await serveThenTerminate("npx", ["basecamp"]);
  });

  it("npm start: SIGINT stops the replay after the step in progress, and nothing is left running", async () => {
    const p = start("npm", ["start", "--", "--plain"]);
    await output(p, "stdout", /default-tournament \(seed/);
    const tree = descendants(p.pid!);
    const printed = output(p, "stdout", /stopped after step \d+ of \d+/);
    p.kill("SIGINT");
    await expect(printed).resolves.toMatch(/stopped after step/);
    await once(p, "exit");
    await until(() => stillRunning(tree).length === 0);
  });
});
