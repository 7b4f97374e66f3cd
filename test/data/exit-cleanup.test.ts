import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

it("removes every copy's directories at exit with one exit hook, however many copies of the module are loaded (no listener warning)", () => {
  const base = mkdtempSync(join(tmpdir(), "basecamp-exit-cleanup-"));
  try {
    // Twelve copies of the module (a query string makes each import a module of its own, as a test
    // that resets its modules loads one), each marking a directory, then a plain exit.
    const code = `
      const { mkdirSync } = await import("node:fs");
      const before = process.listenerCount("exit");
      for (let k = 0; k < 12; k++) {
        const copy = await import("./src/data/exit-cleanup.ts?copy=" + k);
        const dir = ${JSON.stringify(base)} + "/dir-" + k;
        mkdirSync(dir);
        copy.removeAtExit(dir);
      }
      process.stdout.write(String(process.listenerCount("exit") - before));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(out).toBe("1");
    for (let k = 0; k < 12; k++) expect(existsSync(join(base, `dir-${k}`))).toBe(false);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
