import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it, vi } from "vitest";
import { runInGroup } from "../../src/data/python-process.js";
import { interpreterFacts } from "../../src/participant/interpreter-facts.js";
import { DEFAULT_LIMITS, launchSandbox } from "../../src/participant/sandbox.js";
import { interpreterBinds } from "../../src/participant/sandbox-python.js";
import { makeWorkDir, removeWorkDir } from "../../src/participant/work-dir.js";
import { requires } from "../helpers/requires.js";
import { VENV_PYTHON } from "../helpers/venv.js";

const VERSIONS = fileURLToPath(new URL("../fixtures/participant/versions.py", import.meta.url));
const frame = { ids: ["a", "b"], exped: ["e", "e"], columns: { feature_a: Float64Array.of(1, 2) } };
const CHOICES = ["BASECAMP_PYTHON", "VIRTUAL_ENV", "CONDA_PREFIX"] as const;
const saved = Object.fromEntries(CHOICES.map((k) => [k, process.env[k]]));

afterEach(() => {
  for (const k of CHOICES) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  vi.resetModules();
});

/** Modules afresh (the interpreter is probed once per process), the environment set as `env`, `--python` as `flag`. */
async function sandboxedRun(env: Partial<Record<(typeof CHOICES)[number], string>>, flag?: string) {
  for (const k of CHOICES) delete process.env[k];
  Object.assign(process.env, env);
  vi.resetModules();
  const { choosePython } = await import("../../src/data/python-interpreter.js");
  choosePython(flag);
  const { startPythonWorker } = await import("../../src/participant/python-worker.js");
  const { interpreterBanner } = await import("../../src/participant/interpreter-banner.js");
  const banner = await interpreterBanner("local");
  const started = await startPythonWorker({ source: { kind: "module", path: VERSIONS, params: {} }, isolation: "sandbox", label: "versions.py" });
  if (!started.ok) throw new Error(started.error);
  const out = await started.worker.predict(frame, null, 60);
  await started.worker.close();
  if (!out.ok) throw new Error(out.error);
  return { pandas: out.values[0], lightgbm: out.values[1] === 1, banner: banner.ok ? banner.line : banner.error };
}

const venv = VENV_PYTHON ?? "";
const withVenv = VENV_PYTHON || process.env.CI ? requires("sandbox").it : it.skip;

withVenv("runs the project venv's interpreter in the sandbox, chosen by VIRTUAL_ENV, BASECAMP_PYTHON or --python: lightgbm imports, pandas is 3", async () => {
  expect(VENV_PYTHON, "the project venv (.venv, made by .ci/run)").not.toBeNull();
  const prefix = venv.replace(/\/bin\/python$/, "");
  for (const [env, flag] of [[{ VIRTUAL_ENV: prefix }, undefined], [{ BASECAMP_PYTHON: venv }, undefined], [{ BASECAMP_PYTHON: "/usr/bin/python3" }, venv]] as const) {
    const ran = await sandboxedRun(env, flag);
    expect(ran, JSON.stringify(env)).toMatchObject({ pandas: 3, lightgbm: true });
    expect(ran.banner).toMatch(new RegExp(`^python: ${venv.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(Python 3\\.\\d+\\.\\d+; pandas 3\\.[\\d.]+, numpy [\\d.]+, cloudpickle 3\\.[\\d.]+, lightgbm [\\d.]+\\) sandboxed \\(bubblewrap\\)$`));
  }
}, 180_000);

requires("sandbox").it("runs Debian's python3 when it is chosen: pandas 1.5, no lightgbm", async () => {
  const ran = await sandboxedRun({ BASECAMP_PYTHON: "/usr/bin/python3" });
  expect(ran).toMatchObject({ pandas: 1, lightgbm: false });
  expect(ran.banner).toMatch(/^python: \/usr\/bin\/python3 \(Python 3\.11\.\d+; pandas 1\.5\.\d+, numpy [\d.]+, cloudpickle 2\.[\d.]+\) sandboxed \(bubblewrap\)$/);
}, 120_000);

/** A pyenv interpreter under /root (mode 700 to the sandbox's uid 65534), where this machine has one. */
const PYENV = (() => {
  const versions = "/root/.pyenv/versions";
  if (process.getuid?.() !== 0 || !existsSync(versions)) return null;
  const found = readdirSync(versions).map((v) => `${versions}/${v}/bin/python3`).find((p) => existsSync(p));
  return found ?? null;
})();

(PYENV ? requires("sandbox").it : it.skip)("runs an interpreter that lives under /root (mode 700) in the sandbox, as uid 65534, through a read-only view of its prefix", async () => {
  const probed = await interpreterFacts(PYENV!);
  if (!probed.ok) throw new Error(probed.error);
  const binds = await interpreterBinds(probed.facts);
  if (!binds.ok) throw new Error(binds.error);
  expect(binds.binds.some((b) => b.inside.startsWith("/root/") && b.host !== b.inside)).toBe(true);
  const { dir, scratch } = await makeWorkDir(DEFAULT_LIMITS.scratch_bytes);
  try {
    const code = "import os, sys\ntry:\n    open(sys.prefix + '/written', 'w')\n    w = 'writable'\nexcept OSError:\n    w = 'read-only'\nprint(sys.prefix, os.getuid(), w)";
    const started = launchSandbox({ python: { path: probed.facts.executable, binds: binds.binds }, scratch, files: {}, args: ["-c", code], keep: 3 }, DEFAULT_LIMITS);
    if (!started.ok) throw new Error(started.error);
    let stdout = "";
    const end = await runInGroup(started.launch.command, ["ignore", "pipe", "pipe"], 60, (child) => child.stdout!.on("data", (b: Buffer) => (stdout += b.toString())));
    await started.launch.release();
    expect(end).toMatchObject({ kind: "closed", code: 0 });
    expect(stdout.trim()).toBe(`${probed.facts.executable.replace(/\/bin\/python3[.\d]*$/, "")} 65534 read-only`);
  } finally {
    await removeWorkDir(dir);
  }
}, 120_000);

requires("sandbox").it("runs a venv that lives under /tmp on the host (a temporary checkout's), which the sandbox's own /tmp must not hide", async () => {
  const home = mkdtempSync(join(tmpdir(), "basecamp-venv-"));
  try {
    execFileSync("/usr/bin/python3", ["-m", "venv", "--without-pip", join(home, ".venv")]);
    const probed = await interpreterFacts(join(home, ".venv", "bin", "python"));
    if (!probed.ok) throw new Error(probed.error);
    const binds = await interpreterBinds(probed.facts);
    if (!binds.ok) throw new Error(binds.error);
    const { dir, scratch } = await makeWorkDir(DEFAULT_LIMITS.scratch_bytes);
    try {
      const started = launchSandbox({ python: { path: join(home, ".venv", "bin", "python"), binds: binds.binds }, scratch, files: {}, args: ["-c", "import sys; print(sys.prefix)"], keep: 3 }, DEFAULT_LIMITS);
      if (!started.ok) throw new Error(started.error);
      let stdout = "";
      const end = await runInGroup(started.launch.command, ["ignore", "pipe", "pipe"], 60, (child) => child.stdout!.on("data", (b: Buffer) => (stdout += b.toString())));
      await started.launch.release();
      expect(end).toMatchObject({ kind: "closed", code: 0 });
      expect(stdout.trim()).toBe(realpathSync(join(home, ".venv")));
    } finally {
      await removeWorkDir(dir);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}, 120_000);
