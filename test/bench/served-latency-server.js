/**
 * The server of the served-latency bench (plain JavaScript on the compiled build), in a process of its own so that its peak RSS is the
 * server's alone: starts `startServer` on the scenario JSON given as the first argument (realtime
 * clock, so runs are scored while the bench runs; the store where `serve` keeps it without
 * `--db`, a temporary file), prints
 * `{"url"}` on a line, and on SIGTERM prints `{"peak_rss_mb", "peak_main_heap_mb", "peak_main_external_mb", "cpu_s", "loop_delay_p99_ms", "loop_delay_max_ms", "main_cpu_s", "main_wait_s", "main_busy", "gc_pauses", "gc_total_s", "gc_max_ms", "gc_over_10ms"}`
 * (how long the event loop was held: what every request waits behind; the main thread's own CPU
 * seconds, which other processes on a busy machine hardly change; the seconds it was ready to run
 * but waited for a core (its scheduler's run-queue wait: on a shared machine, time every request
 * behind it waits too, which no profile of the thread shows); and the share of wall time its
 * event loop was busy: each since the last SIGUSR2, which the bench sends as its measured phase
 * begins, so the setup's burst is not counted), closes the server (which removes its store) and exits.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay, performance, PerformanceObserver } from "node:perf_hooks";
// The compiled build (the bench builds dist/ first unless it is current), on plain node: the
// server as `basecamp serve` runs it, without tsx's loader thread in its RSS.
import { startServer } from "../../dist/src/commands/serve.js";
import { parseScenario } from "../../dist/sim/scenario.js";

const scenario = parseScenario(JSON.parse(process.argv[2]));
const server = await startServer({ scenario, port: 0, clock: "realtime" });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

/** The main thread's CPU seconds so far (its task's utime + stime; the worker threads are tasks of their own). */
function mainCpuSeconds() {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of the line, counted from after the command name; clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The seconds the main thread has waited on a run queue so far: ready to run, another task on its
 * core (/proc schedstat's second field, in nanoseconds; 0 where the kernel keeps no schedstats).
 */
function mainWaitSeconds() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[1]) / 1e9;
  } catch {
    return 0;
  }
}

let since = { cpu: mainCpuSeconds(), wait: mainWaitSeconds(), elu: performance.eventLoopUtilization() };
// The main thread's garbage-collection pauses (each holds every request), since the last SIGUSR2.
const gc = { n: 0, totalMs: 0, maxMs: 0, over10: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.n++;
    gc.totalMs += e.duration;
    gc.maxMs = Math.max(gc.maxMs, e.duration);
    if (e.duration > 10) gc.over10++;
  }
}).observe({ entryTypes: ["gc"] });
// BENCH_BLOCKS=<file>: every stretch of over 25 ms in which the event loop did not come round,
// as {start_ms, ms}, its start on the monotonic clock a V8 CPU profile's timestamps use (µs there),
// so that BENCH_CPU_PROF's profile shows what held the loop.
const blocks = [];
if (process.env.BENCH_BLOCKS) {
  const monotonicMs = () => Number(process.hrtime.bigint() / 1000n) / 1000;
  let last = monotonicMs();
  setInterval(() => {
    const now = monotonicMs();
    if (now - last > 25) blocks.push({ start_ms: last, ms: now - last });
    last = now;
  }, 5).unref();
}
process.on("SIGUSR2", () => {
  delay.reset();
  blocks.length = 0;
  Object.assign(gc, { n: 0, totalMs: 0, maxMs: 0, over10: 0 });
  since = { cpu: mainCpuSeconds(), wait: mainWaitSeconds(), elu: performance.eventLoopUtilization() };
});
// Where the peak RSS goes: the main thread's own heap and its off-heap buffers (the rest is the
// worker threads' heaps, SQLite's cache and the code).
const peak = { heap: 0, external: 0 };
setInterval(() => {
  const m = process.memoryUsage();
  peak.heap = Math.max(peak.heap, m.heapTotal);
  peak.external = Math.max(peak.external, m.external);
}, 100).unref();
console.log(JSON.stringify({ url: server.url }));
process.on("SIGTERM", () => {
  const ms = (ns) => Math.round(ns / 1e6);
  const cpu = process.cpuUsage();
  console.log(
    JSON.stringify({
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      peak_main_heap_mb: Math.round(peak.heap / 2 ** 20),
      peak_main_external_mb: Math.round(peak.external / 2 ** 20),
      cpu_s: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
      loop_delay_p99_ms: ms(delay.percentile(99)),
      loop_delay_max_ms: ms(delay.max),
      main_cpu_s: Number((mainCpuSeconds() - since.cpu).toFixed(2)),
      main_wait_s: Number((mainWaitSeconds() - since.wait).toFixed(2)),
      main_busy: Number(performance.eventLoopUtilization(since.elu).utilization.toFixed(3)),
      gc_pauses: gc.n,
      gc_total_s: Number((gc.totalMs / 1000).toFixed(2)),
      gc_max_ms: Math.round(gc.maxMs),
      gc_over_10ms: gc.over10,
    }),
  );
  if (process.env.BENCH_BLOCKS) writeFileSync(process.env.BENCH_BLOCKS, JSON.stringify(blocks));
  void server.close().then(() => process.exit(0));
});
