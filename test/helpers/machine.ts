import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findPython } from "../../src/data/python-interpreter.js";
import { probeSandbox } from "../../src/participant/isolation.js";

/** What some tests need of this machine beyond Node. */
export type Need = "python" | "sandbox" | "chromium";

/** Whether each need is met here, and why not. */
export type Machine = Record<Need, { ok: true } | { ok: false; reason: string }>;

/** Debian's chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";

/** What each need is called in a message, and the Debian packages that meet it. */
const NEEDS: Record<Need, { what: string; packages: string[] }> = {
  python: { what: "Python with pandas, numpy and cloudpickle", packages: ["python3-pandas", "python3-numpy", "python3-cloudpickle"] },
  sandbox: { what: "a bubblewrap sandbox", packages: ["bubblewrap"] },
  chromium: { what: CHROMIUM, packages: ["chromium"] },
};

/** Probes each need once: Python by the project's own interpreter probe, the sandbox by probeSandbox, chromium by its path. */
export async function probeMachine(): Promise<Machine> {
  const python = await findPython();
  const sandbox = await probeSandbox();
  return {
    python: python.ok ? { ok: true } : { ok: false, reason: python.error },
    sandbox: sandbox.ok ? { ok: true } : { ok: false, reason: sandbox.reason },
    chromium: existsSync(CHROMIUM) ? { ok: true } : { ok: false, reason: `${CHROMIUM} is not installed` },
  };
}

/** The needs among `needs` this machine does not meet. A sandbox runs Python, so it is missing whenever Python is. */
export function missingOf(machine: Machine, needs: readonly Need[]): Need[] {
  return needs.filter((n) => !machine[n].ok);
}

/**
 * One line naming what is missing and how to install it, e.g. for the skip notice or a CI failure.
 * Without Python the sandbox cannot be probed: bubblewrap is named only when `bwrap` is absent too.
 */
export function describeMissing(machine: Machine, needs: readonly Need[]): string {
  const missing = missingOf(machine, needs).filter((n) => !(n === "sandbox" && !machine.python.ok && hasBwrap()));
  const named = missing.map((n) => {
    const status = machine[n];
    return `${NEEDS[n].what} (${status.ok ? "" : status.reason})`;
  });
  const packages = missing.flatMap((n) => NEEDS[n].packages);
  return `${named.join("; ")}; install with: sudo apt-get install ${packages.join(" ")}`;
}

function hasBwrap(): boolean {
  return spawnSync("bwrap", ["--version"], { stdio: "ignore" }).status === 0;
}
