import { refuse } from "../domain/errors.js";
import { PickleCursor, latin1 } from "./pickle-cursor.js";
import { builtinTypeName, isCloudpickle, qualified, shapeOf, type PickleShape, type PickleValue } from "./pickle-shape.js";

export { requireCallable, type PickleShape } from "./pickle-shape.js";

/**
 * What a pickle would make the unpickler touch, gathered over the whole opcode stream (not only
 * the top-level object): the input of the safety policy (`pickle-safety.ts`).
 */
export interface PickleManifest {
  /** Every `module.name` a GLOBAL, STACK_GLOBAL or INST names, in stream order. */
  globals: string[];
  /** Modules imported by name: cloudpickle's `subimport(name)` / `dynamic_subimport(name, vars)`, `import_module(name)`. */
  imports: string[];
  /** Each code object's `co_names` (the globals and attributes its bytecode loads), for code built by `CodeType(...)`. */
  codeNames: string[][];
  /** Each code object's string constants (`co_consts`): where `getattr(f, "__globals__")` keeps its name. */
  codeStrings: string[][];
  /**
   * `getattr(target, name)` and `operator.attrgetter(name)` calls: the target when it is a named
   * global or import, and the attribute name, null when the stream computes it (a call, not a string).
   */
  getattrs: { of: string | null; name: string | null }[];
}

export interface ScannedPickle {
  shape: PickleShape;
  manifest: PickleManifest;
}

/**
 * Tells what a pickle's top-level object is by walking its opcodes (protocols 0 to 5) over a
 * symbolic stack, the way CPython's `_Unpickler` does, but never importing or calling anything:
 * GLOBAL pushes a name, REDUCE pushes "a call of that name", and so on. Throws
 * `model_pickle_invalid` where CPython's unpickler would fail on the stream itself (truncation,
 * unknown opcode, stack underflow, a memo miss, out-of-band buffers) and `model_pickle_torch` for
 * any global from torch. Every opcode consumes at least one byte, so the walk ends.
 */
export function scanPickle(bytes: Uint8Array): PickleShape {
  return readPickle(bytes).shape;
}

/** The top-level shape and the manifest of everything the stream references. */
export function readPickle(bytes: Uint8Array): ScannedPickle {
  const cursor = new PickleCursor(bytes);
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) throw cursor.invalid("the file is a zip archive, as torch.save writes, not a pickle");
  const machine = new Machine(cursor);
  const top = machine.run();
  return { shape: shapeOf(top), manifest: machine.manifest };
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * Protocol < 3 names that CPython maps to their Python 3 modules (`_compat_pickle`): the ones the
 * shape and the safety policy name. Any other Python 2 name is off the allowlist, so it fails closed.
 */
const RENAMED_MODULES = new Map([
  ["__builtin__", "builtins"],
  ["copy_reg", "copyreg"],
  ["commands", "subprocess"],
  ["cPickle", "pickle"],
  ["thread", "_thread"],
  ["httplib", "http.client"],
  ["urllib2", "urllib.request"],
  ["StringIO", "io"],
  ["cStringIO", "io"],
]);

/** Calls that import a module by the name in their first argument (cloudpickle's own by bare name). */
const IMPORTERS = new Set(["subimport", "dynamic_subimport", "importlib.import_module", "builtins.__import__"]);

/** A getattr target's name: a named global, or the module a cloudpickle import call yields. */
function targetName(v: PickleValue | undefined): string | null {
  if (v?.t === "global") return qualified(v);
  if (v?.t === "call" && v.callee.t === "global" && isCloudpickle(v.callee) && IMPORTERS.has(v.callee.name) && v.args.t === "tuple" && v.args.items[0]?.t === "str") {
    return v.args.items[0].value;
  }
  return null;
}

const scalar = (of: string): PickleValue => ({ t: "scalar", of });
const INT = scalar("int");
const FLOAT = scalar("float");
const BYTES = scalar("bytes");

class Machine {
  private stack: PickleValue[] = [];
  private readonly metastack: PickleValue[][] = [];
  private readonly memo = new Map<number, PickleValue>();
  readonly manifest: PickleManifest = { globals: [], imports: [], codeNames: [], codeStrings: [], getattrs: [] };

  constructor(private readonly c: PickleCursor) {}

  run(): PickleValue {
    for (;;) {
      if (this.c.done) throw this.c.invalid("the stream ends without STOP");
      const op = this.c.u8();
      if (op === 0x2e /* . STOP */) return this.pop();
      this.step(op);
    }
  }

