#!/usr/bin/env node
// The `basecamp` command. The installed package runs its compiled code (dist/) on plain node; a
// checkout, which has the TypeScript sources, runs them through tsx's loader in this same process
// (so there is no child to pass signals to, and no build to go stale).
import { existsSync } from "node:fs";

// `npx basecamp` and `npm exec` put a shell between npm and us, which dies of npm's SIGTERM (or
// SIGINT) without passing it on: when npm started us and our parent is gone, stop as if signalled.
if (process.env.npm_command) {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && process.kill(process.pid, "SIGTERM"), 200).unref();
}

const sources = new URL("../src/cli.ts", import.meta.url);
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(sources.href);
} else {
  await import("../dist/src/cli.js");
}
