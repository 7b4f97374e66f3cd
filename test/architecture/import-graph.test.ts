import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeArrow, describeCircle, importCircles, importsOf, readImportGraph, unplacedRooms, upwardArrows, type ImportGraph } from "./import-graph.js";

describe("the repository's import graph (npm run deps)", () => {
  const graph = readImportGraph(fileURLToPath(new URL("../..", import.meta.url)));

  it("has no import circle among the files of src/ and sim/", () => {
    expect(importCircles(graph).map(describeCircle)).toEqual([]);
  });

  it("has no arrow from a lower room of src/ to a higher one", () => {
    expect(upwardArrows(graph).map(describeArrow)).toEqual([]);
  });

  it("places every room of src/ in the order, and every relative import names a file", () => {
    expect(unplacedRooms(graph)).toEqual([]);
    expect(graph.unresolved).toEqual([]);
  });
});

describe("the import-graph check", () => {
  const graphOf = (edges: [string, string][]): ImportGraph => ({
    files: [...new Set(edges.flat())].sort(),
    edges: edges.map(([from, to]) => ({ from, to, typeOnly: false, dynamic: false })),
    unresolved: [],
  });

  it("counts every kind of import, type-only and dynamic ones too, and nothing in comments or strings", () => {
    const text = [
      `import { a } from "./a.js";`,
      `import type { B } from "./b.js";`,
      `import { type C } from "./c.js";`,
      `import "./d.js";`,
      `export { e } from "./e.js";`,
      `export type { F } from "./f.js";`,
      `const g = await import("./g.js");`,
      `let h: import("./h.js").H;`,
      `// import { x } from "./x.js";`,
      `const y = 'import { y } from "./y.js"';`,
    ].join("\n");
    expect(importsOf("t.ts", text)).toEqual([
      { specifier: "./a.js", typeOnly: false, dynamic: false },
      { specifier: "./b.js", typeOnly: true, dynamic: false },
      { specifier: "./c.js", typeOnly: true, dynamic: false },
      { specifier: "./d.js", typeOnly: false, dynamic: false },
      { specifier: "./e.js", typeOnly: false, dynamic: false },
      { specifier: "./f.js", typeOnly: true, dynamic: false },
      { specifier: "./g.js", typeOnly: false, dynamic: true },
      { specifier: "./h.js", typeOnly: true, dynamic: false },
    ]);
  });

  it("finds a circle, however long, with one way round it", () => {
    const graph = graphOf([
      ["src/data/a.ts", "src/data/b.ts"],
      ["src/data/b.ts", "src/data/c.ts"],
      ["src/data/c.ts", "src/data/a.ts"],
      ["src/data/c.ts", "src/data/d.ts"],
      ["src/data/e.ts", "src/data/e.ts"],
    ]);
    expect(importCircles(graph)).toEqual([
      { files: ["src/data/a.ts", "src/data/b.ts", "src/data/c.ts"], path: ["src/data/a.ts", "src/data/b.ts", "src/data/c.ts", "src/data/a.ts"] },
      { files: ["src/data/e.ts"], path: ["src/data/e.ts", "src/data/e.ts"] },
    ]);
  });

  it("names an arrow up the rooms' order, an import of sim/ from below the commands, and a room it cannot place", () => {
    const graph = graphOf([
      ["src/scoring/a.ts", "src/data/b.ts"],
      ["src/data/b.ts", "src/scoring/c.ts"],
      ["src/service/d.ts", "sim/engine.ts"],
      ["src/commands/e.ts", "sim/engine.ts"],
      ["src/nowhere/f.ts", "src/domain/g.ts"],
    ]);
    expect(upwardArrows(graph).map(describeArrow)).toEqual([
      "scoring → data: src/scoring/a.ts → src/data/b.ts",
      "service → sim: src/service/d.ts → sim/engine.ts",
      "nowhere → domain: src/nowhere/f.ts → src/domain/g.ts",
    ]);
    expect(unplacedRooms(graph)).toEqual(["nowhere"]);
  });
});
