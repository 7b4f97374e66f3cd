import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/**
 * The whole project type-checks (`tsc --noEmit -p .`, sources and tests). A file of the suite
 * rather than a step before it, so the check runs beside the other files instead of ahead of them.
 */
it("type-checks with no error", async () => {
  const child = spawn(process.execPath, [tsc, "--noEmit", "-p", "."], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (out += s));
  const status = await new Promise<number | null>((resolve, reject) => child.on("error", reject).on("close", resolve));
  expect(out).toBe("");
  expect(status).toBe(0);
});
