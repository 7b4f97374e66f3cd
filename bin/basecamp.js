#!/usr/bin/env node
// The `basecamp` command. It runs the compiled code (dist/, bundled) on plain node: always when installed,
// and in a checkout when dist/ was built from the sources as they are (`npm ci` builds it). A
// checkout whose sources changed since runs them through tsx's loader in this same process (so
// there is no child to pass signals to, and no stale build runs); `npm run build` makes it
// compiled again, which starts faster and holds no loader thread.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildIsCurrent } from "./compiled.js";

// `npx basecamp` and `npm exec` put a shell between npm and us, which dies of npm's SIGTERM (or
// SIGINT) without passing it on: when npm started us and our parent is gone, stop as if signalled.
if (process.env.npm_command) {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && process.kill(process.pid, "SIGTERM"), 200).unref();
}

const sources = new URL("../src/cli.ts", import.meta.url);
if (existsSync(sources) && !buildIsCurrent(fileURLToPath(new URL("..", import.meta.url)))) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(sources.href);
} else {
  // The build's bundle of the compiled code (bin/bundle-cli.js), made before its stamp: a build from
  // before the bundle step has none, and runs its compiled modules as they are.
  const bundle = new URL("../dist/bundle/cli.js", import.meta.url);
  await import(existsSync(bundle) ? bundle.href : "../dist/src/cli.js");
}
