import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { findPython } from "../../src/data/python-interpreter.js";
import { probeSandbox } from "../../src/participant/isolation.js";

/** What some tests need of this machine beyond Node. */
export type Need = "python" | "sandbox" | "chromium" | "venv" | "ray" | "training" | "scipy";

/** Whether each need is met here, and why not. */
export type Machine = Record<Need, { ok: true } | { ok: false; reason: string }>;

/** Debian's chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";

/** The project venv's interpreter: made by .ci/run, with what Debian does not package (LightGBM) or packages older (pandas, cloudpickle). */
export const VENV_PATH = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));

/** What the project venv must import, and the versions it must be at least. */
const VENV_CHECK = [
  "import sys, pyarrow, lightgbm, sklearn, numpy, pandas, cloudpickle",
  "old = [m.__name__ + ' ' + m.__version__ for m in (pandas, cloudpickle) if int(m.__version__.split('.')[0]) < 3]",
  "sys.exit('older than 3: ' + ', '.join(old) if old else 0)",
].join("\n");

/** How to make the venv, for the one-line notice. */
const MAKE_VENV = `/usr/bin/python3 -m venv .venv && .venv/bin/pip install --retries 0 pyarrow lightgbm 'pandas>=3' 'cloudpickle>=3' numpy scikit-learn`;

/** What each need is called in a message, and the Debian packages that meet it (the venv: none, it is made). */
const NEEDS: Record<Need, { what: string; packages: string[] }> = {
  python: { what: "Python with pandas, numpy and cloudpickle", packages: ["python3-pandas", "python3-numpy", "python3-cloudpickle"] },
  sandbox: { what: "a bubblewrap sandbox", packages: ["bubblewrap"] },
  chromium: { what: CHROMIUM, packages: ["chromium"] },
  venv: { what: "the project venv .venv with lightgbm, pyarrow, pandas 3 and cloudpickle 3", packages: ["python3-venv"] },
  ray: { what: "Ray in the project venv (the sweep's Ray tests start a head on 127.0.0.1)", packages: [] },
  training: { what: "scikit-learn and xgboost in the Python that runs participants' code (hosted training of random_forest, mlp, xgboost and custom)", packages: ["python3-sklearn", "python3-xgboost"] },
  scipy: { what: "scipy in Debian's python3 (the backtest diagnostics' numpy reference)", packages: ["python3-scipy"] },
};

/** Probes each need once: Python by the project's own interpreter probe, the sandbox by probeSandbox, chromium by its path. */
export async function probeMachine(): Promise<Machine> {
  const python = await findPython();
  // Each an interpreter's start and imports: run side by side.
  const [sandbox, venv, ray, training, scipy] = await Promise.all([
    probeSandbox(),
    probeVenv(),
    probeVenvImports("import ray"),
    python.ok ? probeImports(python.path, "import sklearn, xgboost") : { ok: false as const, reason: python.error },
    probeImports("/usr/bin/python3", "import scipy.stats"),
  ]);
  return {
    python: python.ok ? { ok: true } : { ok: false, reason: python.error },
    sandbox: sandbox.ok ? { ok: true } : { ok: false, reason: sandbox.reason },
    chromium: existsSync(CHROMIUM) ? { ok: true } : { ok: false, reason: `${CHROMIUM} is not installed` },
    venv,
    ray,
    training,
    scipy,
  };
}

function probeVenv(): Promise<Machine["venv"]> {
  return probeVenvImports(VENV_CHECK);
}

/** Whether the project venv's interpreter runs `check` (its imports and checks) without an error, and why not. */
function probeVenvImports(check: string): Promise<Machine["venv"]> {
  if (!existsSync(VENV_PATH)) return Promise.resolve({ ok: false, reason: `${VENV_PATH} does not exist` });
  return probeImports(VENV_PATH, check);
}

/** Whether `python` runs `check` without an error, and why not (the last line of its stderr). */
function probeImports(python: string, check: string): Promise<Machine["venv"]> {
  return new Promise((resolve) => {
    execFile(python, ["-c", check], { timeout: 120_000 }, (error, _stdout, stderr) => {
      resolve(error ? { ok: false, reason: stderr.trim().split("\n").pop() || error.message } : { ok: true });
    });
  });
}

/** The needs among `needs` this machine does not meet. A sandbox runs Python, so it is missing whenever Python is. */
export function missingOf(machine: Machine, needs: readonly Need[]): Need[] {
  return needs.filter((n) => !machine[n].ok);
}

/**
 * One line naming what is missing and how to install it, e.g. for the skip notice or a CI failure.
 * Without Python the sandbox cannot be probed: bubblewrap is named only when `bwrap` is absent too;
 * nor can that Python's training modules: they are named once it is there.
 */
export function describeMissing(machine: Machine, needs: readonly Need[]): string {
  const missing = missingOf(machine, needs).filter((n) => !(n === "sandbox" && !machine.python.ok && hasBwrap()) && !(n === "training" && !machine.python.ok));
  const named = missing.map((n) => {
    const status = machine[n];
    return `${NEEDS[n].what} (${status.ok ? "" : status.reason})`;
  });
  const packages = missing.flatMap((n) => NEEDS[n].packages);
  const steps = [
    ...(packages.length > 0 ? [`sudo apt-get install ${packages.join(" ")}`] : []),
    ...(missing.includes("venv") ? [`make the venv with: ${MAKE_VENV}`] : []),
    ...(missing.includes("ray") ? [".venv/bin/pip install --retries 0 ray"] : []),
  ];
  return `${named.join("; ")}; install with: ${steps.join(", then ")}`;
}

function hasBwrap(): boolean {
  return spawnSync("bwrap", ["--version"], { stdio: "ignore" }).status === 0;
}
