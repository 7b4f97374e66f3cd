import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/basecamp.js", import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `basecamp` bin from `cwd` (the project's root) with `args` (and `env` on top of ours); resolves when it exits. */
export function basecamp(args: string[], env: Record<string, string> = {}, cwd = root): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** The lines a run wrote to stderr. */
export const errorLines = (run: CliRun) => run.stderr.split("\n").filter((l) => l !== "");
