import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Cell, planCells } from "../../sim/sweep/cells.js";
import { planIdentity } from "../../sim/sweep/plan-identity.js";
import { parseSweep } from "../../sim/sweep/sweep-file.js";

const root = mkdtempSync(join(tmpdir(), "basecamp-plan-identity-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A sweep folder at `name` with a scenario file beside its sweep file. */
function folder(name: string): string {
  const dir = join(root, name, "sweeps");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mine.json"), "{}");
  return dir;
}

const RAW = {
  base: { strategy: "agent.py", against: ["../shared/other.py", "random"], dataset: { dir: "data" } },
  axes: { strategies: ["agent.py", "ridge"], scenarios: ["mine.json", "default-tournament"], seeds: [1, 2] },
};

const identityIn = (dir: string, raw: unknown = RAW) => {
  const sweep = parseSweep(raw, "grid.json", dir);
  const cells = planCells(sweep);
  return { cells, identity: planIdentity(cells, sweep) };
};

describe("a results store's plan identity", () => {
  it("is the same for the same sweep file in another folder, though every cell's absolute paths differ", () => {
    const [a, b] = [identityIn(folder("a")), identityIn(folder("b/c"))];
    expect(a.cells).toHaveLength(8);
    expect(a.cells[0].cell.strategy).not.toBe(b.cells[0].cell.strategy);
    expect(a.identity).toEqual(b.identity);
  });

  it("writes files from the sweep's folder, built-in strategies and scenarios by name", () => {
    const { identity } = identityIn(folder("d"));
    const cells = (identity as { cell: Record<string, unknown> }[]).map((c) => c.cell);
    expect(cells[0]).toMatchObject({ strategy: "agent.py", against: ["../shared/other.py", "random"], scenario: "mine.json", dataset: { dir: "data" } });
    expect(cells.map((c) => c.scenario)).toEqual(["mine.json", "mine.json", "built-in default-tournament", "built-in default-tournament", "mine.json", "mine.json", "built-in default-tournament", "built-in default-tournament"]);
    expect(cells.map((c) => c.strategy)).toEqual(["agent.py", "agent.py", "agent.py", "agent.py", "ridge", "ridge", "ridge", "ridge"]);
  });

  it("keeps a path the file gave as absolute (data on a shared mount) as it is, wherever the sweep's folder is", () => {
    const raw = { ...RAW, base: { ...RAW.base, dataset: { dir: "/shared/data" }, against: ["/shared/other.py"] } };
    const [a, b] = [identityIn(folder("f"), raw), identityIn(folder("g/h"), raw)];
    expect(a.identity).toEqual(b.identity);
    expect((a.identity as { cell: Cell }[])[0].cell).toMatchObject({ against: ["/shared/other.py"], dataset: { dir: "/shared/data" } });
  });

  it("tells a changed sweep apart: another parameter, seed or file", () => {
    const dir = folder("e");
    const base = identityIn(dir).identity;
    expect(identityIn(dir, { ...RAW, base: { ...RAW.base, params: { alpha: 2 } } }).identity).not.toEqual(base);
    expect(identityIn(dir, { ...RAW, axes: { ...RAW.axes, seeds: [1, 3] } }).identity).not.toEqual(base);
    expect(identityIn(dir, { ...RAW, base: { ...RAW.base, strategy: "sub/agent.py" }, axes: { ...RAW.axes, strategies: undefined } }).identity).not.toEqual(
      identityIn(dir, { ...RAW, axes: { ...RAW.axes, strategies: undefined } }).identity,
    );
  });
});
