import { refuse } from "../domain/errors.js";

/**
 * What an unpickler would build, known without building it: the scanner's symbolic stack holds
 * these. Only the parts that decide the top-level shape are kept (strings for STACK_GLOBAL and
 * class names, tuple items for call arguments); everything else collapses to a kind.
 */
export type PickleValue =
  | { t: "str"; value: string }
  | { t: "global"; module: string; name: string }
  | { t: "tuple"; items: PickleValue[] }
  | { t: "call"; callee: PickleValue; args: PickleValue }
  | { t: "new"; cls: PickleValue }
  | { t: "container"; of: "dict" | "list" | "set" | "frozenset" }
  | { t: "scalar"; of: string };

export type PickleShape =
  | { kind: "callable"; via: string }
  | { kind: "estimator"; class: string }
  | { kind: "container"; of: string }
  | { kind: "other"; detail: string };

/** cloudpickle's function reconstructors: `_make_function` (1.5+), `_make_skel_func` + `_fill_function` (older). */
const FUNCTION_MAKERS = new Set(["_make_function", "_make_skel_func", "_fill_function"]);
/** `cloudpickle._builtin_type(name)` results that build callables when applied (bound methods, raw functions). */
const CALLABLE_BUILTIN_TYPES = new Set(["FunctionType", "LambdaType", "MethodType"]);
const CALLABLE_FACTORIES = new Set(["functools.partial", "types.FunctionType", "types.MethodType"]);
const CONTAINER_TYPES = new Map([
  ["builtins.dict", "dict"],
  ["builtins.list", "list"],
  ["builtins.tuple", "tuple"],
  ["builtins.set", "set"],
  ["builtins.frozenset", "frozenset"],
  ["collections.OrderedDict", "dict"],
  ["collections.defaultdict", "dict"],
]);
/** Instance factories whose first argument is the instance's class (protocol 0/1 objects, `__reduce_ex__` helpers). */
const INSTANCE_FACTORIES = new Set(["copyreg._reconstructor", "copyreg.__newobj__", "copyreg.__newobj_ex__"]);

/**
 * The shape of the top-level object. A cloudpickled function or lambda is a call of cloudpickle's
 * `_make_function`; a bound method, `functools.partial` or a plain reference to a module-level
 * function of the participant's own script (`__main__`, as plain `pickle.dumps(predict)` writes) also
 * count as callables. A reference to any other module's function (`numpy.zeros`, `builtins.len`) is
 * a library's function, not a predict callable of the service's contract, and neither is a
 * `functools.partial` of one. Any other call or NEWOBJ builds an instance: whether its class
 * defines `__call__` cannot be known without importing it, so every instance counts as an
 * "estimator" (the service refuses a bare estimator). A reference to a name starting with a
 * capital letter is taken for a class, by Python's naming convention.
 */
export function shapeOf(v: PickleValue): PickleShape {
  switch (v.t) {
    case "global": {
      const name = qualified(v);
      const of = CONTAINER_TYPES.get(name);
      if (of || /^[A-Z]/.test(v.name.split(".").pop() ?? "")) return other(`a reference to the class ${name}`);
      if (v.module !== "__main__") return other(`a reference to ${name}, a library's function, not a predict callable`);
      return { kind: "callable", via: name };
    }
    case "call":
      return shapeOfCall(v.callee, v.args);
    case "new":
      return instanceOf(v.cls);
    case "tuple":
      return { kind: "container", of: "tuple" };
    case "container":
      return { kind: "container", of: v.of };
    case "str":
      return other("str");
    case "scalar":
      return other(v.of);
  }
}

/** Refuses every shape but a callable with the service's "one model shape" text; `extra.found` says what was seen. */
export function requireCallable(shape: PickleShape): void {
  if (shape.kind === "callable") return;
  throw refuse("model_shape_refused", {}, { extra: { found: describeShape(shape) } });
}

export function describeShape(shape: PickleShape): string {
  switch (shape.kind) {
    case "callable":
      return `a callable (${shape.via})`;
    case "estimator":
      return `an instance of ${shape.class}`;
    case "container":
      return `a ${shape.of}`;
    case "other":
      return shape.detail;
  }
}

function shapeOfCall(callee: PickleValue, args: PickleValue): PickleShape {
  if (callee.t === "global") {
    const name = qualified(callee);
    if (isCloudpickle(callee) && FUNCTION_MAKERS.has(callee.name)) return { kind: "callable", via: name };
    if (isCloudpickle(callee) && callee.name === "_make_skeleton_class") {
      return other(`the class ${skeletonName(args)} (a class, not a function)`);
    }
    if (name === "functools.partial") {
      const inner = args.t === "tuple" && args.items[0]?.t === "global" ? shapeOf(args.items[0]) : null;
      if (inner && inner.kind !== "callable") return other(`functools.partial of ${describeShape(inner)}`);
    }
    if (CALLABLE_FACTORIES.has(name)) return { kind: "callable", via: name };
    const of = CONTAINER_TYPES.get(name);
    if (of) return { kind: "container", of };
    if (INSTANCE_FACTORIES.has(name)) return instanceOf(args.t === "tuple" ? args.items[0] : undefined);
    return { kind: "estimator", class: name };
  }
  const builtin = builtinTypeName(callee);
  if (builtin && CALLABLE_BUILTIN_TYPES.has(builtin)) return { kind: "callable", via: `types.${builtin}` };
  if (builtin) return other(`an object built by types.${builtin}`);
  return { kind: "estimator", class: className(callee) };
}

function instanceOf(cls: PickleValue | undefined): PickleShape {
  const name = cls ? className(cls) : "an unknown class";
  const of = CONTAINER_TYPES.get(name);
  return of ? { kind: "container", of } : { kind: "estimator", class: name };
}

function className(cls: PickleValue): string {
  if (cls.t === "global") return qualified(cls);
  if (cls.t === "call" && cls.callee.t === "global" && isCloudpickle(cls.callee) && cls.callee.name === "_make_skeleton_class") {
    return skeletonName(cls.args);
  }
  return "an unknown class";
}

/** `_make_skeleton_class(type_constructor, name, bases, ...)`: the dynamic class's name is the second argument. */
function skeletonName(args: PickleValue): string {
  const name = args.t === "tuple" ? args.items[1] : undefined;
  return name?.t === "str" ? `${name.value} (cloudpickle dynamic class)` : "a cloudpickle dynamic class";
}

/** The `name` of `cloudpickle._builtin_type(name)`, which cloudpickle uses for types with no importable name. */
export function builtinTypeName(v: PickleValue): string | null {
  if (v.t !== "call" || v.callee.t !== "global" || !isCloudpickle(v.callee) || v.callee.name !== "_builtin_type") return null;
  const first = v.args.t === "tuple" ? v.args.items[0] : undefined;
  return first?.t === "str" ? first.value : null;
}

export function isCloudpickle(g: { module: string }): boolean {
  return g.module === "cloudpickle" || g.module.startsWith("cloudpickle.");
}

export function qualified(g: { module: string; name: string }): string {
  return `${g.module}.${g.name}`;
}

function other(detail: string): PickleShape {
  return { kind: "other", detail };
}
