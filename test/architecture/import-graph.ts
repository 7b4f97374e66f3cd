/**
 * The repository's import graph, read with TypeScript's own parser, and the two rules it must keep:
 * no import circle among the files of `src/` and `sim/`, and no arrow from a lower room of `src/` to a
 * higher one (ROOMS below).
 *
 * What counts as an import (every one of them, because each is a dependency a reader must follow and
 * a file that cannot move without the other): `import … from`, `import type … from`, side-effect
 * `import "…"`, `export … from` (type-only too), a dynamic `import("…")` with a literal path, and a
 * type query `import("…").T`. Only imports of the repository's own files are edges (relative paths,
 * and the `basecamp-sim/strategy` alias of `sim/strategy-api.ts`); packages and `node:` are not.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/**
 * The rooms of `src/`, highest first: a file may import files of its own room and of rooms below it,
 * never of a room above. A room is a folder under `src/` (or a file at its root); `sim/` is one room.
 *
 * The order, as the code stands:
 * - `cli.ts` → `commands`: the `basecamp` command and its subcommands, the composition of everything.
 * - `sim`: the replay engine, agents, backtest and sweep. Only the commands call it; no other room of
 *   `src/` imports `sim/`. It drives the service through the SDK or in process, and renders reports.
 * - `app.ts`: `openBasecamp`, the one composition root (store, clock, context, service) that the
 *   engine and `serve` build from.
 * - `tui`, `web`, `report`, `http`, `mcp`, `sdk`: the other faces. `http` serves the MCP tools over
 *   HTTP (so it sits above `mcp`); `sdk` is the TypeScript client over HTTP.
 * - `service`: the operations, their rules and transactions; its handlers bind each operation of the
 *   contract to its function.
 * - `contract`: every operation once, as data (scope, rate limit, REST endpoints, MCP tools), the
 *   deployment settings' schema and the fault names: the faces are loops over it and the service
 *   implements it, so both sit above it; it imports only `domain`.
 * - `participant`: participants' code (interpreter, worker, sandbox); it reads and writes datasets.
 * - `store`: SQLite, migrations, repositories, the event log; its scratch database uses `data`'s temp
 *   roots, so it sits above `data` (nothing in `data` or `participant` touches the store).
 * - `data`: dataset I/O and the generator; it calls the scoring kernels (ranks, hex ids).
 * - `scoring`: the kernels, over typed arrays and frames.
 * - `domain`: clock, rng, ids, money, cadence, errors, and the small shared shapes (Frame, MISSING).
 * - `package-files.ts`: where shipped files sit; it imports nothing.
 */
export const ROOMS = [
  "cli.ts",
  "commands",
  "sim",
  "app.ts",
  "tui",
  "web",
  "report",
  "http",
  "mcp",
  "sdk",
  "service",
  "contract",
  "participant",
  "store",
  "data",
  "scoring",
  "domain",
  "package-files.ts",
] as const;

/** The folders whose files make the graph, from the repository's root. */
const ROOTS = ["src", "sim"];

/** Import specifiers that name a file of the repository without a relative path (tsconfig's `paths`). */
const ALIASES: Record<string, string> = { "basecamp-sim/strategy": "sim/strategy-api.ts" };

export interface ImportEdge {
  /** Both paths from the repository's root, with `/`. */
  from: string;
  to: string;
  /** `import type`/`export type` (erased at run time, counted all the same). */
  typeOnly: boolean;
  /** `import("…")` in code, loaded when called. */
  dynamic: boolean;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
  /** Relative imports that name no file: a typo the compiler would also catch, reported so none is missed. */
  unresolved: { from: string; specifier: string }[];
}

/** Reads every `.ts`/`.tsx` file under `src/` and `sim/` of the repository at `root`. */
export function readImportGraph(root: string): ImportGraph {
  const files = ROOTS.flatMap((dir) => sourceFiles(root, dir)).sort();
  const edges: ImportEdge[] = [];
  const unresolved: ImportGraph["unresolved"] = [];
  for (const from of files) {
    for (const found of importsOf(from, readFileSync(join(root, from), "utf8"))) {
      const to = resolveSpecifier(root, from, found.specifier);
      if (to === null) unresolved.push({ from, specifier: found.specifier });
      else if (to !== undefined) edges.push({ from, to, typeOnly: found.typeOnly, dynamic: found.dynamic });
    }
  }
  return { files, edges, unresolved };
}

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

