import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { encodeRequest } from "../../src/participant/wire.js";
import { WorkerProcess, type CallOutcome } from "../../src/participant/worker-process.js";
import { requires } from "../helpers/requires.js";

/**
 * A stand-in for worker.py speaking its wire format: it answers each request's `n` back, as the mode
 * (its argument) says: "pair" reads two requests, then writes both answers in one write; "extra"
 * answers one request twice in one write; "stall" reads a request and never answers.
 */
const FAKE = `
import json, os, struct, sys, time
def read(n):
    out = b""
    while len(out) < n:
        got = os.read(3, n - len(out))
        if not got:
            sys.exit(0)
        out += got
    return out
def request():
    h, b = struct.unpack("<II", read(8))
    header = json.loads(read(h))
    read(b)
    return header["n"]
def answer(n):
    head = json.dumps({"ok": True, "n": n}).encode()
    return struct.pack("<II", len(head), 0) + head
mode = sys.argv[1]
while True:
    if mode == "pair":
        os.write(4, b"".join(answer(n) for n in (request(), request())))
    elif mode == "extra":
        os.write(4, answer(request()) * 2)
    else:
        request()
        time.sleep(3600)
`;

const dir = mkdtempSync(join(tmpdir(), "basecamp-worker-process-"));
const script = join(dir, "fake.py");
writeFileSync(script, FAKE);
const started: WorkerProcess[] = [];

function fake(mode: "pair" | "extra" | "stall"): WorkerProcess {
  const worker = new WorkerProcess({ file: "python3", args: ["-B", script, mode], env: process.env, cwd: dir });
  started.push(worker);
  return worker;
}

const ask = (worker: WorkerProcess, n: number, seconds = 30) => worker.call(encodeRequest({ op: "predict", n }), seconds, "predict");
const numbers = (outcomes: CallOutcome[]) => outcomes.map((o) => (o.ok ? o.answer.header.n : o.error));

afterEach(async () => {
  for (const worker of started.splice(0)) {
    worker.kill();
    await worker.exited;
  }
});

requires("python").describe("a worker process's calls written behind one another", () => {
  it("reads two answers that arrive in one chunk, each for its own call, in order", async () => {
    const worker = fake("pair");
    expect(numbers(await Promise.all([ask(worker, 1), ask(worker, 2)]))).toEqual([1, 2]);
    expect(numbers(await Promise.all([ask(worker, 3), ask(worker, 4)]))).toEqual([3, 4]);
    expect(worker.alive).toBe(true);
  });

  it("stops a worker that answers once more than it was asked, failing the call", async () => {
    const worker = fake("extra");
    expect(numbers([await ask(worker, 1)])).toEqual(["predict's answer cannot be read: it wrote more than one answer; the worker was stopped"]);
    expect(worker.alive).toBe(false);
  });

  it("keeps the stat files of the process it limits open while it runs, and closes them once it has exited", async () => {
    const open = () => readdirSync("/proc/self/fd").length;
    const warm = fake("pair"); // the first worker's mark also opens /proc/uptime, kept for good
    expect(numbers(await Promise.all([ask(warm, 1), ask(warm, 2)]))).toEqual([1, 2]);
    warm.kill();
    await warm.exited;
    const before = open();
    const worker = fake("pair");
    expect(numbers(await Promise.all([ask(worker, 1), ask(worker, 2)]))).toEqual([1, 2]);
    expect(numbers(await Promise.all([ask(worker, 3), ask(worker, 4)]))).toEqual([3, 4]);
    worker.kill();
    await worker.exited;
    expect(open()).toBe(before);
  });

  it("fails a call written behind one that was stopped at its limit as unbegun: none of it ran, so it may be asked again", async () => {
    const worker = fake("stall");
    const [first, behind] = await Promise.all([ask(worker, 1, 1), ask(worker, 2)]);
    expect(first).toEqual({ ok: false, error: "predict did not finish within 1 s and was stopped" });
    expect(behind).toEqual({ ok: false, error: "predict was not begun: the worker ended first (killed)", unbegun: true });
  });
});
