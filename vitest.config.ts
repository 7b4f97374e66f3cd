import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // What the CLI's strategy loader does at run time (sim/agents/strategy-api-hook.ts), for the tests' in-process loads.
  resolve: { alias: { "basecamp-sim/strategy": fileURLToPath(new URL("./sim/strategy-api.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    globalSetup: ["test/global-setup.ts"],
    // Two files at once on a 2-core machine (vitest's default is one fewer than the cores): many tests
    // wait on a child process (Python, the sandbox, a served CLI), so the suite takes about a third less.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