  private step(op: number): void {
    const c = this.c;
    switch (String.fromCharCode(op)) {
      // Pushes of scalars and strings
      case "N": return this.push(scalar("None"));
      case "\x88": case "\x89": return this.push(scalar("bool"));
      case "I": case "L": c.line(); return this.push(INT);
      case "J": c.take(4); return this.push(INT);
      case "K": c.take(1); return this.push(INT);
      case "M": c.take(2); return this.push(INT);
      case "\x8a": c.take(c.uint(1)); return this.push(INT);
      case "\x8b": c.take(this.length(c.int32())); return this.push(INT);
      case "F": c.line(); return this.push(FLOAT);
      case "G": c.take(8); return this.push(FLOAT);
      case "S": return this.push(this.quotedString(c.line()));
      case "T": return this.push({ t: "str", value: latin1(c.take(this.length(c.int32()))) });
      case "U": return this.push({ t: "str", value: latin1(c.take(c.uint(1))) });
      case "V": return this.push({ t: "str", value: rawUnicodeEscape(latin1(c.line())) });
      case "X": return this.push({ t: "str", value: c.utf8(c.uint(4)) });
      case "\x8c": return this.push({ t: "str", value: c.utf8(c.uint(1)) });
      case "\x8d": return this.push({ t: "str", value: c.utf8(c.uint(8)) });
      case "B": c.take(c.uint(4)); return this.push(BYTES);
      case "C": c.take(c.uint(1)); return this.push(BYTES);
      case "\x8e": c.take(c.uint(8)); return this.push(BYTES);
      case "\x96": c.take(c.uint(8)); return this.push(scalar("bytearray"));
      case "\x97": throw c.invalid("NEXT_BUFFER needs out-of-band buffers, which an upload cannot carry");
      case "\x98": this.top(); return;
      case "P": c.line(); return this.push(scalar("persistent id"));
      case "Q": this.pop(); return this.push(scalar("persistent id"));
      case "\x82": return this.push(scalar(`extension ${c.uint(1)}`));
      case "\x83": return this.push(scalar(`extension ${c.uint(2)}`));
      case "\x84": return this.push(scalar(`extension ${c.uint(4)}`));

      // Containers
      case ")": return this.push({ t: "tuple", items: [] });
      case "\x85": return this.push({ t: "tuple", items: this.popN(1) });
      case "\x86": return this.push({ t: "tuple", items: this.popN(2) });
      case "\x87": return this.push({ t: "tuple", items: this.popN(3) });
      case "t": return this.push({ t: "tuple", items: this.popMark() });
      case "]": return this.push({ t: "container", of: "list" });
      case "l": this.popMark(); return this.push({ t: "container", of: "list" });
      case "}": return this.push({ t: "container", of: "dict" });
      case "d": this.pairs(this.popMark()); return this.push({ t: "container", of: "dict" });
      case "\x8f": return this.push({ t: "container", of: "set" });
      case "\x91": this.popMark(); return this.push({ t: "container", of: "frozenset" });
      case "a": this.pop(); this.top(); return;
      case "e": case "\x90": this.popMark(); this.top(); return;
      case "s": this.popN(2); this.top(); return;
      case "u": this.pairs(this.popMark()); this.top(); return;

      // Stack and memo
      case "(": this.metastack.push(this.stack); this.stack = []; return;
      case "0": if (this.stack.length > 0) this.stack.pop(); else this.popMark(); return;
      case "1": this.popMark(); return;
      case "2": return this.push(this.top());
      case "p": return this.put(c.decimalLine());
      case "q": return this.put(c.uint(1));
      case "r": return this.put(c.uint(4));
      case "\x94": return this.put(this.memo.size);
      case "g": return this.get(c.decimalLine());
      case "h": return this.get(c.uint(1));
      case "j": return this.get(c.uint(4));

      // Names, calls and instances
      case "c": return this.push(this.global(latin1(c.line()), latin1(c.line())));
      case "\x93": {
        const [module, name] = this.popN(2);
        if (module.t !== "str" || name.t !== "str") throw c.invalid("STACK_GLOBAL needs two strings");
        return this.push(this.global(module.value, name.value));
      }
      case "R": {
        const args = this.pop();
        const callee = this.pop();
        this.noteCall(callee, args);
        return this.push({ t: "call", callee, args });
      }
      case "\x81": this.pop(); return this.push({ t: "new", cls: this.pop() });
      case "\x92": this.popN(2); return this.push({ t: "new", cls: this.pop() });
      case "o": {
        const [cls] = this.popMark();
        if (!cls) throw c.invalid("OBJ has no class");
        return this.push({ t: "new", cls });
      }
      case "i": {
        const cls = this.global(latin1(c.line()), latin1(c.line()));
        this.popMark();
        return this.push({ t: "new", cls });
      }
      case "b": this.pop(); this.top(); return;
      case "\x80": {
        const protocol = c.u8();
        if (protocol > 5) throw c.invalid(`unsupported pickle protocol ${protocol}`);
        return;
      }
      case "\x95": c.frame(); return;
      default:
        c.pos--;
        throw c.invalid(`unknown opcode 0x${op.toString(16).padStart(2, "0")}`);
    }
  }

