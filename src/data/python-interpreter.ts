import { execFile } from "node:child_process";

/** The modules a predict run needs in its interpreter. */
export const PREDICT_MODULES = ["cloudpickle", "pandas"] as const;

/** Interpreters tried in order when BASECAMP_PYTHON is not set. */
const CANDIDATES = ["python3", "/usr/bin/python3"];

export type Interpreter = { ok: true; path: string } | { ok: false; error: string };

let found: Promise<Interpreter> | null = null;

/**
 * The Python that runs uploaded predict callables: `BASECAMP_PYTHON` when set, else the first of
 * `python3` and `/usr/bin/python3` that can import cloudpickle and pandas (a pyenv `python3` often
 * cannot). Probed once per process; an answer naming what is missing when none fits.
 */
export function findPython(): Promise<Interpreter> {
  found ??= probeAll();
  return found;
}

async function probeAll(): Promise<Interpreter> {
  const chosen = process.env.BASECAMP_PYTHON;
  const candidates = chosen ? [chosen] : CANDIDATES;
  const misses: string[] = [];
  for (const path of candidates) {
    const miss = await probe(path);
    if (miss === null) return { ok: true, path };
    misses.push(`${path}: ${miss}`);
  }
  const how = chosen ? "BASECAMP_PYTHON is set to an interpreter that cannot run it" : "set BASECAMP_PYTHON to one that can";
  return {
    ok: false,
    error: `no Python interpreter can run the model: it needs ${PREDICT_MODULES.join(" and ")} (${misses.join("; ")}); ${how}`,
  };
}

/** Null when `path` imports every module, else why not. */
function probe(path: string): Promise<string | null> {
  const code = `import ${PREDICT_MODULES.join(", ")}`;
  return new Promise((resolve) => {
    execFile(path, ["-c", code], { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve(null);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return resolve("not found");
      const last = stderr.trim().split("\n").pop();
      resolve(last || error.message);
    });
  });
}
