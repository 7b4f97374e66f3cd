#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx basecamp` works straight after `npm ci`.
// SIGINT/SIGTERM are passed on to the CLI (so `basecamp serve` shuts down cleanly), and its exit
// status becomes ours.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const tsx = require.resolve("tsx/cli");
const child = spawn(process.execPath, [tsx, join(here, "..", "src", "cli.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
