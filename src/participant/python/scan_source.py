"""Reads a custom_model_fn source's syntax tree without running it, in the sandbox.

    python3 scan_source.py LIMITS_JSON

Reads source.py from its working directory and writes scan.json:
  {"ok": true, "imports": [module, ...], "from_imports": ["module.name", ...], "relative_import": bool,
   "names": [identifier, ...], "attributes": [attribute, ...], "computed_attribute": line | null,
   "defines_build_model": bool}
or {"ok": false, "error": "line N: message"} when the source does not parse. Every identifier
(also inside f-strings and nested functions) is listed; the policy is applied by the caller.
A lookup by name, `getattr(x, "name")` or `operator.attrgetter("a.b")`, lists its constant names as
attributes and not the lookup itself; one whose name is not a string constant
(`getattr(f, "__glo" + "bals__")`) is reported by its line as computed_attribute.
"""
import ast
import json
import resource
import sys

LIMITS = {
    "memory_bytes": resource.RLIMIT_AS,
    "cpu_seconds": resource.RLIMIT_CPU,
    "processes": resource.RLIMIT_NPROC,
    "file_size_bytes": resource.RLIMIT_FSIZE,
}


def scan(source):
    try:
        tree = ast.parse(source, filename="custom_model_fn.py")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        line = getattr(e, "lineno", None)
        return {"ok": False, "error": f"line {line}: {getattr(e, 'msg', None) or type(e).__name__}" if line else f"{type(e).__name__}: {e}"}
    imports, from_imports, names, attributes = [], [], set(), set()
    relative = False
    computed = None
    lookups = set()
    for node in ast.walk(tree):
        looked_up = lookup_names(node)
        if looked_up is None:
            continue
        lookups.add(id(node.func))
        if all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in looked_up):
            attributes.update(part for a in looked_up for part in a.value.split("."))
        elif computed is None:
            computed = node.lineno
    for node in ast.walk(tree):
        if id(node) in lookups:
            continue
        if isinstance(node, ast.Import):
            imports.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                relative = True
            else:
                imports.append(node.module)
                from_imports.extend(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            attributes.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    defines = any(isinstance(n, ast.FunctionDef) and n.name == "build_model" for n in tree.body)
    return {
        "ok": True, "imports": imports, "from_imports": from_imports, "relative_import": relative,
        "names": sorted(names), "attributes": sorted(attributes), "computed_attribute": computed,
        "defines_build_model": defines,
    }


def lookup_names(node):
    """The name arguments of a getattr(...) or attrgetter(...) call, or None for any other node."""
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    func = node.func
    called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if called == "getattr" and isinstance(func, ast.Name) and len(node.args) in (2, 3):
        return node.args[1:2]
    if called == "attrgetter" and node.args and not any(isinstance(a, ast.Starred) for a in node.args):
        return node.args
    return None


def main():
    for name, value in json.loads(sys.argv[1]).items():
        resource.setrlimit(LIMITS[name], (value, value))
    with open("source.py", encoding="utf8") as f:
        source = f.read()
    with open("scan.json", "w", encoding="utf8") as f:
        json.dump(scan(source), f)


if __name__ == "__main__":
    main()
