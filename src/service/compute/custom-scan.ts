import { fileURLToPath } from "node:url";
import { refuse } from "../../domain/errors.js";
import { runSandboxedJob } from "../../participant/run-job.js";
import { unsafeReference } from "../../participant/pickle-safety.js";

const SCRIPT = fileURLToPath(new URL("../../participant/python/scan_source.py", import.meta.url));
/** Real seconds the syntax scan may take. */
const SCAN_SECONDS = 30;

/** The modules a custom_model_fn may import (by their first name): modelling libraries and pure helpers. */
export const SOURCE_MODULES = [
  "numpy", "pandas", "sklearn", "scipy", "xgboost", "lightgbm", "catboost", "math", "cmath", "statistics", "numbers",
  "itertools", "functools", "collections", "operator", "typing", "abc", "enum", "dataclasses", "random", "re",
  "datetime", "decimal", "fractions",
];

interface Scan {
  ok: boolean;
  error?: string;
  imports: string[];
  from_imports: string[];
  relative_import: boolean;
  names: string[];
  attributes: string[];
  computed_attribute: number | null;
  defines_build_model: boolean;
}

/**
 * The static scan of a custom_model_fn, before any of it runs: its syntax tree is read by Python's
 * `ast` in the sandbox (scan_source.py; the source is never executed there), and its imports,
 * names and attributes are held to the model-file policy (src/participant/pickle-safety.ts: a
 * name from a module must be on its allowlist; os, subprocess, socket ... and exec, eval, open,
 * __import__ ... are refused) and its imports to SOURCE_MODULES. The first unsafe name is refused
 * (400) by name, and so is a getattr whose name is not a string constant. Like the pickle scan it
 * is a tripwire, not the boundary: the job itself runs in the sandbox, which contains what a
 * static read cannot see.
 */
export async function requireSafeSource(source: string): Promise<void> {
  const ran = await runSandboxedJob({
    script: SCRIPT,
    inputs: { "source.py": source },
    outputs: ["scan.json"],
    timeout_seconds: SCAN_SECONDS,
    limits: { cpu_seconds: SCAN_SECONDS, memory_bytes: 1024 ** 3 },
    what: "custom_model_fn scan",
  });
  if (!ran.ok) throw refuse("custom_model_fn_unchecked", { reason: ran.error });
  const scan = JSON.parse(ran.files["scan.json"].toString("utf8")) as Scan;
  if (!scan.ok) throw refuse("train_field_invalid", { field: "custom_model_fn", message: `does not parse: ${scan.error}` });
  if (scan.relative_import) throw refuse("custom_model_fn_unsafe", { name: "a relative import", why: "it is one module, with nothing beside it" });
  // Imports first, so a denied module is named as itself; then every name and attribute the code uses.
  const imported = unsafeReference({ globals: scan.from_imports, imports: scan.imports, codeNames: [], codeStrings: [], getattrs: [] });
  if (imported) throw refuse("custom_model_fn_unsafe", { name: imported, why: "the model-file policy refuses it" });
  const outside = scan.imports.find((m) => !SOURCE_MODULES.includes(m.split(".")[0]));
  if (outside) throw refuse("custom_model_fn_unsafe", { name: outside, why: `it imports only ${SOURCE_MODULES.join(", ")}` });
  if (scan.computed_attribute !== null) {
    throw refuse("custom_model_fn_unsafe", { name: `an attribute by a computed name (line ${scan.computed_attribute})`, why: "a lookup by name must spell the name as a string" });
  }
  const used = unsafeReference({
    globals: [],
    imports: [],
    codeNames: [[...scan.names, ...scan.attributes]],
    codeStrings: [],
    getattrs: scan.attributes.map((name) => ({ of: null, name })),
  });
  if (used) throw refuse("custom_model_fn_unsafe", { name: used.replace(/^an object\./, "."), why: "the model-file policy refuses it" });
  if (!scan.defines_build_model) throw refuse("train_field_invalid", { field: "custom_model_fn", message: "defines no top-level build_model(params)" });
}
