import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every TypeScript source under src/ and sim/. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The one adapter allowed to read the wall clock. */
const ADAPTER = join("src", "domain", "realtime-clock.ts");

describe("determinism", () => {
  it("reads the wall clock and unseeded randomness only in the real-time clock adapter", () => {
    const offenders: string[] = [];
    for (const file of [...sources("src"), ...sources("sim")]) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (/Date\.now\(|Math\.random\(|new Date\(\s*\)|performance\.now\(/.test(line) && file !== ADAPTER) {
            offenders.push(`${file}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    expect(offenders).toEqual([]);
    expect(readFileSync(ADAPTER, "utf8")).toMatch(/Date\.now\(\)/);
  });
});
