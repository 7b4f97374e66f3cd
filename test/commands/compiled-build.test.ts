import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIsCurrent, STAMP } from "../../bin/compiled.js";

/** A checkout's layout with every file and directory dated `at` (seconds), and the build's stamp at `built`. */
function checkout(root: string, at: number, built: number | null): void {
  const files = ["src/cli.ts", "src/participant/python/worker.py", "sim/scenario.ts", "tsconfig.json", "tsconfig.build.json", "bin/bundle-cli.js"];
  for (const f of files) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), "");
  }
  for (const p of [...files, "src/participant/python", "src/participant", "src", "sim", "bin"]) utimesSync(join(root, p), at, at);
  if (built === null) return;
  mkdirSync(join(root, "dist"), { recursive: true });
  writeFileSync(join(root, STAMP), "");
  utimesSync(join(root, STAMP), built, built);
}

describe("the checkout's compiled build is current", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "basecamp-build-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("when built after every source was last changed", () => {
    checkout(root, 1_000, 2_000);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("not without a finished build (no stamp)", () => {
    checkout(root, 1_000, null);
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("not once a source file is edited after the build, however deep", () => {
    checkout(root, 1_000, 2_000);
    utimesSync(join(root, "src/participant/python/worker.py"), 3_000, 3_000);
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("not once a file is added, renamed or deleted (its directory changes)", () => {
    for (const change of [
      (r: string) => writeFileSync(join(r, "sim/new.ts"), ""),
      (r: string) => renameSync(join(r, "sim/scenario.ts"), join(r, "sim/renamed.ts")),
      (r: string) => rmSync(join(r, "sim/scenario.ts")),
    ]) {
      rmSync(root, { recursive: true, force: true });
      mkdirSync(root);
      const now = Date.now() / 1000;
      checkout(root, now - 20, now - 10);
      change(root);
      expect(buildIsCurrent(root)).toBe(false);
    }
  });

  it("not when the build's configuration or its bundling step changed", () => {
    for (const changed of ["tsconfig.build.json", "bin/bundle-cli.js"]) {
      checkout(root, 1_000, 2_000);
      utimesSync(join(root, changed), 3_000, 3_000);
      expect(buildIsCurrent(root)).toBe(false);
    }
  });
});
