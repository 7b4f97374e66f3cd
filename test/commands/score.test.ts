import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatScoreReport, scoreFile } from "../../src/commands/score.js";
import { registerScoreCommand } from "../../src/commands/score-command.js";
import { writeFrameCsv } from "../../src/data/csv.js";
import type { Frame } from "../../src/domain/frame.js";
import { writeFrameParquet } from "../../src/data/parquet.js";
import { Rng } from "../../src/domain/rng.js";
import { scoreExped } from "../../src/scoring/exped.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-score-"));

/** Three expeds, rows interleaved across expeds, a few missing values. */
function sample(): Frame {
  const rng = new Rng("score-command");
  const n = 90;
  const col = (f: () => number) => Float64Array.from({ length: n }, f);
  return {
    ids: Array.from({ length: n }, () => rng.hex(16)),
    exped: Array.from({ length: n }, (_, i) => `exped_000${3 - (i % 3)}`),
    columns: {
      prediction: col(() => (rng.next() < 0.03 ? NaN : rng.next())),
      target: col(() => rng.int(5) / 4),
      v1_designated: col(() => rng.next()),
      feature_a: col(() => (rng.next() < 0.1 ? -1 : rng.int(10))),
      feature_b: col(() => rng.int(10)),
    },
  };
}

function write(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe("scoreFile", () => {
  const frame = sample();
  const core = ["feature_a", "feature_b"];

  it("adds display-only diagnostics: drawdown and autocorrelation per term, the benchmark's CORR series, feature exposure", async () => {
    const report = await scoreFile(write("diag.csv", writeFrameCsv(frame)), { core });
    const corr = report.expeds.map((e) => e.corr);
    let cum = 0;
    let peak = -Infinity;
    let drawdown = 0;
    for (const c of corr) {
      cum += c;
      peak = Math.max(peak, cum);
      drawdown = Math.max(drawdown, peak - cum);
    }
    expect(report.diagnostics.max_drawdown.corr).toBeCloseTo(drawdown, 12);
    const benchmark = report.expeds.map((e) => {
      const rows = frame.exped.flatMap((x, i) => (x === e.exped ? [i] : []));
      const pick = (name: string) => Float64Array.from(rows, (r) => frame.columns[name][r]);
      return scoreExped({
        ids: rows.map((r) => frame.ids[r]),
        target: pick("target"),
        benchmark: pick("v1_designated"),
        core: core.map(pick),
        prediction: pick("v1_designated"),
      }).corr;
    });
    const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
    const [mc, mb] = [mean(corr), mean(benchmark)];
    const cov = corr.reduce((s, v, i) => s + (v - mc) * (benchmark[i] - mb), 0);
    const sd = (x: number[], m: number) => Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0));
    expect(report.diagnostics.benchmark_corr).toBeCloseTo(cov / (sd(corr, mc) * sd(benchmark, mb)), 12);
    const exposure = Math.max(
      ...core.map((name) => {
        const rows = [...frame.ids.keys()].filter((i) => Number.isFinite(frame.columns.prediction[i]) && frame.columns[name][i] !== -1);
        const p = rows.map((i) => frame.columns.prediction[i]);
        const f = rows.map((i) => frame.columns[name][i]);
        const [mp, mf] = [mean(p), mean(f)];
        return Math.abs(p.reduce((s, v, k) => s + (v - mp) * (f[k] - mf), 0) / (sd(p, mp) * sd(f, mf)));
      }),
    );
    expect(report.diagnostics.feature_exposure).toBeCloseTo(exposure, 12);
    expect((await scoreFile(write("diag2.csv", writeFrameCsv(frame)), { core: [] })).diagnostics.feature_exposure).toBeNull();
  });

  it("scores every exped, sorted, with the engine's terms", async () => {
    const report = await scoreFile(write("sample.csv", writeFrameCsv(frame)), { core });
    expect(report.expeds.map((e) => e.exped)).toEqual(["exped_0001", "exped_0002", "exped_0003"]);
    for (const e of report.expeds) {
      const rows = frame.exped.flatMap((x, i) => (x === e.exped ? [i] : []));
      const pick = (name: string) => Float64Array.from(rows, (r) => frame.columns[name][r]);
      const terms = scoreExped({
        ids: rows.map((r) => frame.ids[r]),
        target: pick("target"),
        benchmark: pick("v1_designated"),
        core: core.map(pick),
        prediction: pick("prediction"),
      });
      expect(e).toEqual({ exped: e.exped, ...terms });
    }
    const corr = report.expeds.map((e) => e.corr);
    const mean = corr.reduce((a, b) => a + b, 0) / 3;
    expect(report.summary.corr.mean).toBeCloseTo(mean, 15);
    expect(report.summary.corr.sharpe).toBeCloseTo(mean / report.summary.corr.std, 12);
  });

  it("gives identical JSON for the same data as CSV and as parquet", async () => {
    const fromCsv = await scoreFile(write("same.csv", writeFrameCsv(frame)), { core });
    const fromParquet = await scoreFile(write("same.parquet", writeFrameParquet(frame)), { core });
    expect(JSON.stringify(fromParquet)).toBe(JSON.stringify(fromCsv));
  });

  it("takes `era` for the exped column, reads pandas' inf and -inf (and Infinity) as numbers, and tells how many rows were not scored", async () => {
    const infinite = [Infinity, -Infinity, Infinity];
    const prediction = Float64Array.from(frame.columns.prediction, (v, i) => infinite[i] ?? v);
    const withInf: Frame = { ...frame, columns: { ...frame.columns, prediction } };
    const lines = writeFrameCsv(withInf).split("\n");
    lines[0] = lines[0].replace(/^id,exped,/, "id,era,");
    lines[1] = lines[1].replace(",Infinity,", ",inf,");
    lines[2] = lines[2].replace(",-Infinity,", ",-inf,");
    const told: [number, number][] = [];
    const onDropped = (dropped: number, read: number) => told.push([dropped, read]);
    const fromCsv = await scoreFile(write("era-inf.csv", lines.join("\n")), { core, onDropped });
    const fromParquet = await scoreFile(write("era-inf.parquet", writeFrameParquet(withInf, "era")), { core, onDropped });
    // An infinite prediction is dropped from the scored rows, as a missing one is.
    const nan = await scoreFile(write("nan.csv", writeFrameCsv({ ...frame, columns: { ...frame.columns, prediction: prediction.map((v) => (Number.isFinite(v) ? v : NaN)) } })), { core });
    expect(JSON.stringify(fromCsv)).toBe(JSON.stringify(nan));
    expect(JSON.stringify(fromParquet)).toBe(JSON.stringify(nan));
    const missing = Array.from(frame.columns.prediction.slice(3)).filter(Number.isNaN).length;
    expect(told).toEqual([
      [missing + 3, frame.ids.length],
      [missing + 3, frame.ids.length],
    ]);
  });

  it("names the column or row that is wrong", async () => {
    const csv = writeFrameCsv(frame).split("\n");
    const badValue = [...csv];
    badValue[17] = badValue[17].replace(/^([^,]*,[^,]*,)[^,]*/, "$1abc");
    await expect(scoreFile(write("bad-value.csv", badValue.join("\n")), { core })).rejects.toThrow(
      "row 17: column 'prediction': 'abc' is not a number",
    );
    await expect(scoreFile(write("no-core.csv", csv.join("\n")), { core: ["feature_z"] })).rejects.toThrow("missing column 'feature_z'");
    const dup: Frame = { ...frame, ids: frame.ids.map((id, i) => (i === 6 ? frame.ids[0] : id)) };
    const message = `row 7: id '${frame.ids[0]}' appears more than once in exped 'exped_0003'`;
    await expect(scoreFile(write("dup.csv", writeFrameCsv(dup)), { core })).rejects.toThrow(message);
    await expect(scoreFile(write("dup.parquet", writeFrameParquet(dup)), { core })).rejects.toThrow(message);
    const { v1_designated: _, ...rest } = frame.columns;
    await expect(scoreFile(write("no-bench.parquet", writeFrameParquet({ ...frame, columns: rest })), { core })).rejects.toThrow(
      "missing column 'v1_designated'",
    );
    await expect(scoreFile(write("data.txt", "x"), { core })).rejects.toThrow("expected a .csv or .parquet file");
  });
});

