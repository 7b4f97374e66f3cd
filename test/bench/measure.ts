/** Timing helpers shared by the benchmarks: median wall time over several runs, and peak RSS. */
import { performance } from "node:perf_hooks";

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
