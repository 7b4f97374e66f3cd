/** Timing helpers shared by the benchmarks: median wall time over several runs, and peak RSS. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildIsCurrent } from "../../bin/compiled.js";
import { descendants } from "../helpers/process-tree.js";

/**
 * Builds dist/ (`npm run build`) unless it is current, so a bench measures `basecamp` as it is
 * installed and as a checkout runs it after `npm ci`: compiled, on plain node.
 */
export function ensureBuilt(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  if (buildIsCurrent(root)) return;
  console.log("building dist/ (npm run build)…");
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}

export async function medianMs(runs: number, work: () => unknown): Promise<{ median: number; all: number[] }> {
  const all: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    all.push(performance.now() - start);
  }
  return { median: median(all), all };
}

/** The middle value (the upper one of an even count). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

export function report(name: string, lines: Record<string, string | number>): void {
  console.log(`\n${name}`);
  for (const [k, v] of Object.entries(lines)) console.log(`  ${k.padEnd(14)} ${v}`);
}

/**
 * Samples the resident set of process `root` and all its descendants (summed) every `everyMs`;
 * `stop` ends the sampling and gives the largest sum seen, in MB.
 */
export function treeRss(root: number, everyMs = 50): { stop(): number } {
  let peakMb = 0;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, treeRssNow(root))), everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peakMb;
    },
  };
}

/** The resident set of process `root` and all its descendants now, summed, in MB. */
export function treeRssNow(root: number): number {
  return [root, ...descendants(root).map((p) => p.pid)].reduce((sum, pid) => sum + rssKb(pid), 0) / 1024;
}

function rssKb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}