describe("basecamp score", () => {
  afterEach(() => vi.restoreAllMocks());

  const run = async (...args: string[]) => {
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
    const program = new Command().exitOverride().configureOutput({ writeErr: (s) => out.push(s) });
    registerScoreCommand(program);
    await program.parseAsync(["node", "basecamp", "score", ...args]);
    return out.join("");
  };

  it("--json prints exactly the report with full-precision numbers", async () => {
    const path = write("cli.csv", writeFrameCsv(sample()));
    const printed = await run(path, "--core", "feature_a,feature_b", "--json");
    const { expeds, summary } = await scoreFile(path, { core: ["feature_a", "feature_b"] });
    expect(printed).toBe(JSON.stringify({ expeds, summary }) + "\n");
    expect(Object.keys(JSON.parse(printed))).toEqual(["expeds", "summary"]);
    expect(Object.keys(JSON.parse(printed).expeds[0])).toEqual(["exped", "n", "corr", "aimc", "ncorr"]);
    expect(Object.keys(JSON.parse(printed).summary.aimc)).toEqual(["mean", "std", "sharpe"]);
  });

  it("prints a table per exped and a summary, and fails naming the problem", async () => {
    const path = write("table.csv", writeFrameCsv(sample()));
    const printed = await run(path);
    expect(printed).toBe(formatScoreReport(await scoreFile(path, { core: [] })));
    expect(printed).toMatch(/^exped\s+n\s+corr\s+aimc\s+ncorr\nexped_0001\s+\d+\s+-?0\.\d{6}/);
    expect(printed).toMatch(/\nsharpe\s+/);
    expect(printed).toMatch(/\ndiagnostics \(display only\)\s+corr\s+aimc\s+ncorr\nmax_drawdown\s+/);
    await expect(run(path, "--core", "nope")).rejects.toThrow(/missing column 'nope'/);
  });
});
