/**
 * Everyone else's latency while one agent uploads a large batch: a served event (its own process,
 * realtime clock, its store in a file) takes one agent's batch of 25 predictions CSV files of 20 MiB
 * each (valid: distinct ids, values in [0, 1]) on the practice lane, while 20 other agents
 * (BENCH_AGENTS) poll `GET /api/v1/status` and submit small practice uploads in a loop, over a ring
 * of models each (a model takes one run at a time), and the web app is open in headless Chromium:
 * the first looping agent's page and the organiser's console, both live (BENCH_PAGES=0 leaves
 * them closed; BENCH_AGENTS=2 BENCH_PAGES=0 is the bench as it was before the web app). Runs are scored `scoring_seconds` (2) after acceptance, so the
 * batch's runs are scored while the others are measured. The batch is sent by a process of its own
 * (served-latency-batch.ts), so that the client measuring the others does not stream it too, and the
 * others call through node:http, the cheapest client at hand (the client shares the cores). Prints the others' p50/p99 for status and
 * for a submit, the batch's wall time, the server's event-loop delay while they are measured, its CPU time (and its main
 * thread's, per measured request: a figure a busy machine hardly moves), the seconds its main thread waited for a core, and peak RSS. Goal:
 * p99 under 50 ms, RSS under 600 MB. BENCH_FILES and BENCH_ROWS shrink the batch (e.g. 10 × 200 000
 * rows) for a quicker look; BENCH_CPU_PROF=<dir>
 * writes the server's CPU profile there, BENCH_TRACE_GC=<file> its collections (`--trace-gc`),
 * BENCH_BLOCKS=<file> each stretch of over 25 ms its event loop was held (served-latency-server.js).
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { Agent } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { chromium, type Browser } from "playwright-core";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../sim/agents/event-upload.js";
import { send } from "./http-send.js";
import { ensureBuilt, report } from "./measure.js";

const FILES = Number(process.env.BENCH_FILES ?? 25);
const ROWS = Number(process.env.BENCH_ROWS ?? 580_000); // 20 MiB of CSV per file
const SMALL_ROWS = 200;
/** Models per measuring agent, used in turn; one is used again only after its run has finished. */
const RING = 64;
const SCORING_SECONDS = 2;
const MIB = 1024 * 1024;
/** Agents looping status + small upload beside the batch. */
const AGENTS = Number(process.env.BENCH_AGENTS ?? 20);
const PAGES = process.env.BENCH_PAGES !== "0";
const ORGANISER = "organiser-bench-0001";
const loopers = Array.from({ length: AGENTS }, (_, i) => ({ name: `m${i}`, key: `key-m${String(i).padStart(3, "0")}-00000000`, tag: `m${i}x` }));

const scenario = {
  name: "served-latency",
  seed: 5,
  kind: "event",
  dataset: { n_features: 10, n_core: 4, train_expeds: 10, validation_expeds: 4, rows_per_exped: 40, gap_expeds: 2, universe_size: 30 },
  event: {
    start: "2026-09-23T13:00:00Z", build_phase_minutes: 10, n_rounds: 3, round_minutes: 10, expeds_per_round: 2,
    upload_pool: null, scoring_seconds: SCORING_SECONDS, predictions_max_bytes: 21 * MIB, predictions_max_rows: 1_000_000, predictions_max_uncompressed_bytes: 256 * MIB, upload_check_memory_mb: Number(process.env.BENCH_CHECK_MB ?? 512), upload_check_workers: Number(process.env.BENCH_CHECK_WORKERS ?? 2),
    // Every looping agent's upload and the batch may be read at once.
    intake_concurrency: AGENTS + 1,
  },
  organiser_key: ORGANISER,
  rate_limit: { ceiling: 1_000_000, window_seconds: 60 },
  agents: [
    { name: "ann", key: "key-ann-00000001", scope: "event", strategy: "event_ridge" },
    ...loopers.map(({ name, key }) => ({ name, key, scope: "event", strategy: "event_ridge" })),
  ],
};

