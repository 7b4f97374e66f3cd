import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import type { CellJob } from "../../sim/sweep/cell-lines.js";
import { descendants, stillRunning } from "../helpers/process-tree.js";
import { requires } from "../helpers/requires.js";
import { until } from "../helpers/until.js";
import { HOLDER, heldFit, TINY_SCENARIO } from "./sweep-fixtures.js";

const BIN = fileURLToPath(new URL("../../bin/basecamp.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "basecamp-cell-worker-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

requires("python").describe("basecamp sweep-worker", () => {
  it("abandons the cell it runs when its input closes (its pool is gone): its sandbox and Python end, and so does it", async () => {
    writeFileSync(join(dir, "holder.py"), HOLDER);
    writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
    const job: CellJob = {
      index: 0,
      cell: { kind: "backtest", strategy: join(dir, "holder.py"), params: { hold: true }, against: [], scenario: join(dir, "tiny.json"), scenario_name: "tiny" },
    };
    // stderr to nowhere: the worker never meets a closed pipe, only its input's end.
    const worker = spawn(process.execPath, [BIN, "sweep-worker"], { stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    worker.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    const closed = once(worker, "close");
    worker.stdin.write(`${JSON.stringify(job)}\n`);
    let held: ReturnType<typeof heldFit>;
    await until(() => (held = heldFit([worker.pid as number])) !== undefined);
    const tree = descendants(worker.pid as number);
    worker.stdin.end();
    const [code] = (await closed) as [number];
    expect(code).toBe(1);
    expect(stdout).toBe("");
    await until(() => stillRunning(tree).length === 0);
    expect(stillRunning([held!.holder])).toEqual([]);
  });
});
