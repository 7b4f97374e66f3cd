import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // What the CLI's strategy loader does at run time (sim/agents/strategy-api-hook.ts), for the tests' in-process loads.
  resolve: { alias: { "basecamp-sim/strategy": fileURLToPath(new URL("./sim/strategy-api.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    globalSetup: ["test/global-setup.ts"],
    // Three files at once on a 2-core machine (vitest's default is one fewer than the cores): many tests
    // wait on a child process (Python, the sandbox, a served CLI) or on a wall-clock backstop, so a
    // core would otherwise sit idle.
    maxWorkers: 3,
    // Safety nets for a hung test, never a measure of speed: tests wait on events, not on time, and
    // one test (two Python replays) took over 60 s with a CPU hog on both cores and other work on
    // the machine. One value for every test, so no file sets a tighter one of its own.
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