async function startChild(): Promise<{ url: string; measureFromNow: () => void; stop: () => Promise<Record<string, number>> }> {
  const server = fileURLToPath(new URL("./served-latency-server.js", import.meta.url));
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there (where a stall comes from).
  const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_TRACE_GC=<file>: the server traces each collection (--trace-gc) and its lines go to that file.
  const gcTrace = process.env.BENCH_TRACE_GC;
  const child = spawn(process.execPath, [...prof, ...(gcTrace ? ["--trace-gc"] : []), server, JSON.stringify(scenario)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // A bench that fails midway still stops its server (which removes its store) as it exits.
  process.once("exit", () => child.kill("SIGTERM"));
  const all = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const gcLog = gcTrace ? createWriteStream(gcTrace) : null;
  /** The server's own lines (JSON), the collector's traced ones set aside. */
  const lines = {
    async next(): Promise<IteratorResult<string>> {
      for (;;) {
        const line = await all.next();
        if (line.done || (line.value as string).startsWith("{")) return line;
        gcLog?.write(`${line.value as string}\n`);
      }
    },
  };
  const first = JSON.parse((await lines.next()).value as string) as { url: string };
  return {
    url: first.url,
    // The server's event-loop delay is counted from here on.
    measureFromNow: () => void child.kill("SIGUSR2"),
    stop: async () => {
      child.kill("SIGTERM");
      return JSON.parse((await lines.next()).value as string) as Record<string, number>;
    },
  };
}

function ids(n: number, tag: string): string[] {
  return Array.from({ length: n }, (_, i) => `${tag}${i.toString(16).padStart(16 - tag.length, "0")}`);
}

/** The batch's sender, in a process of its own (served-latency-batch.ts): its form built, it sends on `go()`. */
function startBatch(url: string, key: string, models: string[]) {
  const sender = fileURLToPath(new URL("./served-latency-batch.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", sender, JSON.stringify({ url, key, models, rows: ROWS })], { stdio: ["pipe", "pipe", "inherit"] });
  process.once("exit", () => child.kill("SIGTERM"));
  return { lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), go: () => child.stdin.write("go\n") };
}

let retries = 0;

/** The measuring agents' connections, kept alive (http-send.ts: why node:http). */
const connections = new Agent({ keepAlive: true });

async function call(url: string, method: string, path: string, key: string, body?: string | Multipart): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { "X-API-Key": key };
  if (typeof body === "string") headers["content-type"] = "application/json";
  if (body instanceof Multipart) headers["content-type"] = body.type;
  const bytes = body instanceof Multipart ? body.bytes : body === undefined ? undefined : Buffer.from(body);
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await send(url + path, method, headers, bytes, connections);
      return { status: res.status, json: JSON.parse(res.text) };
    } catch (e) {
      // A pooled connection the server closed as idle: a client retries a GET once on a new one.
      if (method !== "GET" || attempt > 1) throw new Error(`${method} ${path}: ${(e as Error).message} (${String((e as Error).cause)})`);
      retries++;
    }
  }
}

async function model(url: string, key: string, name: string): Promise<string> {
  const a = await call(url, "POST", "/api/v1/models", key, JSON.stringify({ name }));
  if (a.status !== 201) throw new Error(`create_model: ${a.status} ${JSON.stringify(a.json)}`);
  return a.json.name as string;
}

/** A multipart body already encoded, as a load generator sends it: no form encoding on the measured client. */
class Multipart {
  constructor(
    readonly bytes: Uint8Array<ArrayBuffer>,
    readonly type: string,
  ) {}
}

const BOUNDARY = "bench-boundary-7f3a9c";

/**
 * The small upload's body, its fixed parts encoded once: the model, the predictions part's head,
 * then (after the CSV, which differs each time so that no file repeats) the sample pickle and its fields.
 */
function smallUploadBody(): (model: string, csv: Uint8Array) => Multipart {
  const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const file = (name: string, filename: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const head = Buffer.from(file("predictions", "p.csv"));
  const tail = Buffer.concat([
    Buffer.from(`\r\n${file("model_pkl", "predict.pkl")}`),
    samplePkl,
    Buffer.from(`\r\n${field("model_pkl_sha256", samplePklSha256)}${field("model_pkl_python_version", "3.12")}--${BOUNDARY}--\r\n`),
  ]);
  const type = `multipart/form-data; boundary=${BOUNDARY}`;
  return (model, csv) => new Multipart(Buffer.concat([Buffer.from(field("model_id", model)), head, csv, tail]) as Uint8Array<ArrayBuffer>, type);
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** The web app as the bench leaves it open: one agent's page on its boards, the organiser's console; each signed in and live. */
async function openPages(url: string, key: string): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  for (const [path, k] of [["/", key], ["/console", ORGANISER]]) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url + path);
    await page.fill("#key", k);
    await page.click("#signin button[type=submit]");
    await page.waitForSelector("#live-state:text('live')");
  }
  return browser;
}

