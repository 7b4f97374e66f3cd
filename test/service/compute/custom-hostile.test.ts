import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { requireSafeSource } from "../../../src/service/compute/custom-scan.js";
import type { JobView } from "../../../src/service/compute/job-view.js";
import { fitInSandbox } from "../../../src/service/compute/python-fit.js";
import { eventHarness } from "../../helpers/event-harness.js";
import { requires } from "../../helpers/requires.js";

const ANN = "key-ann-00000001";
const SECOND = 1000;
/** A $5 grant, and 5 real seconds for a sandboxed run, so an endless loop is stopped soon. */
const funded = { compute: { budget_usd: "5", wall_seconds: 5 } };

const custom = (body: string) => ({ model: "custom", custom_model_fn: `def build_model(params):\n${body.replace(/^/gm, "    ")}\n` });

/** Launches a custom job (with `wall_seconds` of real time) and answers it once ended. */
async function ended(source: Record<string, unknown>, wall_seconds = 5) {
  const h = eventHarness({ compute: { ...funded.compute, wall_seconds } });
  const job = (await h.service.train(ANN, source)) as JobView;
  await h.at(h.clock.now() + 120 * SECOND);
  return { h, job: await h.service.getJob(ANN, job.job_id) };
}

requires("python", "sandbox", "training").describe("custom_model_fn's static scan", () => {
  const h = eventHarness(funded);
  const refused = (source: string) => h.service.train(ANN, { model: "custom", custom_model_fn: source });

  it("refuses processes, sockets, files and evaluation by name, before anything is held", async () => {
    const cases: [string, string][] = [
      ["import os\ndef build_model(params):\n    os.fork()\n", "os"],
      ["import subprocess\ndef build_model(params):\n    subprocess.run(['id'])\n", "subprocess"],
      ["import socket\ndef build_model(params):\n    return socket.socket()\n", "socket"],
      ["from os import system\ndef build_model(params):\n    system('id')\n", "os.system"],
      ["def build_model(params):\n    return __import__('os')\n", "builtins.__import__"],
      ["def build_model(params):\n    return f\"{eval('1')}\"\n", "builtins.eval"],
      ["def build_model(params):\n    return open('/etc/passwd').read()\n", "builtins.open"],
      ["import concurrent.futures\ndef build_model(params):\n    pass\n", "concurrent.futures"],
    ];
    for (const [source, name] of cases) {
      await expect(refused(source)).rejects.toMatchObject({ status: 400, code: "custom_model_fn_unsafe", message: expect.stringContaining(`may not use ${name}:`) });
    }
    expect(await h.service.listJobs(ANN)).toEqual({ jobs: [] });
    expect(await h.service.computeCredits(ANN)).toMatchObject({ reserved_cents: 0, available_cents: 500 });
  });

  it("refuses a getattr or attrgetter whose name is computed, and holds a constant name to the policy like an attribute", async () => {
    const cases: [string, string][] = [
      ["def build_model(params):\n    return getattr(build_model, '__glo' + 'bals__')\n", "an attribute by a computed name (line 2)"],
      ["import operator\ndef build_model(params):\n    n = params['n']\n    return operator.attrgetter(n)(build_model)\n", "an attribute by a computed name (line 4)"],
      ["def build_model(params):\n    g = getattr\n    return g(build_model, 'x')\n", "builtins.getattr"],
      ["def build_model(params):\n    return getattr(build_model, '__globals__')\n", ".__globals__"],
      ["from operator import attrgetter\ndef build_model(params):\n    return attrgetter('__code__.__globals__')(build_model)\n", ".__globals__"],
    ];
    for (const [source, name] of cases) {
      await expect(refused(source)).rejects.toMatchObject({ status: 400, code: "custom_model_fn_unsafe", message: expect.stringContaining(`may not use ${name}:`) });
    }
    await expect(requireSafeSource("import operator\ndef build_model(params):\n    return getattr(params, 'get', None) and operator.attrgetter('a.b')\n")).resolves.toBeUndefined();
  });

  it("refuses a source that does not parse or defines no build_model, and a custom_model_fn on another model", async () => {
    await expect(refused("def build_model(params)\n    pass\n")).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^custom_model_fn: does not parse: line 1/) });
    await expect(refused("def make(params):\n    pass\n")).rejects.toMatchObject({ status: 400, message: "custom_model_fn: defines no top-level build_model(params)" });
    await expect(h.service.train(ANN, { model: "custom" })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^custom_model_fn: required/) });
    await expect(h.service.train(ANN, { model: "ridge", custom_model_fn: "x = 1" })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("only model custom") });
  });
});