  private global(rawModule: string, name: string): PickleValue {
    const module = RENAMED_MODULES.get(rawModule) ?? rawModule;
    if (module === "torch" || module.startsWith("torch.")) throw refuse("model_pickle_torch", { global: `${module}.${name}` });
    this.manifest.globals.push(`${module}.${name}`);
    return { t: "global", module, name };
  }

  /** Records the calls the safety policy reads: imports by name, code objects' names, getattr. */
  private noteCall(callee: PickleValue, args: PickleValue): void {
    const items = args.t === "tuple" ? args.items : [];
    const name = callee.t === "global" ? qualified(callee) : null;
    const first = items[0];
    if (callee.t === "global" && IMPORTERS.has(isCloudpickle(callee) ? callee.name : (name ?? ""))) {
      if (first?.t === "str") this.manifest.imports.push(first.value);
    } else if (name === "types.CodeType" || builtinTypeName(callee) === "CodeType") {
      // CodeType(argcount, posonlyargcount, ..., codestring, consts, names, ...): consts and names are the 8th and 9th arguments from Python 3.8 (16+ arguments), the 7th and 8th before.
      const at = items.length >= 16 ? 7 : 6;
      this.manifest.codeStrings.push(strings(items[at]));
      this.manifest.codeNames.push(strings(items[at + 1]));
    } else if (name === "builtins.getattr") {
      this.manifest.getattrs.push({ of: targetName(first), name: items[1]?.t === "str" ? items[1].value : null });
    } else if (name === "operator.attrgetter") {
      // attrgetter("a.b") reads a, then b, of whatever it is applied to.
      const parts = items.length === 0 ? [null] : items.flatMap((item) => (item.t === "str" ? item.value.split(".") : [null]));
      for (const part of parts) this.manifest.getattrs.push({ of: null, name: part });
    }
  }

  /** Protocol 0 `S` strings are Python string literals in quotes; the escapes are kept as written. */
  private quotedString(raw: Uint8Array): PickleValue {
    const text = latin1(raw);
    if (text.length < 2 || text[0] !== text[text.length - 1] || (text[0] !== "'" && text[0] !== '"')) {
      throw this.c.invalid("the STRING opcode argument must be quoted");
    }
    return { t: "str", value: text.slice(1, -1) };
  }

  private length(n: number): number {
    if (n < 0) throw this.c.invalid("a negative length");
    return n;
  }

  private push(v: PickleValue): void {
    this.stack.push(v);
  }

  private pop(): PickleValue {
    const v = this.stack.pop();
    if (!v) throw this.c.invalid("the stack is empty");
    return v;
  }

  private popN(n: number): PickleValue[] {
    if (this.stack.length < n) throw this.c.invalid("the stack is empty");
    return this.stack.splice(this.stack.length - n, n);
  }

  private top(): PickleValue {
    const v = this.stack[this.stack.length - 1];
    if (!v) throw this.c.invalid("the stack is empty");
    return v;
  }

  private popMark(): PickleValue[] {
    const items = this.stack;
    const previous = this.metastack.pop();
    if (!previous) throw this.c.invalid("no MARK to pop back to");
    this.stack = previous;
    return items;
  }

  private pairs(items: PickleValue[]): void {
    if (items.length % 2 !== 0) throw this.c.invalid("an odd number of dict items");
  }

  private put(i: number): void {
    this.memo.set(i, this.top());
  }

  private get(i: number): void {
    const v = this.memo.get(i);
    if (!v) throw this.c.invalid(`memo entry ${i} was never stored`);
    this.push(v);
  }
}

/** The strings of a tuple (a code object's names or constants); anything else holds none. */
function strings(v: PickleValue | undefined): string[] {
  return v?.t === "tuple" ? v.items.flatMap((n) => (n.t === "str" ? [n.value] : [])) : [];
}

/** Python's raw-unicode-escape: `\uXXXX` and `\UXXXXXXXX` are code points, every other byte is latin-1. */
function rawUnicodeEscape(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g, (whole, u4: string | undefined, u8: string | undefined) => {
    const cp = parseInt(u4 ?? u8 ?? "", 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}