export async function run(): Promise<void> {
  ensureBuilt();
  const { url, measureFromNow, stop } = await startChild();
  const batchModels = await Promise.all(Array.from({ length: FILES }, (_, i) => model(url, "key-ann-00000001", `big${i}`)));
  const rings = new Map<string, { models: string[]; lastUsed: number[] }>();
  for (const { key, tag } of loopers) {
    const models = await Promise.all(Array.from({ length: RING }, (_, i) => model(url, key, `${tag}${i}`)));
    rings.set(key, { models, lastUsed: models.map(() => -Infinity) });
  }
  const batch = startBatch(url, "key-ann-00000001", batchModels);
  const { file_mb: fileMb } = JSON.parse((await batch.lines.next()).value as string) as { file_mb: number };

  const status: number[] = [];
  const submit: number[] = [];
  let done = false;
  const body = smallUploadBody();
  const others = async (key: string, tag: string, once = false) => {
    const small = ids(SMALL_ROWS, tag);
    const ring = rings.get(key) as { models: string[]; lastUsed: number[] };
    let k = once ? 0 : 1;
    while (!done || once) {
      let t = performance.now();
      const s = await call(url, "GET", "/api/v1/status", key);
      status.push(performance.now() - t);
      if (s.status !== 200) throw new Error(`status ${s.status}`);
      const at = k % RING;
      const idle = ring.lastUsed[at] + (SCORING_SECONDS + 0.5) * 1000 - performance.now();
      if (idle > 0) await new Promise((r) => setTimeout(r, idle));
      const own = Float64Array.from({ length: SMALL_ROWS }, (_, i) => ((i + 0.5) / SMALL_ROWS) * 0.9 + k * 1e-6);
      k++;
      const f = body(ring.models[at], predictionsCsv(small, own));
      t = performance.now();
      const a = await call(url, "POST", "/api/v1/diagnostics/upload", key, f);
      submit.push(performance.now() - t);
      ring.lastUsed[at] = performance.now();
      if (a.status !== 202) throw new Error(`submit ${a.status} ${JSON.stringify(a.json)}`);
      if (once) return;
    }
  };
  // The upload check pool's threads start with the first uploads: measured apart.
  let t = performance.now();
  await Promise.all(loopers.map(({ key, tag }) => others(key, tag, true)));
  const browser = PAGES ? await openPages(url, loopers[0].key) : null;
  const coldMs = performance.now() - t;
  status.length = 0;
  submit.length = 0;
  measureFromNow();
  // The client's own event-loop delay: a request's time spent waiting on the load generator, not on the server.
  const clientDelay = monitorEventLoopDelay({ resolution: 5 });
  clientDelay.enable();
  const clientCpu = process.cpuUsage();
  t = performance.now();
  const loops = loopers.map(({ key, tag }) => others(key, tag));
  batch.go();
  const sent = JSON.parse((await batch.lines.next()).value as string) as { status: number; ms: number; body: string };
  const batchMs = sent.ms;
  done = true;
  await Promise.all(loops);
  clientDelay.disable();
  const clientCpuS = (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(clientCpu));
  await browser?.close();
  connections.destroy();
  const server = await stop();
  if (sent.status !== 202) throw new Error(`batch ${sent.status} ${sent.body}`);
  report(`served latency: others while one agent uploads a batch of ${FILES} large files on the practice lane`, {
    workload: `${FILES} CSV files × ${ROWS} rows (${fileMb} MiB each); ${AGENTS} agents loop status + ${SMALL_ROWS}-row practice upload over ${RING} models; runs scored ${SCORING_SECONDS} s after acceptance; ${PAGES ? "an agent's page and the console open in Chromium, live" : "no page open"}; the store where \`serve\` keeps it without --db (a temporary file)`,
    cold_first_ms: coldMs.toFixed(0),
    batch_s: (batchMs / 1000).toFixed(1),
    status_n: status.length,
    status_p50_ms: percentile(status, 50).toFixed(1),
    status_p99_ms: percentile(status, 99).toFixed(1),
    submit_n: submit.length,
    submit_p50_ms: percentile(submit, 50).toFixed(1),
    submit_p99_ms: percentile(submit, 99).toFixed(1),
    get_retries: retries,
    client_loop_p99_ms: (clientDelay.percentile(99) / 1e6).toFixed(0),
    client_loop_max_ms: (clientDelay.max / 1e6).toFixed(0),
    client_cpu_s: clientCpuS.toFixed(1),
    server_loop_p99_ms: server.loop_delay_p99_ms,
    server_loop_max_ms: server.loop_delay_max_ms,
    server_cpu_s: server.cpu_s,
    server_main_cpu_s: server.main_cpu_s,
    // The main thread's CPU per measured request (the batch's share included): what 20 looping agents queue behind.
    server_main_cpu_ms_per_request: ((server.main_cpu_s * 1000) / (status.length + submit.length)).toFixed(2),
    // Seconds the main thread was ready but another task had its core: on a machine whose cores the load shares.
    server_main_runqueue_wait_s: server.main_wait_s,
    server_main_busy: server.main_busy,
    server_gc: `${server.gc_pauses} pauses, ${server.gc_total_s} s in all, max ${server.gc_max_ms} ms, ${server.gc_over_10ms} over 10 ms`,
    server_peak_rss_mb: server.peak_rss_mb,
    server_peak_main_heap_mb: server.peak_main_heap_mb,
    server_peak_main_external_mb: server.peak_main_external_mb,
  });
}
