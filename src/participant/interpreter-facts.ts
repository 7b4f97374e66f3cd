import { execFile } from "node:child_process";

/** What an interpreter is: its executable, the directories it reads from, its version and its packages' versions. */
export interface InterpreterFacts {
  /** sys.executable as the interpreter gives it (a venv's bin/python, not what it links to). */
  executable: string;
  /** The directories it reads from (its prefixes, its base interpreter's, the import paths), as given and as resolved. */
  roots: string[];
  python: string;
  /** Version by package for PROBED_PACKAGES; null where it is not importable. */
  packages: Record<string, string | null>;
}

/** The packages whose versions the facts name, in the banner's order. */
export const NAMED_PACKAGES = ["pandas", "numpy", "cloudpickle", "lightgbm"] as const;
/** The packages the one probe asks for: the named ones, and pyarrow (whether a worker can read a parquet file itself). */
const PROBED_PACKAGES = [...NAMED_PACKAGES, "pyarrow"] as const;

const CODE = [
  "import importlib, importlib.metadata, importlib.util, json, os, sys",
  "paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix] + [p for p in sys.path if p and os.path.isdir(p)]",
  "def version(name):", // from the package's metadata where it has some: importing pandas or lightgbm would cost a second
  "    try:",
  "        if importlib.util.find_spec(name) is None:",
  "            return None",
  "        try:",
  "            return importlib.metadata.version(name)",
  "        except Exception:",
  "            return str(importlib.import_module(name).__version__)",
  "    except Exception:",
  "        return None",
  `print(json.dumps({"executable": sys.executable, "roots": paths + [os.path.realpath(p) for p in paths + [sys.executable]],`,
  `  "python": sys.version.split()[0], "packages": {n: version(n) for n in ${JSON.stringify(PROBED_PACKAGES)}}}))`,
].join("\n");

const probed = new Map<string, Promise<{ ok: true; facts: InterpreterFacts } | { ok: false; error: string }>>();

/** The facts of the interpreter at `path`, asked of it once per process (versions from the packages' metadata). */
export function interpreterFacts(path: string): Promise<{ ok: true; facts: InterpreterFacts } | { ok: false; error: string }> {
  let found = probed.get(path);
  if (!found) {
    found = new Promise((resolve) => {
      // As the sandbox runs it (a clean environment, no user site): a PYTHONPATH or ~/.local of
      // the server's user is neither seen inside nor bound into the sandbox.
      const env = { PATH: process.env.PATH, LANG: "C.UTF-8" };
      execFile(path, ["-s", "-c", CODE], { timeout: 60_000, maxBuffer: 1024 ** 2, env }, (error, stdout) => {
        if (error) return resolve({ ok: false, error: `the interpreter ${path} cannot be inspected: ${error.message.split("\n")[0]}` });
        resolve({ ok: true, facts: JSON.parse(stdout) as InterpreterFacts });
      });
    });
    probed.set(path, found);
  }
  return found;
}