requires("python", "sandbox", "training").describe("a hostile custom_model_fn that passes the scan fails its job with a reason", () => {
  it("reaches for the network: there is none in the sandbox", async () => {
    const { job } = await ended(custom("from sklearn.datasets import fetch_openml\nreturn fetch_openml(data_id=61, data_home='/tmp/sk', parser='liac-arff', n_retries=1, delay=0)"), 60);
    expect(job).toMatchObject({ status: "failed", artifact: { available: false }, metrics: null });
    expect(job.error_message).toMatch(/^build_model\(params\) raised (URLError|OSError)/);
  });

  it("reads a file outside its workspace: the host's files are not there", async () => {
    const here = fileURLToPath(import.meta.url);
    const { job } = await ended(custom(`from sklearn.datasets import load_svmlight_file\nreturn load_svmlight_file(${JSON.stringify(here)})`), 60);
    expect(job).toMatchObject({ status: "failed" });
    expect(job.error_message).toMatch(/^build_model\(params\) raised FileNotFoundError/);
  });

  it("loops for ever: stopped at its real-time limit", async () => {
    const { h, job } = await ended(custom("while True:\n    pass"));
    expect(job).toMatchObject({ status: "failed" });
    expect(job.error_message).toMatch(/did not finish within 5 s and was stopped|SIGXCPU/);
    // Charged its simulated runtime like any ended job; the grant is otherwise untouched.
    expect(await h.service.computeCredits(ANN)).toMatchObject({ reserved_cents: 0, available_cents: 500 - (job.cost_cents as number) });
  });

  it("returns something that is no estimator", async () => {
    const { job } = await ended(custom("return 42"), 60);
    expect(job).toMatchObject({ status: "failed", error_message: "build_model(params) returned builtins.int, which has no fit()" });
  });
});

requires("python", "sandbox", "training").describe("the sandbox contains what the scan would have refused", () => {
  const h = eventHarness(funded);
  const { dataset } = h.world;
  /** A run straight through the trainer, the scan bypassed. */
  const run = (body: string) =>
    fitInSandbox({
      train: dataset.train,
      benchmark: dataset.benchmarks.train,
      target: dataset.target,
      core: dataset.core_features,
      model: "custom",
      params: { seed: null },
      features: dataset.features,
      custom_model_fn: `import os, socket\ndef build_model(params):\n${body.replace(/^/gm, "    ")}\n`,
      wall_seconds: 10,
      isolation: "sandbox",
    });

  it("a fork bomb meets the process limit and ends", async () => {
    // Its answer coming at all is the sign it ended (wall_seconds, 10, bounds a run that does not).
    const out = await run("while True:\n    os.fork()");
    expect(out).toMatchObject({ ok: false, error: expect.stringMatching(/BlockingIOError|Resource temporarily unavailable|did not finish|crashed/) });
  });

  it("a raw socket finds no network", async () => {
    const out = await run("socket.create_connection(('1.1.1.1', 80), timeout=2)");
    expect(out).toMatchObject({ ok: false, error: expect.stringMatching(/^build_model\(params\) raised OSError: .*(unreachable|Network)/) });
  });

  it("a write outside the scratch dir is refused by the read-only root", async () => {
    const out = await run("open('/usr/basecamp-was-here', 'w')");
    expect(out).toMatchObject({ ok: false, error: expect.stringMatching(/^build_model\(params\) raised (OSError|PermissionError)/) });
  });
});
