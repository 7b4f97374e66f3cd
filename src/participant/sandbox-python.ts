import { mkdir, stat } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { findPython, namedPython, type InterpreterSource } from "../data/python-interpreter.js";
import { mountAt } from "./host-mount.js";
import { interpreterFacts, type InterpreterFacts } from "./interpreter-facts.js";
import type { Bind } from "./sandbox.js";
import { ownRoot } from "./work-dir.js";

export type SandboxPython = { ok: true; path: string; source: InterpreterSource; facts: InterpreterFacts; binds: Bind[] } | { ok: false; error: string };

let python: Promise<SandboxPython> | null = null;

/**
 * The interpreter a sandbox runs: findPython()'s, never another (no swap for the system's), with
 * every directory it reads from outside /usr bound read-only at its own path (a venv, a conda env,
 * a pyenv, uv or /usr/local base interpreter). Probed once per process.
 */
export function sandboxPython(): Promise<SandboxPython> {
  python ??= pick();
  return python;
}

async function pick(): Promise<SandboxPython> {
  // A named interpreter is inspected while findPython probes it, not after (one interpreter's start fewer before a worker's).
  const named = namedPython();
  if (named !== null) void interpreterFacts(named);
  const found = await findPython();
  if (!found.ok) return found;
  const probed = await interpreterFacts(found.path);
  if (!probed.ok) return probed;
  const binds = await interpreterBinds(probed.facts);
  return binds.ok ? { ok: true, path: probed.facts.executable, source: found.source, facts: probed.facts, binds: binds.binds } : binds;
}

/** The read-only binds that let the sandbox run the interpreter of `facts`, or which directory it cannot be shown. */
export async function interpreterBinds(facts: InterpreterFacts): Promise<{ ok: true; binds: Bind[] } | { ok: false; error: string }> {
  const binds: Bind[] = [];
  for (const dir of outermost(facts.roots)) {
    const view = await readableView(dir);
    if (!view.ok) return { ok: false, error: `the sandbox cannot see ${dir}, which ${facts.executable} needs: ${view.error}` };
    binds.push({ host: view.host, inside: dir });
  }
  return { ok: true, binds };
}

/** The directories outside /usr (which every sandbox sees) that are in no other of them. */
export function outermost(roots: string[]): string[] {
  const dirs = [...new Set(roots)].filter((d) => d.startsWith(sep) && d !== sep && d !== "/usr" && !d.startsWith("/usr/")).sort();
  return dirs.filter((d) => !dirs.some((o) => o !== d && d.startsWith(o.endsWith(sep) ? o : o + sep)));
}

let views = 0;

/**
 * A path to `dir` that the sandbox's user can open: `dir` itself when every directory above it
 * lets others through (or Basecamp does not run as root, so bwrap opens it as this user), else a
 * read-only bind mount of it in sandboxRoot(), e.g. for a pyenv under /root (mode 700).
 */
async function readableView(dir: string): Promise<{ ok: true; host: string } | { ok: false; error: string }> {
  if (process.getuid?.() !== 0 || (await othersReach(dir))) return { ok: true, host: dir };
  const root = await ownRoot();
  const host = join(root, `python-${process.pid}-${++views}`);
  await mkdir(host, { recursive: true });
  const failed = await mountAt(["--bind", "-o", "ro", dir], host);
  return failed === null ? { ok: true, host } : { ok: false, error: failed };
}

/** Whether a user who is neither owner nor group can reach `dir` and list it. */
async function othersReach(dir: string): Promise<boolean> {
  try {
    if (((await stat(dir)).mode & 0o005) !== 0o005) return false;
    for (let up = dirname(dir); ; up = dirname(up)) {
      if (((await stat(up)).mode & 0o001) === 0) return false;
      if (up === dirname(up)) return true;
    }
  } catch {
    return false;
  }
}
