"""Reads a custom_model_fn source's syntax tree without running it, in the sandbox.

    python3 scan_source.py LIMITS_JSON

Reads source.py from its working directory and writes scan.json:
  {"ok": true, "imports": [module, ...], "from_imports": ["module.name", ...], "relative_import": bool,
   "names": [identifier, ...], "attributes": [attribute, ...], "defines_build_model": bool}
or {"ok": false, "error": "line N: message"} when the source does not parse. Every identifier
(also inside f-strings and nested functions) is listed; the policy is applied by the caller.
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
    for node in ast.walk(tree):
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
        "names": sorted(names), "attributes": sorted(attributes), "defines_build_model": defines,
    }


def main():
    for name, value in json.loads(sys.argv[1]).items():
        resource.setrlimit(LIMITS[name], (value, value))
    with open("source.py", encoding="utf8") as f:
        source = f.read()
    with open("scan.json", "w", encoding="utf8") as f:
        json.dump(scan(source), f)


if __name__ == "__main__":
    main()
