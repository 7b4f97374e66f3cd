import { refuse } from "../domain/errors.js";
import type { PickleManifest } from "./pickle-scan.js";

/**
 * Which references a model pickle may make, checked over its whole opcode stream. It is a
 * tripwire in front of the sandbox, not a proof: a pickle builds objects by calling what it
 * names, so every named global must be on an allowlist (what cloudpickle emits for a function,
 * plus modelling libraries), a module imported by name (cloudpickle's `subimport`) must not be on
 * the denylist, and a code object's `co_names` must not reach a denied module or builtin
 * (a lambda calling `os.system` pickles as code naming `os` and `system`, with `subimport('os')`
 * in its globals), nor look attributes up by a name it holds in a value (getattr, attrgetter).
 * The first unsafe reference is refused as `model_file_unsafe`, named. What it cannot see (an
 * attribute reached through a type's `__dict__`, a name built at run time and used by a library
 * call) is contained by the sandbox, which is the boundary: this scan only catches the obvious
 * early, with a clear answer.
 */
export function requireSafe(manifest: PickleManifest): void {
  const found = unsafeReference(manifest);
  if (found) throw refuse("model_file_unsafe", { global: found });
}

/** The first unsafe reference, most specific first (`os.system` before `os`), or null. */
export function unsafeReference(m: PickleManifest): string | null {
  const global = m.globals.find((g) => !globalAllowed(g));
  if (global) return global;
  for (const { of, name } of m.getattrs) {
    if (name === null) return COMPUTED_ATTRIBUTE;
    if (PROCESS_NAMES.has(name) || DENIED_BUILTINS.has(name) || (of !== null && deniedModule(of))) return `${of ?? "an object"}.${name}`;
  }
  const names = m.codeNames.flat();
  const builtin = names.find((n) => DENIED_BUILTINS.has(n));
  if (builtin) return /^__\w+__$/.test(builtin) && builtin !== "__import__" ? builtin : `builtins.${builtin}`;
  const lookup = names.find((n) => NAMED_LOOKUPS.has(n));
  if (lookup) return NAMED_LOOKUPS.get(lookup) ?? lookup;
  const spelled = m.codeStrings.flat().find((s) => CLIMBING_DUNDERS.has(s));
  if (spelled) return spelled;
  const reached = [...names.filter((n) => CODE_MODULES.has(n)), ...m.imports.filter(deniedModule)];
  if (reached.length === 0) return null;
  const entry = names.find((n) => PROCESS_NAMES.has(n));
  return entry ? `${reached[0]}.${entry}` : reached[0];
}

const rootOf = (module: string) => module.split(".")[0];
const deniedModule = (module: string) => DENIED_MODULES.has(rootOf(module));

/**
 * Modules that run processes, touch files or sockets, load code or reach the interpreter's
 * internals: refused when imported by name, as a `__main__` name, or as a getattr target.
 */
const DENIED_MODULES = new Set([
  "os", "posix", "nt", "posixpath", "ntpath", "sys", "builtins", "__builtin__", "subprocess", "_posixsubprocess", "pty",
  "multiprocessing", "_multiprocessing", "socket", "_socket", "ssl", "select", "selectors", "asyncio", "http", "urllib",
  "ftplib", "smtplib", "telnetlib", "webbrowser", "shutil", "tempfile", "pathlib", "glob", "io", "_io", "fcntl", "mmap",
  "signal", "resource", "ctypes", "_ctypes", "cffi", "importlib", "_imp", "imp", "zipimport", "pkgutil", "runpy", "code",
  "codeop", "pdb", "bdb", "inspect", "gc", "site", "sysconfig", "platform", "marshal", "pickle", "_pickle", "cloudpickle",
  "dill", "joblib", "shelve", "dbm", "threading", "_thread", "ptyprocess", "pexpect",
]);

/**
 * The denied modules whose names are unambiguous in a code object's `co_names`, which mixes
 * global names with attribute names (`np.select` puts `select` there, so `select` is not one).
 */
const CODE_MODULES = new Set([
  "os", "posix", "nt", "sys", "subprocess", "pty", "multiprocessing", "socket", "shutil", "ctypes", "importlib",
  "marshal", "pickle", "cloudpickle", "dill", "builtins",
]);

/** Builtins that evaluate, import or open, and the dunders that climb to a function's globals. */
const DENIED_BUILTINS = new Set([
  "exec", "eval", "__import__", "open", "breakpoint", "globals", "__builtins__", "__globals__", "__subclasses__",
]);

/** What a getattr whose attribute name the pickle computes (not a string in the stream) is refused as. */
const COMPUTED_ATTRIBUTE = "an attribute by a computed name";

/**
 * Lookups by a name held in a value: in a code object's `co_names` they are refused whatever the
 * name, since the bytecode that would tell a constant name from a computed one is not read
 * (`getattr(f, "__glo" + "bals__")` hides `__globals__` from `co_names`). Write `obj.name`.
 */
const NAMED_LOOKUPS = new Map([
  ["getattr", "builtins.getattr"],
  ["attrgetter", "operator.attrgetter"],
  ["__getattribute__", "__getattribute__"],
]);