interface FoundImport {
  specifier: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/** Every import of one file's text, by walking its syntax tree (so comments and strings never count). */
export function importsOf(fileName: string, text: string): FoundImport[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: FoundImport[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || allTypeOnly(clause));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly, dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, typeOnly: false, dynamic: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `import { type A, type B } from …`: every named binding is a type. */
function allTypeOnly(clause: ts.ImportClause): boolean {
  const bindings = clause.namedBindings;
  return clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** The imported file's path, `undefined` for a package, `null` for a relative path naming no file. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined | null {
  if (specifier in ALIASES) return ALIASES[specifier];
  if (!specifier.startsWith(".")) return undefined;
  const path = relative(root, resolve(root, dirname(from), specifier)).split("\\").join("/");
  const stem = path.replace(/\.js$/, "");
  const candidates = [`${stem}.ts`, `${stem}.tsx`, path, `${path}/index.ts`];
  return candidates.find((c) => existsSync(join(root, c)) && statSync(join(root, c)).isFile()) ?? null;
}

/** A group of files that import each other, directly or through one another. */
export interface ImportCircle {
  /** Sorted. */
  files: string[];
  /** One shortest way round, starting and ending at the first file: `a → b → a`. */
  path: string[];
}

/** Every circle of the graph: its strongly connected parts of more than one file, or a file importing itself. */
export function importCircles(graph: ImportGraph): ImportCircle[] {
  const next = adjacency(graph);
  return stronglyConnected(graph.files, next)
    .filter((part) => part.length > 1 || next.get(part[0])!.has(part[0]))
    .map((part) => {
      const files = [...part].sort();
      return { files, path: shortestCycle(files[0], new Set(files), next) };
    })
    .sort((a, b) => a.files[0].localeCompare(b.files[0]));
}

function adjacency(graph: ImportGraph): Map<string, Set<string>> {
  const next = new Map(graph.files.map((f) => [f, new Set<string>()]));
  for (const { from, to } of graph.edges) next.get(from)!.add(to);
  return next;
}

/** Tarjan's algorithm, iterative (a long import chain must not overflow the stack). */
function stronglyConnected(files: string[], next: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const parts: string[][] = [];
  let counter = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { file: string; targets: Iterator<string> }[] = [];
    const enter = (file: string) => {
      index.set(file, counter);
      low.set(file, counter++);
      stack.push(file);
      onStack.add(file);
      work.push({ file, targets: next.get(file)!.values() });
    };
    enter(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const step = top.targets.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(top.file, Math.min(low.get(top.file)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.file)!));
      }
      if (low.get(top.file) === index.get(top.file)) {
        const part: string[] = [];
        let file: string;
        do {
          file = stack.pop()!;
          onStack.delete(file);
          part.push(file);
        } while (file !== top.file);
        parts.push(part);
      }
    }
  }
  return parts;
}

/** Breadth first from `start` back to it, inside one circle. */
function shortestCycle(start: string, within: Set<string>, next: Map<string, Set<string>>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    for (const target of next.get(file)!) {
      if (target === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return [...path, start];
      }
      if (within.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  throw new Error(`${start} is in no circle`);
}

/** The room of a file (a folder under `src/`, a file at its root, or `sim`), as named in ROOMS. */
export function roomOf(file: string): string {
  const [top, name] = file.split("/");
  return top === "sim" ? "sim" : name;
}

/** An import from a room to a higher one, or from a file in no room of ROOMS. */
export interface UpwardArrow extends ImportEdge {
  fromRoom: string;
  toRoom: string;
}

/** Every edge that points up the order of ROOMS, or leaves or enters a room the order does not place. */
export function upwardArrows(graph: ImportGraph): UpwardArrow[] {
  const rank = new Map<string, number>(ROOMS.map((room, i) => [room, i]));
  return graph.edges
    .map((edge) => ({ ...edge, fromRoom: roomOf(edge.from), toRoom: roomOf(edge.to) }))
    .filter(({ fromRoom, toRoom }) => {
      if (fromRoom === toRoom) return false;
      const from = rank.get(fromRoom);
      const to = rank.get(toRoom);
      return from === undefined || to === undefined || to < from;
    });
}

/** Files in a room that ROOMS does not place: each needs a place in the order before its edges can be judged. */
export function unplacedRooms(graph: ImportGraph): string[] {
  const known = new Set<string>(ROOMS);
  return [...new Set(graph.files.map(roomOf))].filter((room) => !known.has(room)).sort();
}

/** `a → b → a`, with the files it holds when the way round does not pass through all of them. */
export function describeCircle(circle: ImportCircle): string {
  const round = circle.path.join(" → ");
  return circle.files.length + 1 === circle.path.length ? round : `${round} (of ${circle.files.length} files: ${circle.files.join(", ")})`;
}

/** `scoring → data: src/scoring/a.ts → src/data/b.ts (type)`. */
export function describeArrow(arrow: UpwardArrow): string {
  const kind = [arrow.typeOnly ? "type" : "", arrow.dynamic ? "dynamic" : ""].filter(Boolean).join(", ");
  return `${arrow.fromRoom} → ${arrow.toRoom}: ${arrow.from} → ${arrow.to}${kind ? ` (${kind})` : ""}`;
}