/** The denied dunders, caught also where code spells them as a string constant (Python folds `"__glo" + "bals__"` into one). */
const CLIMBING_DUNDERS = new Set([...DENIED_BUILTINS].filter((n) => /^__\w+__$/.test(n)));

/** Process, file, socket and loader entry points, named after the denied module that reaches them. */
const PROCESS_NAMES = new Set([
  "system", "popen", "Popen", "check_call", "check_output", "getoutput", "getstatusoutput", "spawnl", "spawnle",
  "spawnlp", "spawnv", "spawnve", "spawnvp", "posix_spawn", "posix_spawnp", "execl", "execle", "execlp", "execv",
  "execve", "execvp", "execvpe", "fork", "forkpty", "kill", "killpg", "unlink", "rmtree", "loads", "import_module",
  "dlopen", "CDLL", "create_connection",
]);

/** cloudpickle's reconstructors and helpers, the names its pickles of functions and classes use. */
const CLOUDPICKLE_NAMES = new Set([
  "_make_function", "_make_skel_func", "_fill_function", "_builtin_type", "_make_cell", "_make_empty_cell", "cell_set",
  "_function_setstate", "_class_setstate", "_make_skeleton_class", "_make_skeleton_enum", "_enum_setstate",
  "_rehydrate_skeleton_class", "subimport", "dynamic_subimport", "_make_dict_keys", "_make_dict_values",
  "_make_dict_items", "_make_typevar", "_get_bases", "_create_parametrized_type_hint", "_gen_ellipsis",
  "_gen_not_implemented", "_get_cell_contents", "instance",
]);

/** Libraries a model is made of: any name under them, but for the submodules and names below. */
const LIBRARY_ROOTS = new Set([
  "numpy", "pandas", "sklearn", "scipy", "lightgbm", "xgboost", "catboost", "statsmodels", "math", "cmath", "statistics",
  "datetime", "decimal", "fractions", "numbers", "enum", "typing", "abc", "itertools", "re", "random", "zoneinfo", "pytz",
  "dateutil", "_codecs", "codecs", "__main__",
]);

/** Submodules of allowed libraries that load files, pickles or foreign code. */
const DENIED_SUBMODULES = ["numpy.ctypeslib", "numpy.distutils", "numpy.f2py", "numpy.testing", "numpy.lib.npyio", "numpy.lib.format", "pandas.io", "pandas._testing", "pandas.util.testing", "scipy.io", "sklearn.externals", "sklearn.utils._testing"];

/** Names under allowed libraries that read or write files, unpickle, or evaluate strings. */
const DENIED_LIBRARY_NAMES = new Set([
  "load", "loads", "loadtxt", "genfromtxt", "fromfile", "fromregex", "tofile", "save", "savez", "savez_compressed",
  "savetxt", "memmap", "eval", "exec", "query", "read_pickle", "to_pickle", "system", "popen", "open",
]);

/** Standard-library names a pickle of containers, numbers and functions needs, by module. */
const NAMED: Record<string, Set<string>> = {
  builtins: new Set([
    "object", "type", "dict", "list", "tuple", "set", "frozenset", "bytes", "bytearray", "str", "int", "float", "complex",
    "bool", "range", "slice", "getattr", "property", "staticmethod", "classmethod", "super", "len", "min", "max", "sum",
    "abs", "round", "sorted", "enumerate", "zip", "map", "filter", "reversed", "isinstance", "iter", "next", "print",
    "NotImplemented", "Ellipsis", "ValueError", "KeyError", "TypeError", "Exception",
  ]),
  types: new Set(["FunctionType", "LambdaType", "MethodType", "CodeType", "CellType", "SimpleNamespace", "MappingProxyType"]),
  functools: new Set(["partial", "reduce"]),
  collections: new Set(["OrderedDict", "defaultdict", "deque", "Counter", "ChainMap"]),
  copyreg: new Set(["_reconstructor", "__newobj__", "__newobj_ex__"]),
  operator: new Set(["itemgetter", "attrgetter", "add", "sub", "mul", "truediv", "neg", "getitem"]),
};

function globalAllowed(qualifiedName: string): boolean {
  const dot = qualifiedName.lastIndexOf(".");
  const module = qualifiedName.slice(0, dot);
  const name = qualifiedName.slice(dot + 1);
  if (rootOf(module) === "cloudpickle") return CLOUDPICKLE_NAMES.has(name);
  const named = NAMED[module];
  if (named) return named.has(name);
  if (!LIBRARY_ROOTS.has(rootOf(module))) return false;
  if (DENIED_SUBMODULES.some((s) => module === s || module.startsWith(`${s}.`))) return false;
  const leaf = name.split(".").pop() ?? name;
  if (DENIED_LIBRARY_NAMES.has(leaf) || /^read_/.test(leaf)) return false;
  // `__main__` is the runner's own module, which imports os and sys: no module name, no dangerous name.
  return !(module === "__main__" && (DENIED_MODULES.has(leaf) || PROCESS_NAMES.has(leaf) || DENIED_BUILTINS.has(leaf)));
}
